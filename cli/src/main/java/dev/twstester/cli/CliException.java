package dev.twstester.cli;

import java.util.Objects;

/**
 * A failure the command reports as one line on stderr, with its exit code ({@link ExitCodes}).
 * The message says where (a file and line, an option) and what to do.
 */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CliException(int exitCode, String message) {
        this(exitCode, message, null);
    }

    CliException(int exitCode, String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message must not be null"), cause);
        this.exitCode = exitCode;
    }

    static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message);
    }

    static CliException usage(String message, Throwable cause) {
        return new CliException(ExitCodes.USAGE, message, cause);
    }

    static CliException invalidInput(String message, Throwable cause) {
        return new CliException(ExitCodes.INVALID_INPUT, message, cause);
    }

    int exitCode() {
        return exitCode;
    }
}
