package dev.twstester.internal;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeWriter;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.hash.Murmur3_x86_32;

/**
 * A decimal's place in the row format ({@code UnsafeWriter.write(ordinal, Decimal, precision, scale)}):
 * up to 18 digits the unscaled long in its slot; wider, the unscaled value's big-endian bytes in 16
 * bytes after the fixed part, which a null value keeps too.
 */
final class DecimalLayout extends Layout {
    final int precision;
    final int scale;

    DecimalLayout(DecimalType type) {
        super(type);
        this.precision = type.precision();
        this.scale = type.scale();
    }

    private boolean compact() {
        return precision <= Decimal.MAX_LONG_DIGITS();
    }

    @Override
    void write(UnsafeWriter w, int i, Object v) {
        w.write(i, (Decimal) v, precision, scale);
    }

    /** {@code GenerateUnsafeProjection} cannot call {@code setNullAt} for a wide decimal: it keeps its 16 bytes. */
    @Override
    void writeNullField(UnsafeRowWriter w, int ordinal) {
        if (compact()) {
            w.setNullAt(ordinal);
        } else {
            w.write(ordinal, (Decimal) null, precision, scale);
        }
    }

    @Override
    Object read(SpecializedGetters d, int i) {
        return d.getDecimal(i, precision, scale);
    }

    @Override
    int hash(SpecializedGetters d, int i, int seed) {
        Decimal value = d.getDecimal(i, precision, scale);
        if (compact()) {
            return Murmur3_x86_32.hashLong(value.toUnscaledLong(), seed);
        }
        byte[] b = value.toJavaBigDecimal().unscaledValue().toByteArray();
        return Murmur3_x86_32.hashUnsafeBytes(b, Platform.BYTE_ARRAY_OFFSET, b.length, seed);
    }

    @Override
    int compare(SpecializedGetters a, int i, SpecializedGetters b, int j) {
        return a.getDecimal(i, precision, scale).compare(b.getDecimal(j, precision, scale));
    }
}
