package dev.twstester.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import picocli.CommandLine;

/** picocli converters for times given on the command line, with the format in the message. */
final class TimeConverters {
    private TimeConverters() {}

    /** An ISO-8601 instant, e.g. {@code 2024-05-01T10:00:00Z}. */
    static final class InstantConverter implements CommandLine.ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            return parseInstant(value);
        }
    }

    /** An ISO-8601 duration, e.g. {@code PT1M}. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Duration d;
            try {
                d = Duration.parse(value);
            } catch (DateTimeParseException e) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' is not an ISO-8601 duration; write it like PT1M, PT30S or PT1H30M");
            }
            if (d.isNegative() || d.isZero()) {
                throw new CommandLine.TypeConversionException("'" + value + "' must be positive, like PT1M");
            }
            return d;
        }
    }

    /**
     * A trigger interval: an ISO-8601 duration ({@code PT1M}, {@code PT0.5S}) or a number with a unit
     * ({@code 0}, {@code 500ms}, {@code 1s}, {@code 5m}, {@code 1h}); 0 or more, in whole milliseconds.
     */
    static final class TriggerIntervalConverter implements CommandLine.ITypeConverter<Duration> {
        private static final java.util.regex.Pattern SHORT = java.util.regex.Pattern.compile("(\\d+)(ms|s|m|h)?");

        @Override
        public Duration convert(String value) {
            Duration d;
            java.util.regex.Matcher m = SHORT.matcher(value.strip());
            try {
                if (m.matches()) {
                    long n = Long.parseLong(m.group(1));
                    String unit = m.group(2) == null ? "" : m.group(2);
                    if (unit.isEmpty() && n != 0) {
                        throw new CommandLine.TypeConversionException("'" + value + "' needs a unit: write it like 500ms,"
                                + " 1s, 5m, 1h or PT1M");
                    }
                    d = switch (unit) {
                        case "ms", "" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        default -> Duration.ofHours(n);
                    };
                } else {
                    d = Duration.parse(value.strip());
                }
            } catch (DateTimeParseException | ArithmeticException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a duration; write it like 0, 500ms,"
                        + " 1s, 5m, 1h or PT1M");
            }
            if (d.isNegative() || d.toMillis() * 1_000_000 != d.toNanos()) {
                throw new CommandLine.TypeConversionException("'" + value + "' must be 0 or more whole milliseconds,"
                        + " like 1s or PT1M");
            }
            return d;
        }
    }

    static Instant parseInstant(String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new CommandLine.TypeConversionException("'" + value
                    + "' is not an ISO-8601 instant; write it in UTC like 2024-05-01T10:00:00Z");
        }
    }
}
