package dev.twstester.io;

/**
 * A JSON-lines file that {@link JsonLines} cannot read: a line that is not a row (its message
 * names the file and line: {@code cart/002.jsonl:3: not valid JSON at column 12: ...}), or a file
 * that cannot be read (line 0).
 *
 * <pre>{@code
 * try {
 *     events.read(file, "cart/002.jsonl");
 * } catch (JsonLinesException e) {
 *     System.err.println(e.getMessage() + " (line " + e.line() + " of " + e.file() + ")");
 * }
 * }</pre>
 */
public final class JsonLinesException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;

    JsonLinesException(String file, int line, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
        this.line = line;
    }

    /** The file as its reader named it. */
    public String file() {
        return file;
    }

    /** The line (1-based), or 0 when the failure is not one line's. */
    public int line() {
        return line;
    }
}
