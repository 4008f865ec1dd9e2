package dev.twstester.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.hash.Murmur3_x86_32;

/**
 * The fast path of {@link NativeCodec} for the flat encoders of strings and boxed integers: the bytes of
 * their one-column row, written, read, hashed and ordered by hand with the results of the row's
 * {@link Layout} (an 8-byte null bitset, an 8-byte slot holding the little-endian value, or the offset
 * and size of the UTF-8 bytes, which follow padded to 8 bytes), without a writer or an {@code UnsafeRow}.
 */
enum FlatRow {
    STRING, LONG, INT, SHORT, BYTE, BOOLEAN;

    /** The null bitset and the one slot. */
    private static final int HEADER = 16;

    /** The fast path of a flat encoder whose root part is {@code root}, or null. */
    static FlatRow of(JavaValues<?> root) {
        return root instanceof JavaValues.Atom leaf && !leaf.primitive ? of(leaf.atom) : null;
    }

    /** The fast path of the flat encoder of boxed {@code atom}s, or null. */
    static FlatRow of(ExternalAtom atom) {
        return switch (atom) {
            case STRING -> STRING;
            case LONG -> LONG;
            case INT -> INT;
            case SHORT -> SHORT;
            case BYTE -> BYTE;
            case BOOLEAN -> BOOLEAN;
            default -> null;
        };
    }

    byte[] encode(Object value) {
        if (value == null) {
            byte[] row = new byte[HEADER];
            row[0] = 1;
            return row;
        }
        if (this == STRING) {
            byte[] utf8 = ((String) value).getBytes(StandardCharsets.UTF_8);
            byte[] row = new byte[HEADER + ((utf8.length + 7) & ~7)];
            putLong(row, 8, ((long) HEADER << 32) | utf8.length);
            System.arraycopy(utf8, 0, row, HEADER, utf8.length);
            return row;
        }
        byte[] row = new byte[HEADER];
        long bits = switch (this) {
            case LONG -> (Long) value;
            case INT -> ((Integer) value) & 0xFFFFFFFFL;
            case SHORT -> ((Short) value) & 0xFFFFL;
            case BYTE -> ((Byte) value) & 0xFFL;
            default -> ((Boolean) value) ? 1L : 0L;
        };
        putLong(row, 8, bits);
        return row;
    }

    Object decode(byte[] row) {
        if ((row[0] & 1) != 0) {
            return null;
        }
        long slot = getLong(row, 8);
        return switch (this) {
            case STRING -> new String(row, (int) (slot >>> 32), (int) slot, StandardCharsets.UTF_8);
            case LONG -> slot;
            case INT -> (int) slot;
            case SHORT -> (short) slot;
            case BYTE -> (byte) slot;
            case BOOLEAN -> slot != 0;
        };
    }

    int partition(byte[] row, int partitions) {
        if ((row[0] & 1) != 0) {
            return Math.floorMod(RowCodec.HASH_SEED, partitions);
        }
        long slot = getLong(row, 8);
        int hash = switch (this) {
            case STRING -> Murmur3_x86_32.hashUnsafeBytes(row, Platform.BYTE_ARRAY_OFFSET + (int) (slot >>> 32),
                    (int) slot, RowCodec.HASH_SEED);
            case LONG -> Murmur3_x86_32.hashLong(slot, RowCodec.HASH_SEED);
            case INT -> Murmur3_x86_32.hashInt((int) slot, RowCodec.HASH_SEED);
            case SHORT -> Murmur3_x86_32.hashInt((short) slot, RowCodec.HASH_SEED);
            case BYTE -> Murmur3_x86_32.hashInt((byte) slot, RowCodec.HASH_SEED);
            case BOOLEAN -> Murmur3_x86_32.hashInt(slot != 0 ? 1 : 0, RowCodec.HASH_SEED);
        };
        return Math.floorMod(hash, partitions);
    }

    int compare(byte[] a, byte[] b) {
        boolean aNull = (a[0] & 1) != 0;
        boolean bNull = (b[0] & 1) != 0;
        if (aNull || bNull) {
            return Boolean.compare(!aNull, !bNull);
        }
        if (this == STRING) {
            int lenA = (int) getLong(a, 8);
            int lenB = (int) getLong(b, 8);
            return Arrays.compareUnsigned(a, HEADER, HEADER + lenA, b, HEADER, HEADER + lenB);
        }
        @SuppressWarnings({"unchecked", "rawtypes"})
        int c = ((Comparable) decode(a)).compareTo(decode(b));
        return c;
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
