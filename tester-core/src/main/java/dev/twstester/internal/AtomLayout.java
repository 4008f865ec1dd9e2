package dev.twstester.internal;

import java.util.Arrays;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeWriter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.hash.Murmur3_x86_32;
import org.apache.spark.unsafe.types.CalendarInterval;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * An atomic value's place in the row format, by its physical type ({@code PhysicalDataType}): the
 * fixed-width ones (boolean to double; a date and a year-month interval are an int, a timestamp, a
 * timestamp_ntz and a day-time interval a long) live in their 8-byte slot, a string, a binary and a
 * calendar interval after the fixed part, their slot holding offset and size.
 */
final class AtomLayout extends Layout {
    static final int BOOLEAN = 0, BYTE = 1, SHORT = 2, INT = 3, LONG = 4, FLOAT = 5, DOUBLE = 6, STRING = 7,
            BINARY = 8, INTERVAL = 9;

    /** One of the constants above. */
    final int kind;

    private AtomLayout(DataType type, int kind) {
        super(type);
        this.kind = kind;
    }

    /** The layout of the atomic {@code type} ({@link ExternalAtom#of}); throws {@link Uncovered} for any other type. */
    static AtomLayout of(DataType type) {
        ExternalAtom atom = ExternalAtom.of(type);
        if (atom == null) {
            throw new Uncovered(type);
        }
        return new AtomLayout(type, atom.layoutKind);
    }

    @Override
    int elementSize() {
        return switch (kind) {
            case BOOLEAN, BYTE -> 1;
            case SHORT -> 2;
            case INT, FLOAT -> 4;
            default -> 8;
        };
    }

    @Override
    void write(UnsafeWriter w, int i, Object v) {
        switch (kind) {
            case BOOLEAN -> w.write(i, ((Boolean) v).booleanValue());
            case BYTE -> w.write(i, ((Byte) v).byteValue());
            case SHORT -> w.write(i, ((Short) v).shortValue());
            case INT -> w.write(i, ((Integer) v).intValue());
            case LONG -> w.write(i, ((Long) v).longValue());
            case FLOAT -> w.write(i, ((Float) v).floatValue());
            case DOUBLE -> w.write(i, ((Double) v).doubleValue());
            case STRING -> w.write(i, (UTF8String) v);
            case BINARY -> w.write(i, (byte[]) v);
            default -> w.write(i, (CalendarInterval) v);
        }
    }

    /**
     * A null calendar interval keeps its 16 bytes after the fixed part, as {@code GenerateUnsafeProjection}
     * writes it. Spark leaves them as its reused buffer held them (stale bytes of an earlier row); this
     * writes zeroes.
     */
    @Override
    void writeNullField(UnsafeRowWriter w, int ordinal) {
        if (kind != INTERVAL) {
            w.setNullAt(ordinal);
            return;
        }
        w.write(ordinal, (CalendarInterval) null);
        Platform.putLong(w.getBuffer(), w.cursor() - 16, 0L);
        Platform.putLong(w.getBuffer(), w.cursor() - 8, 0L);
    }

    @Override
    Object read(SpecializedGetters d, int i) {
        return switch (kind) {
            case BOOLEAN -> d.getBoolean(i);
            case BYTE -> d.getByte(i);
            case SHORT -> d.getShort(i);
            case INT -> d.getInt(i);
            case LONG -> d.getLong(i);
            case FLOAT -> d.getFloat(i);
            case DOUBLE -> d.getDouble(i);
            case STRING -> d.getUTF8String(i);
            case BINARY -> d.getBinary(i);
            default -> d.getInterval(i);
        };
    }

    @Override
    int hash(SpecializedGetters d, int i, int seed) {
        switch (kind) {
            case BOOLEAN:
                return Murmur3_x86_32.hashInt(d.getBoolean(i) ? 1 : 0, seed);
            case BYTE:
                return Murmur3_x86_32.hashInt(d.getByte(i), seed);
            case SHORT:
                return Murmur3_x86_32.hashInt(d.getShort(i), seed);
            case INT:
                return Murmur3_x86_32.hashInt(d.getInt(i), seed);
            case LONG:
                return Murmur3_x86_32.hashLong(d.getLong(i), seed);
            case FLOAT:
                float f = d.getFloat(i);
                return Murmur3_x86_32.hashInt(f == -0.0f ? 0 : Float.floatToIntBits(f), seed);
            case DOUBLE:
                double x = d.getDouble(i);
                return Murmur3_x86_32.hashLong(x == -0.0d ? 0L : Double.doubleToLongBits(x), seed);
            case STRING:
                UTF8String s = d.getUTF8String(i);
                return Murmur3_x86_32.hashUnsafeBytes(s.getBaseObject(), s.getBaseOffset(), s.numBytes(), seed);
            case BINARY:
                byte[] b = d.getBinary(i);
                return Murmur3_x86_32.hashUnsafeBytes(b, Platform.BYTE_ARRAY_OFFSET, b.length, seed);
            default:
                CalendarInterval c = d.getInterval(i);
                return Murmur3_x86_32.hashInt(c.months, Murmur3_x86_32.hashInt(c.days,
                        Murmur3_x86_32.hashLong(c.microseconds, seed)));
        }
    }

    @Override
    boolean orderable() {
        return kind != INTERVAL;
    }

    /** SQL order: NaN largest and -0.0 equal to 0.0 ({@code SQLOrderingUtil}), binary as unsigned bytes. */
    @Override
    int compare(SpecializedGetters a, int i, SpecializedGetters b, int j) {
        switch (kind) {
            case BOOLEAN:
                return Boolean.compare(a.getBoolean(i), b.getBoolean(j));
            case BYTE:
                return Byte.compare(a.getByte(i), b.getByte(j));
            case SHORT:
                return Short.compare(a.getShort(i), b.getShort(j));
            case INT:
                return Integer.compare(a.getInt(i), b.getInt(j));
            case LONG:
                return Long.compare(a.getLong(i), b.getLong(j));
            case FLOAT:
                float x = a.getFloat(i);
                float y = b.getFloat(j);
                return x == y ? 0 : Float.compare(x, y);
            case DOUBLE:
                double dx = a.getDouble(i);
                double dy = b.getDouble(j);
                return dx == dy ? 0 : Double.compare(dx, dy);
            case STRING:
                return a.getUTF8String(i).binaryCompare(b.getUTF8String(j));
            case BINARY:
                return Arrays.compareUnsigned(a.getBinary(i), b.getBinary(j));
            default:
                throw unordered();
        }
    }
}
