package dev.twstester.sim;

import org.apache.spark.sql.Encoder;

import dev.twstester.internal.RowCodec;

/** {@link KeyCodec} through Spark's own encoder, created on first use (it loads Catalyst). */
final class SparkRows<T> implements KeyCodec<T> {
    private final Encoder<T> encoder;
    private RowCodec<T> codec;

    SparkRows(Encoder<T> encoder) {
        this.encoder = encoder;
    }

    RowCodec<T> codec() {
        if (codec == null) {
            codec = RowCodec.of(encoder);
        }
        return codec;
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
    public byte[] nestedBytes(byte[] bytes) {
        return codec().nestedBytes(bytes);
    }
}
