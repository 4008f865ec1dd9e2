package dev.twstester.sim;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;

/**
 * The checks a snapshot reader can make of UnsafeRow bytes without decoding them: the length (a
 * multiple of 8 that holds the null bitset and one 8-byte slot per field) and, for each non-null
 * variable-length field, that its offset and size point inside the row's variable-length part.
 * Nested values are not checked: a restore decodes them.
 */
final class UnsafeRowShape {
    private UnsafeRowShape() {
    }

    /** What is wrong with {@code bytes} as a row of {@code schema}, or null. */
    static String problem(byte[] bytes, StructType schema) {
        int fields = schema.length();
        int bitset = UnsafeRow.calculateBitSetWidthInBytes(fields);
        long fixed = bitset + 8L * fields;
        if (bytes.length % 8 != 0 || bytes.length < fixed) {
            return bytes.length + " bytes, expected a multiple of 8 and at least " + fixed;
        }
        ByteBuffer row = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < fields; i++) {
            boolean isNull = (row.getLong((i >> 6) * 8) & (1L << (i & 63))) != 0;
            if (isNull || UnsafeRow.isFixedLength(schema.fields()[i].dataType())) {
                continue;
            }
            long slot = row.getLong(bitset + 8 * i);
            long offset = slot >>> 32;
            long size = slot & 0xffffffffL;
            if (offset < fixed || offset + size > bytes.length) {
                return "field " + schema.fields()[i].name() + " has offset " + offset + " and size " + size
                        + ", outside the row's variable-length part (bytes " + fixed + " to " + bytes.length + ")";
            }
        }
        return null;
    }
}
