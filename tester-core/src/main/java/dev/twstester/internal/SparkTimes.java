package dev.twstester.internal;

import java.sql.Timestamp;

import org.apache.spark.sql.catalyst.util.RebaseDateTime$;
import org.apache.spark.sql.catalyst.util.SparkDateTimeUtils$;

/**
 * Internal, not API: may change in any release.
 *
 * <p>Spark's conversions of {@code java.sql.Timestamp} to and from microseconds
 * ({@code SparkDateTimeUtils.fromJavaTimestamp} / {@code toJavaTimestamp}) with the same results,
 * without initialising Spark's {@code RebaseDateTime} for timestamps after 1900-01-01T00:00:00Z.
 * Spark's rebase between the Julian and Gregorian calendars returns such a timestamp unchanged, but
 * merely touching {@code RebaseDateTime} loads Jackson and parses the rebase tables of every time
 * zone (about half a second in a fresh JVM). Earlier timestamps go through Spark's rebase.
 *
 * <p>Public for {@code dev.twstester.sim} ({@code EventTimeColumn}) and {@code dev.twstester.io}
 * (the JSON readers: {@code RowJsonReader}, {@code JsonLines}).
 */
public final class SparkTimes {
    /**
     * {@code RebaseDateTime.lastSwitchJulianTs()} and {@code lastSwitchGregorianTs()} of Spark 4.2.0
     * (both 1900-01-01T00:00:00Z): from them on, rebasing is the identity. {@code SparkTimesTest}
     * checks them against Spark's.
     */
    static final long LAST_SWITCH_JULIAN_MICROS = -2_208_988_800_000_000L;
    static final long LAST_SWITCH_GREGORIAN_MICROS = -2_208_988_800_000_000L;

    private static final SparkDateTimeUtils$ DTU = SparkDateTimeUtils$.MODULE$;

    /**
     * Whether {@code type} is Spark's {@code TIME} type, which Spark 4.1 added: compared by class name,
     * so that the JSON I/O also runs on Spark 4.0.
     */
    public static boolean isTimeType(org.apache.spark.sql.types.DataType type) {
        return type.getClass().getName().equals("org.apache.spark.sql.types.TimeType");
    }

    private SparkTimes() {
    }

    /** {@code SparkDateTimeUtils.fromJavaTimestamp}: the default time zone's Julian-calendar timestamp in microseconds. */
    public static long fromJavaTimestamp(Timestamp t) {
        long micros = DTU.fromJavaTimestampNoRebase(t);
        return micros >= LAST_SWITCH_JULIAN_MICROS ? micros : RebaseDateTime$.MODULE$.rebaseJulianToGregorianMicros(micros);
    }

    /** {@code SparkDateTimeUtils.toJavaTimestamp}. */
    public static Timestamp toJavaTimestamp(long micros) {
        long julian = micros >= LAST_SWITCH_GREGORIAN_MICROS
                ? micros : RebaseDateTime$.MODULE$.rebaseGregorianToJulianMicros(micros);
        return DTU.toJavaTimestampNoRebase(julian);
    }

    /** {@code SparkDateTimeUtils.anyToMicros}: a {@code Timestamp} as above, anything else as Spark converts it. */
    public static long anyToMicros(Object value) {
        return value instanceof Timestamp t ? fromJavaTimestamp(t) : DTU.anyToMicros(value);
    }
}
