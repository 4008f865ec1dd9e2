package dev.twstester.internal;

import java.util.Arrays;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeWriter;
import org.apache.spark.sql.types.StructType;

/**
 * A row, top-level or nested in another: a null bitset of 8-byte words, an 8-byte slot per field, then
 * the fields' variable-length parts in field order ({@code UnsafeRowWriter}). A nested row is written
 * after its parent's fixed part like any variable-length value. A top-level row is written field by
 * field as its values are converted ({@link FieldWriter}), into a buffer each thread reuses.
 */
final class StructLayout extends Layout {
    final Layout[] fields;
    /** This row's buffer per thread, as a top-level row; made on the first {@link #toBytes}. */
    private volatile Buffers buffers;

    StructLayout(StructType type, Layout[] fields) {
        super(type);
        this.fields = fields;
    }

    /**
     * Converts a value's fields and writes each ({@link #writeField}) as it comes: a row's fields are
     * converted in order, so a failure is the first one Spark's serializer meets.
     */
    interface FieldWriter {
        void writeFields(StructLayout row, UnsafeRowWriter writer, Object value);
    }

    /** The bytes of the top-level row {@code fields} writes of {@code value}: a new array. */
    byte[] toBytes(FieldWriter fields, Object value) {
        RowBuffer buffer = start();
        try {
            fields.writeFields(this, buffer.writer, value);
            return Arrays.copyOf(buffer.writer.getBuffer(), buffer.writer.totalSize());
        } finally {
            buffer.writing = false;
        }
    }

    /** The bytes of the top-level row of {@code values}, one value (or null) per field: a new array. */
    byte[] toBytes(Object[] values) {
        return toBytes(VALUES, values);
    }

    /** Writes field {@code i}'s value (or null). */
    void writeField(UnsafeRowWriter writer, int i, Object value) {
        if (value == null) {
            fields[i].writeNullField(writer, i);
        } else {
            Layout.writeValue(fields[i], writer, i, value);
        }
    }

    /**
     * The current thread's buffer, emptied; or a new one while that one is in use (a bean getter
     * encoding a value of the same type while its own row is being written).
     */
    private RowBuffer start() {
        Buffers perThread = buffers;
        if (perThread == null) {
            perThread = new Buffers(fields.length);
            buffers = perThread;
        }
        RowBuffer buffer = perThread.get();
        if (buffer.writing) {
            buffer = new RowBuffer(fields.length);
        }
        buffer.writing = true;
        buffer.writer.reset();
        buffer.writer.zeroOutNullBytes();
        return buffer;
    }

    /** A top-level row's writer, whose buffer keeps its size from row to row, and whether a row is being written. */
    private static final class RowBuffer {
        final UnsafeRowWriter writer;
        boolean writing;

        RowBuffer(int fields) {
            writer = new UnsafeRowWriter(fields, 64);
        }
    }

    private static final class Buffers extends ThreadLocal<RowBuffer> {
        private final int fields;

        Buffers(int fields) {
            this.fields = fields;
        }

        @Override
        protected RowBuffer initialValue() {
            return new RowBuffer(fields);
        }
    }

    /** The fields of a row given as their values, one (or null) per field. */
    private static final FieldWriter VALUES = new FieldWriter() {
        @Override
        public void writeFields(StructLayout row, UnsafeRowWriter writer, Object values) {
            row.writeFields(writer, (Object[]) values);
        }
    };

    /** Writes each field's value (or null) into the row {@code writer} writes. */
    void writeFields(UnsafeRowWriter writer, Object[] values) {
        for (int i = 0; i < fields.length; i++) {
            writeField(writer, i, values[i]);
        }
    }

    @Override
    void write(UnsafeWriter w, int i, Object v) {
        int previous = w.cursor();
        UnsafeRowWriter nested = new UnsafeRowWriter(w, fields.length);
        nested.resetRowWriter();
        writeFields(nested, (Object[]) v);
        w.setOffsetAndSizeFromPreviousCursor(i, previous);
    }

    @Override
    Object read(SpecializedGetters d, int i) {
        return d.getStruct(i, fields.length);
    }

    @Override
    int hash(SpecializedGetters d, int i, int seed) {
        return hashFields(d.getStruct(i, fields.length), seed);
    }

    /** Spark's {@code Murmur3Hash} of the row's fields in order, from {@code seed}; a null field leaves it as it is. */
    int hashFields(InternalRow row, int seed) {
        int hash = seed;
        for (int i = 0; i < fields.length; i++) {
            hash = fields[i].hashNullable(row, i, hash);
        }
        return hash;
    }

    @Override
    boolean orderable() {
        for (Layout field : fields) {
            if (!field.orderable()) {
                return false;
            }
        }
        return true;
    }

    @Override
    int compare(SpecializedGetters a, int i, SpecializedGetters b, int j) {
        return compareFields(a.getStruct(i, fields.length), b.getStruct(j, fields.length));
    }

    /** Field by field, ascending, nulls first. */
    int compareFields(InternalRow a, InternalRow b) {
        for (int i = 0; i < fields.length; i++) {
            int c = fields[i].compareNullable(a, i, b, i);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
