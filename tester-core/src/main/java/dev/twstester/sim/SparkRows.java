package dev.twstester.sim;

import org.apache.spark.sql.Encoder;

import dev.twstester.internal.RowCodec;

/**
 * {@link KeyCodec} through Spark's own encoder, created on first use (it loads Catalyst). The
 * codec is the calling thread's shared one ({@link RowCodec#forThisThread}), so a simulator used
 * from several threads (one at a time) stays correct and new simulators reuse generated code.
 */
final class SparkRows<T> implements KeyCodec<T> {
    private final Encoder<T> encoder;
    private volatile Owned<T> last;
    /** For a tuple of strings and boxed integers (immutable, like its elements): the element classes. */
    private final Class<?>[] tuple;

    SparkRows(Encoder<T> encoder) {
        this.encoder = encoder;
        this.tuple = KeyCodec.immutableTuple(encoder);
    }

    /** Tuples of strings and boxed integers: a decoded copy cannot be told from the original. */
    @Override
    public boolean immutable() {
        return tuple != null;
    }

    @Override
    public boolean acceptsAsIs(T value) {
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
        Owned<T> owned = last;
        Thread current = Thread.currentThread();
        if (owned == null || owned.thread != current) {
            owned = new Owned<>(current, RowCodec.forThisThread(encoder));
            last = owned;
        }
        return owned.codec;
    }

    private record Owned<T>(Thread thread, RowCodec<T> codec) {}

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
