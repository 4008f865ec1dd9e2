package dev.twstester.property;

import java.time.Instant;

import org.apache.spark.sql.streaming.TimeMode;

/** Readable times for step descriptions: ISO instants in UTC and compact spans; never the JVM zone. */
final class Times {
    private Times() {}

    /** An instant in ISO-8601 UTC, e.g. {@code 2024-01-01T00:00:05.001Z}. */
    static String instant(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }

    /** A span such as {@code 0ms}, {@code 250ms}, {@code 5s}, {@code 1m5.001s}, {@code 2h}, {@code -3s}. */
    static String span(long ms) {
        if (ms == 0) {
            return "0ms";
        }
        StringBuilder b = new StringBuilder(ms < 0 ? "-" : "");
        // abs of Long.MIN_VALUE overflows; no realistic time gets there, so clamp
        long a = ms == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(ms);
        long days = a / 86_400_000L;
        long hours = a / 3_600_000L % 24;
        long minutes = a / 60_000L % 60;
        long seconds = a / 1000L % 60;
        long millis = a % 1000L;
        if (days > 0) {
            b.append(days).append('d');
        }
        if (hours > 0) {
            b.append(hours).append('h');
        }
        if (minutes > 0) {
            b.append(minutes).append('m');
        }
        if (millis > 0 && seconds == 0 && a < 1000) {
            b.append(millis).append("ms");
        } else if (millis > 0) {
            String frac = String.format(java.util.Locale.ROOT, "%03d", millis).replaceAll("0+$", "");
            b.append(seconds).append('.').append(frac).append('s');
        } else if (seconds > 0) {
            b.append(seconds).append('s');
        }
        return b.toString();
    }

    /** A signed offset such as {@code +5s} or {@code -1m}. */
    static String offset(long ms) {
        return ms >= 0 ? "+" + span(ms) : span(ms);
    }

    static boolean isProcessingTime(TimeMode mode) {
        return mode.equals(TimeMode.ProcessingTime());
    }

    static boolean isEventTime(TimeMode mode) {
        return mode.equals(TimeMode.EventTime());
    }

    /** {@code None}, {@code ProcessingTime} or {@code EventTime}, as in {@code TimeMode.None()}. */
    static String name(TimeMode mode) {
        if (isProcessingTime(mode)) {
            return "ProcessingTime";
        }
        return isEventTime(mode) ? "EventTime" : "None";
    }
}
