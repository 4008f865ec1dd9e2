package dev.twstester.cli;

import java.time.Instant;

/**
 * What made a batch run: an input file (its data batch and the no-data batch after it) or a
 * clock tick.
 *
 * @param file the file's name, or null for a tick
 * @param tick the tick's time, or null for a file
 */
record BatchCause(String file, Instant tick) {
    static BatchCause file(EventFile f) {
        return new BatchCause(f.name(), null);
    }

    static BatchCause tick(Instant to) {
        return new BatchCause(null, to);
    }

    /** {@code data, 001.jsonl}, {@code no data, after 001.jsonl}, {@code no data, tick to ...}. */
    String label(boolean hadInput) {
        String kind = hadInput ? "data" : "no data";
        if (file != null) {
            return kind + (hadInput ? ", " : ", after ") + file;
        }
        return kind + ", tick to " + tick;
    }

    /** The label for a batch whose cause is unknown (a batch only the other engine ran). */
    static String unknown(boolean hadInput) {
        return hadInput ? "data" : "no data";
    }
}
