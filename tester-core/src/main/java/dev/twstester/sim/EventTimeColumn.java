package dev.twstester.sim;

import java.lang.reflect.Method;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.SparkDateTimeUtils$;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import dev.twstester.internal.RowCodec;

/**
 * Reads the {@code withWatermark} column of an input row in microseconds, as Spark does: from the
 * encoded row, or (when rows are kept by reference) from the bean's getter.
 */
final class EventTimeColumn<I> {
    private final Encoder<I> encoder;
    private final String column;
    private final int index;
    private Method getter;
    private boolean getterLooked;

    EventTimeColumn(Encoder<I> encoder, String column) {
        this(encoder, column, "watermark");
    }

    /** {@code role} names the setting in errors: "watermark" (input) or "outputEventTimeColumn" (output). */
    EventTimeColumn(Encoder<I> encoder, String column, String role) {
        this.encoder = encoder;
        this.column = column;
        StructType schema = encoder.schema();
        this.index = indexOf(schema, column);
        String side = role.equals("watermark") ? "input" : "output";
        if (index < 0) {
            throw new IllegalArgumentException(role + " column '" + column + "' is not a column of the " + side + ": "
                    + schema.simpleString());
        }
        DataType type = schema.fields()[index].dataType();
        if (!type.equals(DataTypes.TimestampType) && !type.equals(DataTypes.TimestampNTZType)) {
            throw new IllegalArgumentException(role + " column '" + column + "' has type " + type.simpleString()
                    + "; an event-time column must be a timestamp (java.sql.Timestamp or java.time.Instant field)");
        }
    }

    private static int indexOf(StructType schema, String column) {
        String[] names = schema.fieldNames();
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(column)) {
                return i;
            }
        }
        return -1;
    }

    /** From the row as encoded by the input encoder. */
    Long fromEncoded(byte[] encoded) {
        UnsafeRow row = rows().row(encoded);
        return row.isNullAt(index) ? null : row.getLong(index);
    }

    /** From the object: its getter when it is a bean, else by encoding it. */
    Long fromObject(I row) {
        Method m = getter(row.getClass());
        if (m == null) {
            return fromEncoded(rows().encode(row));
        }
        Object value;
        try {
            value = m.invoke(row);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + column + " through " + m + ": " + e, e);
        }
        return micros(value);
    }

    /** Spark's conversions ({@code SerializerBuildHelper}): Julian-Gregorian rebasing of timestamps, overflow checks. */
    private static Long micros(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Timestamp t) {
            return dev.twstester.internal.SparkTimes.fromJavaTimestamp(t);
        }
        if (value instanceof Instant i) {
            return SparkDateTimeUtils$.MODULE$.instantToMicros(i);
        }
        if (value instanceof LocalDateTime l) {
            return SparkDateTimeUtils$.MODULE$.localDateTimeToMicros(l);
        }
        throw new IllegalStateException("unexpected event-time value " + value.getClass().getName());
    }

    private Method getter(Class<?> type) {
        if (!getterLooked) {
            getterLooked = true;
            String suffix = Character.toUpperCase(column.charAt(0)) + column.substring(1);
            try {
                getter = type.getMethod("get" + suffix);
            } catch (NoSuchMethodException e) {
                getter = null;
            }
        }
        return getter;
    }

    private RowCodec<I> rows() {
        return RowCodec.of(encoder);
    }
}
