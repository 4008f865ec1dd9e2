package dev.twstester.sim;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A snapshot file {@link StateSnapshot#load} cannot read: not a twstester snapshot, written by an
 * older twstester (Java serialization) or a newer one (a later format version), truncated or
 * corrupted. The message names the file, the byte offset and what was expected there; nothing from
 * the file has been executed or decoded. The format is described in {@code docs/snapshot-format.md}.
 *
 * <pre>{@code
 * try {
 *     sim.restore(StateSnapshot.load(file));
 * } catch (SnapshotFormatException e) {
 *     System.err.println(e.getMessage()); // "... carts.snapshot: at byte 1234: ..."
 * }
 * }</pre>
 */
public final class SnapshotFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;

    SnapshotFormatException(Path file, long offset, String problem) {
        super("cannot load the snapshot " + file + (offset < 0 ? "" : ": at byte " + offset) + ": " + problem);
        this.file = file;
        this.offset = offset;
    }

    /** The file that could not be read. */
    public Path file() {
        return file;
    }

    /** The byte offset where reading stopped, or -1 when the problem is the file as a whole. */
    public long offset() {
        return offset;
    }
}
