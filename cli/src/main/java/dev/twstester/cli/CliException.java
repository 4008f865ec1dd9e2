package dev.twstester.cli;

import java.util.Objects;

/**
 * A failure the command reports as one line on stderr, with its exit code ({@link ExitCodes}).
 * The message says where (a file and line, an option) and what to do.
 */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;
    /** The event file it is about, or null. */
    private final EventFile file;
    /** The line of {@link #file} (1-based), or 0. */
    private final int line;

    CliException(int exitCode, String message) {
        this(exitCode, message, null);
    }

    CliException(int exitCode, String message, Throwable cause) {
        this(exitCode, message, cause, null, 0);
    }

    private CliException(int exitCode, String message, Throwable cause, EventFile file, int line) {
        super(Objects.requireNonNull(message, "message must not be null"), cause);
        this.exitCode = exitCode;
        this.file = file;
        this.line = line;
    }

    /** The same failure, about line {@code atLine} (0: none) of {@code eventFile}, with {@code newMessage}. */
    CliException at(EventFile eventFile, int atLine, String newMessage) {
        CliException located = new CliException(exitCode, newMessage, getCause(), eventFile, atLine);
        located.setStackTrace(getStackTrace());
        return located;
    }

    EventFile file() {
        return file;
    }

    int line() {
        return line;
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
