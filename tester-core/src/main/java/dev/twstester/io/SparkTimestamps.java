package dev.twstester.io;

import java.sql.Timestamp;
import java.util.Objects;

import dev.twstester.internal.SparkTimes;

/**
 * Spark's conversions between a {@code TimestampType} value in microseconds since the epoch and
 * the {@code java.sql.Timestamp} of an external {@code Row} ({@code SparkDateTimeUtils.toJavaTimestamp}
 * and {@code fromJavaTimestamp}), with Spark's results, for code that reads or writes rows itself
 * (the command line's JSON readers). Timestamps from 1900-01-01T00:00:00Z on convert without loading
 * Spark's calendar rebase tables, which costs about half a second in a fresh JVM; earlier ones go
 * through Spark's Julian/Gregorian rebase, as Spark's do.
 */
public final class SparkTimestamps {
    private SparkTimestamps() {}

    /** The {@code java.sql.Timestamp} Spark puts in an external row for {@code micros}. */
    public static Timestamp toJavaTimestamp(long micros) {
        return SparkTimes.toJavaTimestamp(micros);
    }

    /** The microseconds Spark stores for {@code timestamp}. */
    public static long fromJavaTimestamp(Timestamp timestamp) {
        return SparkTimes.fromJavaTimestamp(Objects.requireNonNull(timestamp, "timestamp must not be null"));
    }
}
