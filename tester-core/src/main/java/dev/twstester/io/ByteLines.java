package dev.twstester.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The lines of a file as Hadoop's {@code LineRecordReader} (Spark's text and JSON file sources)
 * splits them: at {@code \n}, {@code \r} or {@code \r\n}, a UTF-8 byte order mark at the start of
 * the file dropped. Each line is its text when it is valid UTF-8, else its bytes, so a reader can
 * do what Spark does with them or name the line and byte; nothing is replaced silently.
 *
 * <pre>{@code
 * try (ByteLines lines = ByteLines.open(Path.of("001.jsonl"))) {
 *     for (ByteLines.Line line = lines.next(); line != null; line = lines.next()) {
 *         String text = line.text();          // null when the line is not valid UTF-8: see line.bytes()
 *     }
 * }
 * }</pre>
 *
 * Memory is the longest line's bytes (twice, while it grows) and its text.
 */
final class ByteLines implements Closeable {
    /** One line: its number (1-based), and its text (valid UTF-8) or, when not valid UTF-8, its bytes. */
    record Line(int number, String text, byte[] bytes) {
        /** The index of the first byte that is not UTF-8 ({@code -1} for a line of text). */
        int invalidAt() {
            return text != null ? -1 : ByteLines.invalidUtf8(bytes, bytes.length);
        }
    }

    /** The largest line buffer kept from one line to the next. */
    private static final int KEPT = 1 << 20;

    private final InputStream in;
    private final byte[] chunk = new byte[1 << 16];
    private int chunkPos;
    private int chunkEnd;
    private byte[] buffer = new byte[256];
    private int number;
    private boolean pendingCr;

    private ByteLines(InputStream in) {
        this.in = in;
    }

    static ByteLines open(Path file) throws IOException {
        return new ByteLines(Files.newInputStream(file));
    }

    static ByteLines of(InputStream in) {
        return new ByteLines(in);
    }

    /** The next line, or null at the end of the file. */
    Line next() throws IOException {
        int length = 0;
        while (true) {
            if (chunkPos == chunkEnd && !fill()) {
                if (length == 0) {
                    return null;          // the end (a last line's \n or \r\n ends no further line)
                }
                break;
            }
            if (pendingCr) {
                pendingCr = false;
                if (chunk[chunkPos] == '\n') {
                    chunkPos++;
                    continue;
                }
            }
            int start = chunkPos;
            while (chunkPos < chunkEnd && chunk[chunkPos] != '\n' && chunk[chunkPos] != '\r') {
                chunkPos++;
            }
            length = append(length, start, chunkPos - start);
            if (chunkPos < chunkEnd) {
                pendingCr = chunk[chunkPos++] == '\r';
                break;
            }
        }
        number++;
        int from = number == 1 && startsWithBom(buffer, length) ? 3 : 0;
        Line line = invalidUtf8(buffer, length) < 0
                ? new Line(number, new String(buffer, from, length - from, StandardCharsets.UTF_8), null)
                : new Line(number, null, Arrays.copyOfRange(buffer, from, length));
        if (buffer.length > KEPT) {
            buffer = new byte[256];                // a huge line's buffer is not kept for the next
        }
        return line;
    }

    private boolean fill() throws IOException {
        int n = in.read(chunk);
        if (n <= 0) {
            return false;
        }
        chunkPos = 0;
        chunkEnd = n;
        return true;
    }

    private int append(int length, int from, int count) {
        if (length + count > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(length + count, newLength(buffer.length)));
        }
        System.arraycopy(chunk, from, buffer, length, count);
        return length + count;
    }

    private static int newLength(int length) {
        if (length >= Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a line of more than 2 GB cannot be read");
        }
        return (int) Math.min(Integer.MAX_VALUE - 16L, length * 2L);
    }

    static boolean startsWithBom(byte[] b, int length) {
        return length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF;
    }

    /**
     * The index of the first byte of {@code b[0..length)} that does not start a valid UTF-8 sequence
     * (as Java's decoder checks: no overlong forms, no surrogates, nothing above U+10FFFF), or -1.
     */
    static int invalidUtf8(byte[] b, int length) {
        int i = 0;
        while (i < length) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int n;
            int min;
            if (c >= 0xC2 && c <= 0xDF) {
                n = 1;
                min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                n = 2;
                min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                n = 3;
                min = 0x10000;
            } else {
                return i;
            }
            if (i + n >= length) {
                return i;
            }
            int code = c & (0x3F >> n);
            for (int k = 1; k <= n; k++) {
                int next = b[i + k] & 0xFF;
                if ((next & 0xC0) != 0x80) {
                    return i;
                }
                code = (code << 6) | (next & 0x3F);
            }
            if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
                return i;
            }
            i += n + 1;
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
