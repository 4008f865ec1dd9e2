package dev.twstester.sim;

import org.apache.spark.sql.Encoder;

import dev.twstester.internal.EncoderShapes;
import dev.twstester.internal.RowCodec;

/**
 * {@link KeyCodec} through the shared {@link RowCodec} of an encoder (native bytes when the encoder
 * is covered, else Spark's encoder), looked up on first use so that building a simulator costs
 * nothing for encoders it never runs.
 */
final class SparkRows<T> implements KeyCodec<T> {
    private final Encoder<T> encoder;
    private volatile RowCodec<T> codec;
    /** For strings and boxed integers (immutable: kept by reference at FULL, like tuples of them): their class. */
    private final Class<?> flat;
    /** For a tuple of strings and boxed integers (immutable, like its elements): the element classes. */
    private final Class<?>[] tuple;

    SparkRows(Encoder<T> encoder) {
        this.encoder = encoder;
        this.flat = EncoderShapes.immutableLeafClass(encoder);
        this.tuple = KeyCodec.immutableTuple(encoder);
    }

    @Override
    public boolean immutable() {
        return flat != null || tuple != null;
    }

    @Override
    public boolean acceptsAsIs(T value) {
        if (flat != null) {
            return value == null || value.getClass() == flat;
        }
        if (tuple == null) {
            return true;
        }
        if (!(value instanceof scala.Product p) || p.productArity() != tuple.length) {
            return false;
        }
        for (int i = 0; i < tuple.length; i++) {
            Object element = p.productElement(i);
            if (element != null && element.getClass() != tuple[i]) {
                return false;
            }
        }
        return true;
    }

    RowCodec<T> codec() {
        RowCodec<T> c = codec;
        if (c == null) {
            c = RowCodec.of(encoder);
            codec = c;
        }
        return c;
    }

    @Override
    public byte[] encode(T value) {
        return codec().encode(value);
    }

    @Override
    public T decode(byte[] bytes) {
        return codec().decode(bytes);
    }

    @Override
    public int compareNatural(byte[] a, byte[] b) {
        return codec().compareNatural(a, b);
    }

    @Override
    public int partition(byte[] bytes, int partitions) {
        return codec().partition(bytes, partitions);
    }

    @Override
    public byte[] nestedBytes(byte[] bytes) {
        return codec().nestedBytes(bytes);
    }
}
