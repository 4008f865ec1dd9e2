package dev.twstester.cli;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.twstester.internal.RowCodec;

/**
 * The rows of a replay's event files. Every file is read once before the first batch runs, so that
 * a bad line stops the replay (exit 3, naming file and line) before anything is printed. The rows
 * read then are kept only while they are few (up to {@code keepRows} rows in all, whole files, in
 * plan order) or when asked to keep all (live Spark needs every row at the end); the rows of the
 * other files are read again when their batch runs, so that a large replay holds one file's rows at
 * a time. A kept file's rows are let go after the plan's last step that reads it.
 *
 * @param <I> input row type
 */
final class EventInputs<I> {
    /** How many rows the first pass keeps when not asked to keep all: small replays read each file once. */
    static final long DEFAULT_KEEP_ROWS = 100_000;

    private final JsonLinesReader<I> again;
    private final boolean keepAll;
    private final Map<EventFile, List<I>> kept;
    private final Map<EventFile, Integer> usesLeft;

    private EventInputs(JsonLinesReader<I> again, boolean keepAll, Map<EventFile, List<I>> kept,
            Map<EventFile, Integer> usesLeft) {
        this.again = again;
        this.keepAll = keepAll;
        this.kept = kept;
        this.usesLeft = usesLeft;
    }

    /**
     * Reads (checks) every file of {@code plan} in plan order; notes about fields not in the schema go
     * to {@code notes}, once per field and file.
     */
    static <I> EventInputs<I> read(ReplayPlan plan, RowCodec<I> codec, PrintWriter notes, boolean keepAll,
            long keepRows) {
        JsonLinesReader<I> first = new JsonLinesReader<>(codec, notes);
        Map<EventFile, Integer> uses = new LinkedHashMap<>();
        for (ReplayPlan.Entry step : plan.steps()) {
            if (step.file() != null) {
                uses.merge(step.file(), 1, Integer::sum);
            }
        }
        Map<EventFile, List<I>> kept = new HashMap<>();
        long keptRows = 0;
        boolean keeping = true;
        for (EventFile file : uses.keySet()) {
            List<I> rows = first.read(file);
            keeping = keepAll || (keeping && keptRows + rows.size() <= keepRows);
            if (keeping) {
                kept.put(file, rows);
                keptRows += rows.size();
            }
        }
        // the notes were printed in the first pass
        JsonLinesReader<I> again = new JsonLinesReader<>(codec, new PrintWriter(PrintWriter.nullWriter()));
        return new EventInputs<>(again, keepAll, kept, uses);
    }

    /** The rows of {@code file} for its batch: kept ones, or read again; let go after the file's last use. */
    List<I> take(EventFile file) {
        int left = usesLeft.merge(file, -1, Integer::sum);
        List<I> rows = kept.get(file);
        if (rows == null) {
            return again.read(file);
        }
        if (left <= 0 && !keepAll) {
            kept.remove(file);
        }
        return rows;
    }

    /** A kept file's rows (with {@code keepAll}: every file's), for live Spark's scenario. */
    List<I> kept(EventFile file) {
        List<I> rows = kept.get(file);
        if (rows == null) {
            throw new IllegalStateException(file + " was not kept; read the inputs with keepAll");
        }
        return rows;
    }
}
