package dev.twstester.sim;

import org.apache.spark.sql.Encoder;

/**
 * A type's UnsafeRow encoding as Spark's encoder produces it: the bytes the state store keys
 * by, Spark SQL's order of them, and the nested-row bytes whose RocksDB order decides timer ties
 * and MapState iteration.
 */
interface KeyCodec<T> {
    /** Hand-written bytes for strings and boxed integers, Spark's encoder (Catalyst) for the rest. */
    static <T> KeyCodec<T> of(Encoder<T> encoder) {
        KeyCodec<T> primitive = PrimitiveRows.forEncoder(encoder);
        return primitive != null ? primitive : new SparkRows<>(encoder);
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
}
