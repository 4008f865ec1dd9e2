package dev.twstester.cli;

import java.time.Instant;

/**
 * What made a batch run: an input or add step's file (its data batch and the no-data batch after
 * it), a clock tick, or a start (its first trigger reads the rows added while the query was stopped).
 *
 * @param file  the file's name, or null for a tick or a start
 * @param tick  the tick's time, or null for a file or a start
 * @param atStart true for a start
 */
record BatchCause(String file, Instant tick, boolean atStart) {
    static BatchCause file(EventFile f) {
        return new BatchCause(f.label(), null, false);
    }

    static BatchCause tick(Instant to) {
        return new BatchCause(null, to, false);
    }

    static BatchCause start() {
        return new BatchCause(null, null, true);
    }

    /** {@code data, 001.jsonl}, {@code no data, after 001.jsonl}, {@code no data, tick to ...}, {@code data, start}. */
    String label(boolean hadInput) {
        String kind = hadInput ? "data" : "no data";
        if (file != null) {
            return kind + (hadInput ? ", " : ", after ") + file;
        }
        return atStart ? kind + ", start" : kind + ", tick to " + tick;
    }

    /** The label for a batch whose cause is unknown (a batch only the other engine ran). */
    static String unknown(boolean hadInput) {
        return hadInput ? "data" : "no data";
    }
}
