package dev.twstester.sim;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;

import dev.twstester.internal.RowCodec;
import org.apache.spark.sql.Encoders;

/**
 * Spark's UnsafeRow encoding of a one-column row for strings and boxed integers, written out by
 * hand: the same bytes {@code Encoders.STRING()}, {@code LONG()}, {@code INT()}, {@code SHORT()},
 * {@code BYTE()} and {@code BOOLEAN()} produce, without loading Catalyst or compiling code.
 * Layout: an 8-byte null bitset, an 8-byte slot (the little-endian value, or offset and size of
 * the UTF-8 bytes, which follow padded to 8 bytes). {@code PrimitiveRowsTest} checks every case
 * against Spark's encoder.
 */
final class PrimitiveRows<T> implements KeyCodec<T> {
    private static final int HEADER = 16;

    private enum Kind { STRING, LONG, INT, SHORT, BYTE, BOOLEAN }

    private final Kind kind;

    private PrimitiveRows(Kind kind) {
        this.kind = kind;
    }

    /** The hand-written codec for {@code encoder}, or null when it is not one of the supported ones. */
    @SuppressWarnings("unchecked")
    static <T> PrimitiveRows<T> forEncoder(Encoder<T> encoder) {
        Kind kind = encoder.equals(Encoders.STRING()) ? Kind.STRING
                : encoder.equals(Encoders.LONG()) ? Kind.LONG
                : encoder.equals(Encoders.INT()) ? Kind.INT
                : encoder.equals(Encoders.SHORT()) ? Kind.SHORT
                : encoder.equals(Encoders.BYTE()) ? Kind.BYTE
                : encoder.equals(Encoders.BOOLEAN()) ? Kind.BOOLEAN
                : null;
        return kind == null ? null : (PrimitiveRows<T>) new PrimitiveRows<>(kind);
    }

    @Override
    public byte[] encode(T value) {
        if (value == null) {
            byte[] row = new byte[HEADER];
            row[0] = 1;
            return row;
        }
        if (kind == Kind.STRING) {
            byte[] utf8 = ((String) value).getBytes(StandardCharsets.UTF_8);
            byte[] row = new byte[HEADER + roundUp(utf8.length)];
            putLong(row, 8, ((long) HEADER << 32) | utf8.length);
            System.arraycopy(utf8, 0, row, HEADER, utf8.length);
            return row;
        }
        byte[] row = new byte[HEADER];
        long bits = switch (kind) {
            case LONG -> (Long) value;
            case INT -> ((Integer) value) & 0xFFFFFFFFL;
            case SHORT -> ((Short) value) & 0xFFFFL;
            case BYTE -> ((Byte) value) & 0xFFL;
            default -> ((Boolean) value) ? 1L : 0L;
        };
        putLong(row, 8, bits);
        return row;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T decode(byte[] row) {
        if ((row[0] & 1) != 0) {
            return null;
        }
        long slot = getLong(row, 8);
        Object value = switch (kind) {
            case STRING -> new String(row, (int) (slot >>> 32), (int) slot, StandardCharsets.UTF_8);
            case LONG -> slot;
            case INT -> (int) slot;
            case SHORT -> (short) slot;
            case BYTE -> (byte) slot;
            case BOOLEAN -> slot != 0;
        };
        return (T) value;
    }

    /** The class of the values: String, Long, Integer, Short, Byte or Boolean. */
    Class<?> javaClass() {
        return switch (kind) {
            case STRING -> String.class;
            case LONG -> Long.class;
            case INT -> Integer.class;
            case SHORT -> Short.class;
            case BYTE -> Byte.class;
            case BOOLEAN -> Boolean.class;
        };
    }

    @Override
    public int partition(byte[] row, int partitions) {
        if ((row[0] & 1) != 0) {
            return Math.floorMod(RowCodec.HASH_SEED, partitions);
        }
        long slot = getLong(row, 8);
        int hash = switch (kind) {
            case STRING -> RowCodec.hashColumn(
                    UTF8String.fromBytes(row, (int) (slot >>> 32), (int) slot), DataTypes.StringType, RowCodec.HASH_SEED);
            case LONG -> RowCodec.hashColumn(slot, DataTypes.LongType, RowCodec.HASH_SEED);
            case INT -> RowCodec.hashColumn((int) slot, DataTypes.IntegerType, RowCodec.HASH_SEED);
            case SHORT -> RowCodec.hashColumn((short) slot, DataTypes.ShortType, RowCodec.HASH_SEED);
            case BYTE -> RowCodec.hashColumn((byte) slot, DataTypes.ByteType, RowCodec.HASH_SEED);
            case BOOLEAN -> RowCodec.hashColumn(slot != 0, DataTypes.BooleanType, RowCodec.HASH_SEED);
        };
        return Math.floorMod(hash, partitions);
    }

    @Override
    public int compareNatural(byte[] a, byte[] b) {
        boolean aNull = (a[0] & 1) != 0;
        boolean bNull = (b[0] & 1) != 0;
        if (aNull || bNull) {
            return Boolean.compare(!aNull, !bNull);
        }
        if (kind == Kind.STRING) {
            int lenA = (int) getLong(a, 8);
            int lenB = (int) getLong(b, 8);
            return Arrays.compareUnsigned(a, HEADER, HEADER + lenA, b, HEADER, HEADER + lenB);
        }
        @SuppressWarnings({"unchecked", "rawtypes"})
        int c = ((Comparable) decode(a)).compareTo(decode(b));
        return c;
    }

    @Override
    public boolean immutable() {
        return true;
    }

    @Override
    public byte[] nestedBytes(byte[] row) {
        byte[] outer = new byte[HEADER + row.length];
        putLong(outer, 8, ((long) HEADER << 32) | row.length);
        System.arraycopy(row, 0, outer, HEADER, row.length);
        return outer;
    }

    private static int roundUp(int n) {
        return (n + 7) & ~7;
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }

    private static long getLong(byte[] b, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[at + i] & 0xFFL);
        }
        return v;
    }
}
