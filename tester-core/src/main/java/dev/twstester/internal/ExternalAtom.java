package dev.twstester.internal;

import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.util.List;

import org.apache.spark.sql.catalyst.util.SparkDateTimeUtils$;
import org.apache.spark.sql.catalyst.util.SparkIntervalUtils$;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CalendarIntervalType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.apache.spark.unsafe.types.CalendarInterval;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The Java classes Spark's encoders take and give for atomic values, and their conversions to and from
 * the layout's values ({@link Layout}): {@code SparkDateTimeUtils}, {@code SparkIntervalUtils} and, for
 * {@code java.sql.Timestamp}, {@link SparkTimes}. Also the class checks of Spark's
 * {@code ValidateExternalType} that both codecs make.
 */
enum ExternalAtom {
    BOOLEAN(Boolean.class, AtomLayout.BOOLEAN, boolean[].class, false),
    BYTE(Byte.class, AtomLayout.BYTE, byte[].class, (byte) 0),
    SHORT(Short.class, AtomLayout.SHORT, short[].class, (short) 0),
    INT(Integer.class, AtomLayout.INT, int[].class, 0),
    LONG(Long.class, AtomLayout.LONG, long[].class, 0L),
    FLOAT(Float.class, AtomLayout.FLOAT, float[].class, 0f),
    DOUBLE(Double.class, AtomLayout.DOUBLE, double[].class, 0d),
    STRING(String.class, AtomLayout.STRING),
    BINARY(byte[].class, AtomLayout.BINARY),
    TIMESTAMP(Timestamp.class, AtomLayout.LONG),
    INSTANT(Instant.class, AtomLayout.LONG),
    DATE(Date.class, AtomLayout.INT),
    LOCAL_DATE(LocalDate.class, AtomLayout.INT),
    LOCAL_DATE_TIME(LocalDateTime.class, AtomLayout.LONG),
    DURATION(Duration.class, AtomLayout.LONG),
    PERIOD(Period.class, AtomLayout.INT),
    CALENDAR_INTERVAL(CalendarInterval.class, AtomLayout.INTERVAL);

    /** The (boxed) class of the values. */
    final Class<?> javaClass;
    /** How Spark stores the values: an {@link AtomLayout} kind. */
    final int layoutKind;
    /** For a primitive: the class of a Java array of them ({@code int[]} for {@link #INT}); else null. */
    final Class<?> primitiveArray;
    /** For a primitive: what Spark's generated code unboxes a null to (0, false); else null. */
    final Object primitiveDefault;
    /** Whether a value is the layout's value as it is (a box, a {@code byte[]}, a {@code CalendarInterval}). */
    private final boolean asItIs;

    ExternalAtom(Class<?> javaClass, int layoutKind) {
        this(javaClass, layoutKind, null, null);
    }

    ExternalAtom(Class<?> javaClass, int layoutKind, Class<?> primitiveArray, Object primitiveDefault) {
        this.javaClass = javaClass;
        this.layoutKind = layoutKind;
        this.primitiveArray = primitiveArray;
        this.primitiveDefault = primitiveDefault;
        this.asItIs = primitiveArray != null || javaClass == byte[].class || javaClass == CalendarInterval.class;
    }

    /**
     * The atom of an atomic {@code type}, with the class a row encoder gives for it (Spark's defaults:
     * {@code java.sql.Date} and {@code Timestamp}, not {@code java.time}); null when {@code type} is not
     * one of the atomic types Spark's row format holds as such (a decimal, a collated string, a variant,
     * a time, a user-defined type, ...).
     */
    static ExternalAtom of(DataType type) {
        if (type instanceof BooleanType) {
            return BOOLEAN;
        } else if (type instanceof ByteType) {
            return BYTE;
        } else if (type instanceof ShortType) {
            return SHORT;
        } else if (type instanceof IntegerType) {
            return INT;
        } else if (type instanceof LongType) {
            return LONG;
        } else if (type instanceof FloatType) {
            return FLOAT;
        } else if (type instanceof DoubleType) {
            return DOUBLE;
        } else if (DataTypes.StringType.equals(type)) {
            return STRING;
        } else if (type instanceof BinaryType) {
            return BINARY;
        } else if (type instanceof DateType) {
            return DATE;
        } else if (type instanceof TimestampType) {
            return TIMESTAMP;
        } else if (type instanceof TimestampNTZType) {
            return LOCAL_DATE_TIME;
        } else if (type instanceof DayTimeIntervalType) {
            return DURATION;
        } else if (type instanceof YearMonthIntervalType) {
            return PERIOD;
        } else if (type instanceof CalendarIntervalType) {
            return CALENDAR_INTERVAL;
        }
        return null;
    }

    /**
     * The atom of the same Spark type as this one whose class {@code value} may be: Spark's encoders accept
     * a {@code Timestamp} or an {@code Instant} for a timestamp, a {@code Date} or a {@code LocalDate} for a date.
     */
    ExternalAtom sameTypeAs(Object value) {
        return switch (this) {
            case TIMESTAMP, INSTANT -> value instanceof Instant ? INSTANT : TIMESTAMP;
            case DATE, LOCAL_DATE -> value instanceof LocalDate ? LOCAL_DATE : DATE;
            default -> this;
        };
    }

    /** Spark's {@code ValidateExternalType} of an atom: {@code value} is of this class, or of its twin ({@link #sameTypeAs}). */
    boolean accepts(Object value) {
        return sameTypeAs(value).javaClass.isInstance(value);
    }

    /** {@code ValidateExternalType} of a decimal: a Java or Scala {@code BigDecimal}, or a Spark {@code Decimal}. */
    static boolean isDecimal(Object value) {
        return value instanceof BigDecimal || value instanceof scala.math.BigDecimal || value instanceof Decimal;
    }

    /**
     * {@code ValidateExternalType} of an array: a Java array, a Scala {@code Seq} or {@code Set}, or a Java
     * {@code List} (the conversion that follows may still fail on it).
     */
    static boolean isArray(Object value) {
        return value.getClass().isArray() || value instanceof scala.collection.Seq<?>
                || value instanceof scala.collection.immutable.Set<?> || value instanceof List<?>;
    }

    /** Spark's date and time conversions (read when first converting: loading them costs start-up time). */
    private static SparkDateTimeUtils$ time() {
        return SparkDateTimeUtils$.MODULE$;
    }

    private static SparkIntervalUtils$ intervals() {
        return SparkIntervalUtils$.MODULE$;
    }

    /** The layout's value of the non-null {@code value}, cast as Spark's generated code casts it. */
    Object toInternal(Object value) {
        return switch (this) {
            case BOOLEAN -> (Boolean) value;
            case BYTE -> (Byte) value;
            case SHORT -> (Short) value;
            case INT -> (Integer) value;
            case LONG -> (Long) value;
            case FLOAT -> (Float) value;
            case DOUBLE -> (Double) value;
            case STRING -> UTF8String.fromString((String) value);
            case BINARY -> (byte[]) value;
            case TIMESTAMP -> SparkTimes.fromJavaTimestamp((Timestamp) value);
            case INSTANT -> time().instantToMicros((Instant) value);
            case DATE -> time().fromJavaDate((Date) value);
            case LOCAL_DATE -> time().localDateToDays((LocalDate) value);
            case LOCAL_DATE_TIME -> time().localDateTimeToMicros((LocalDateTime) value);
            case DURATION -> intervals().durationToMicros((Duration) value);
            case PERIOD -> intervals().periodToMonths((Period) value);
            case CALENDAR_INTERVAL -> (CalendarInterval) value;
        };
    }

    /** A new object of this class from the layout's non-null {@code value}. */
    Object toExternal(Object value) {
        if (asItIs) {
            return value;
        }
        return switch (this) {
            case STRING -> value.toString();
            case TIMESTAMP -> SparkTimes.toJavaTimestamp((Long) value);
            case INSTANT -> time().microsToInstant((Long) value);
            case DATE -> time().toJavaDate((Integer) value);
            case LOCAL_DATE -> time().daysToLocalDate((Integer) value);
            case LOCAL_DATE_TIME -> time().microsToLocalDateTime((Long) value);
            case DURATION -> intervals().microsToDuration((Long) value);
            case PERIOD -> intervals().monthsToPeriod((Integer) value);
            default -> value;
        };
    }
}
