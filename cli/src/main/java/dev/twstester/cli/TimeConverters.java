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

    static Instant parseInstant(String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new CommandLine.TypeConversionException("'" + value
                    + "' is not an ISO-8601 instant; write it in UTC like 2024-05-01T10:00:00Z");
        }
    }
}
