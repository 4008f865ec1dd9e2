package dev.twstester.sim;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import org.apache.spark.sql.Encoder;

/**
 * A stored value of the {@code avro} state encoding that an earlier version of the query wrote and
 * no later version rewrote: its stored form with the encoder it was written with (Spark keeps the
 * writer's schema id with each Avro value). It is read with the reading version's encoder at each
 * read, by Avro's schema resolution ({@link StateEvolution#reader}), so a field that a middle
 * version lacked comes back when a version that has it returns. With {@code unsaferow} there are no
 * such values: the bytes are read by position.
 *
 * <p>Example: v1 writes {@code C1{count=1, name=v1}} for key b; v2 (without {@code name}) runs
 * without touching b; v1 deployed again reads b as {@code C1{count=1, name=v1}}.
 */
final class WrittenValue implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Encoder<?> writer;
    private final Object stored;

    private WrittenValue(Encoder<?> writer, Object stored) {
        this.writer = writer;
        this.stored = stored;
    }

    /**
     * {@code stored} (a stored form of {@code writer}'s, or a value already kept with its writer) as
     * a variable reading with {@code reader} keeps it: as it is when the reader wrote it, else
     * with its writer.
     */
    static Object keep(Object stored, Encoder<?> writer, Encoder<?> reader) {
        if (stored instanceof WrittenValue w) {
            return w.writer.equals(reader) ? w.stored : w;
        }
        return writer.equals(reader) ? stored : new WrittenValue(writer, stored);
    }

    /** The encoder the value was written with. */
    Encoder<?> writer() {
        return writer;
    }

    /** The stored form, as {@link #writer()}'s codec stored it. */
    Object stored() {
        return stored;
    }

    /** The value as {@code reader} reads it (a value of the reader's type), for comparisons of stored state. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    Object readAs(Encoder<?> reader) {
        UnaryOperator<Object> read = StateEvolution.reader(writer, reader, Codec.byReference(), true);
        if (read != null) {
            return read.apply(stored);
        }
        return stored instanceof byte[] bytes && !KeyCodec.of(writer).immutable() ? KeyCodec.of((Encoder) writer).decode(bytes) : stored;
    }

    /**
     * {@code values}, reading a {@link WrittenValue} with {@code reader} at each read (the
     * resolution of each writer is made once per variable); other stored forms are {@code values}'s own.
     */
    static <T> Codec<T> resolving(Codec<T> values, Encoder<T> reader) {
        Map<Encoder<?>, UnaryOperator<Object>> readers = new HashMap<>();
        return new Codec<>() {
            @Override
            public Object store(T value) {
                return values.store(value);
            }

            @Override
            public T load(Object stored) {
                if (!(stored instanceof WrittenValue w)) {
                    return values.load(stored);
                }
                UnaryOperator<Object> read = readers.computeIfAbsent(w.writer,
                        writer -> StateEvolution.reader(writer, reader, values, true));
                return values.load(read == null ? w.stored : read.apply(w.stored));
            }
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WrittenValue w && writer.equals(w.writer) && StateVariable.sameStored(stored, w.stored);
    }

    @Override
    public int hashCode() {
        return Objects.hash(writer, stored instanceof byte[] b ? java.util.Arrays.hashCode(b) : Objects.hashCode(stored));
    }

    @Override
    public String toString() {
        return "WrittenValue[" + writer.schema().simpleString() + "]";
    }
}
