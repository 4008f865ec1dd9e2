package dev.twstester.cli;

import java.time.Instant;

/**
 * What made a batch run: an input or add step's file (its data batch and the no-data batch after
 * it), a clock tick, a start (its first trigger reads the rows added while the query was stopped),
 * or a deploy of a new version (its first trigger runs a failed batch again, then the rows waiting).
 *
 * @param file     the file's name, or null for a tick, a start or a deploy
 * @param tick     the tick's time, or null for a file, a start or a deploy
 * @param atStart  true for a start or a deploy
 * @param deployed the version a deploy started ({@code com.acme.Carts#fixed}), or null
 */
record BatchCause(String file, Instant tick, boolean atStart, String deployed) {
    static BatchCause file(EventFile f) {
        return new BatchCause(f.label(), null, false, null);
    }

    static BatchCause tick(Instant to) {
        return new BatchCause(null, to, false, null);
    }

    static BatchCause start() {
        return new BatchCause(null, null, true, null);
    }

    static BatchCause deploy(String version) {
        return new BatchCause(null, null, true, version);
    }

    /**
     * {@code data, 001.jsonl}, {@code no data, after 001.jsonl}, {@code no data, tick to ...},
     * {@code data, start}, {@code data, deploy com.acme.Carts#fixed}.
     */
    String label(boolean hadInput) {
        String kind = hadInput ? "data" : "no data";
        if (file != null) {
            return kind + (hadInput ? ", " : ", after ") + file;
        }
        if (deployed != null) {
            return kind + ", deploy " + deployed;
        }
        return atStart ? kind + ", start" : kind + ", tick to " + tick;
    }

    /** The label for a batch whose cause is unknown (a batch only the other engine ran). */
    static String unknown(boolean hadInput) {
        return hadInput ? "data" : "no data";
    }
}
