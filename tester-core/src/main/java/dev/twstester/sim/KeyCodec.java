package dev.twstester.sim;

import org.apache.spark.sql.Encoder;

import dev.twstester.internal.EncoderShapes;

/**
 * A type's UnsafeRow encoding as Spark's encoder produces it: the bytes the state store keys
 * by, Spark SQL's order of them, and the nested-row bytes whose RocksDB order decides timer ties
 * and MapState iteration.
 */
interface KeyCodec<T> {
    /** The shared codec of {@code encoder} ({@code RowCodec.of}: native, or Spark's encoder when not covered). */
    static <T> KeyCodec<T> of(Encoder<T> encoder) {
        return new SparkRows<>(encoder);
    }

    /** The Java classes a tuple's elements must have, when every element is a string or boxed integer type; else null. */
    static Class<?>[] immutableTuple(Encoder<?> encoder) {
        Encoder<?>[] elements = EncoderShapes.tupleElements(encoder);
        if (elements == null) {
            return null;
        }
        Class<?>[] classes = new Class<?>[elements.length];
        for (int i = 0; i < elements.length; i++) {
            Class<?> leaf = EncoderShapes.immutableLeafClass(elements[i]);
            if (leaf == null) {
                return null;
            }
            classes[i] = leaf;
        }
        return classes;
    }

    byte[] encode(T value);

    T decode(byte[] bytes);

    /** Spark SQL's ascending order (nulls first), as the sort before grouping. */
    int compareNatural(byte[] a, byte[] b);

    /** The shuffle partition of the encoded key: {@code pmod(murmur3(key columns, 42), partitions)}. */
    int partition(byte[] bytes, int partitions);

    /** The row as a nested struct in a one-column row (see {@code RowCodec#nestedBytes}). */
    byte[] nestedBytes(byte[] bytes);

    /**
     * True when a decoded copy cannot be told from the original (strings, boxed numbers): then
     * keeping the object itself is exactly as faithful as an encode/decode round trip.
     */
    default boolean immutable() {
        return false;
    }

    /**
     * For an {@link #immutable()} type: whether Spark's encoder takes {@code value} as it is (so
     * keeping it by reference cannot hide an encoder error). When false, encode it to get Spark's error.
     */
    default boolean acceptsAsIs(T value) {
        return true;
    }
}
