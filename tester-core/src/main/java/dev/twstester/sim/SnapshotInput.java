package dev.twstester.sim;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A snapshot file's bytes read front to back with every length and count checked against what is
 * left of the file before anything is allocated: a hostile length cannot make the reader allocate
 * more than the file's own size. Every problem is a {@link SnapshotFormatException} naming the
 * offset.
 */
final class SnapshotInput {
    private final Path file;
    private final byte[] data;
    private final int end;
    private int pos;

    SnapshotInput(Path file, byte[] data, int start, int end) {
        this.file = file;
        this.data = data;
        this.pos = start;
        this.end = end;
    }

    int position() {
        return pos;
    }

    int remaining() {
        return end - pos;
    }

    SnapshotFormatException error(String problem) {
        return new SnapshotFormatException(file, pos, problem);
    }

    SnapshotFormatException errorAt(int offset, String problem) {
        return new SnapshotFormatException(file, offset, problem);
    }

    private void need(int n, String what) throws SnapshotFormatException {
        if (n > remaining()) {
            throw error("the file ends early (truncated?): " + what + " needs " + n + " byte(s), " + remaining()
                    + " left");
        }
    }

    int u8(String what) throws SnapshotFormatException {
        need(1, what);
        return data[pos++] & 0xff;
    }

    int u16(String what) throws SnapshotFormatException {
        need(2, what);
        int v = ((data[pos] & 0xff) << 8) | (data[pos + 1] & 0xff);
        pos += 2;
        return v;
    }

    int i32(String what) throws SnapshotFormatException {
        need(4, what);
        int v = ByteBuffer.wrap(data, pos, 4).getInt();
        pos += 4;
        return v;
    }

    long i64(String what) throws SnapshotFormatException {
        need(8, what);
        long v = ByteBuffer.wrap(data, pos, 8).getLong();
        pos += 8;
        return v;
    }

    /** A non-negative count of items that each take at least {@code minBytes} bytes of what is left. */
    int count(String what, int minBytes) throws SnapshotFormatException {
        int at = pos;
        int n = i32("the number of " + what);
        if (n < 0 || (long) n * minBytes > remaining()) {
            throw errorAt(at, "the number of " + what + " is " + Integer.toUnsignedString(n) + ", but only "
                    + remaining() + " byte(s) are left, room for at most " + remaining() / minBytes);
        }
        return n;
    }

    /** An index into a table of {@code size} entries. */
    int index(String what, int size) throws SnapshotFormatException {
        int at = pos;
        int i = i32(what);
        if (i < 0 || i >= size) {
            throw errorAt(at, what + " is " + Integer.toUnsignedString(i) + ", but the table has " + size + " entries");
        }
        return i;
    }

    /** A length-prefixed byte string. */
    byte[] bytes(String what) throws SnapshotFormatException {
        int at = pos;
        int n = i32("the length of " + what);
        if (n < 0 || n > remaining()) {
            throw errorAt(at, "the length of " + what + " is " + Integer.toUnsignedString(n) + ", but only " + remaining()
                    + " byte(s) are left in the file");
        }
        byte[] out = Arrays.copyOfRange(data, pos, pos + n);
        pos += n;
        return out;
    }

    /** A length-prefixed, strictly decoded UTF-8 string. */
    String string(String what) throws SnapshotFormatException {
        int at = pos;
        byte[] raw = bytes(what);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
        } catch (CharacterCodingException e) {
            throw errorAt(at, what + " is not valid UTF-8");
        }
    }

    /** A byte that must be one of {@code 0 .. choices-1}. */
    int choice(String what, String... choices) throws SnapshotFormatException {
        int at = pos;
        int v = u8(what);
        if (v >= choices.length) {
            throw errorAt(at, what + " is " + v + ", expected one of 0.." + (choices.length - 1) + " ("
                    + String.join(", ", choices) + ")");
        }
        return v;
    }
}
