package dev.twstester.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.twstester.io.EncoderRows;
import dev.twstester.io.JsonLines;
import dev.twstester.io.JsonLinesException;
import dev.twstester.io.ScenarioPlan;

/**
 * The rows of a replay's event files. Every file is read once before the first batch runs, so that
 * a bad line stops the replay (exit 3, naming file and line) before anything is printed. The rows
 * read then are kept only while they are few (up to {@code keepRows} rows in all, whole files, in
 * plan order) or when asked to keep all (live Spark needs every row at the end); the rows of the
 * other files are read again when their batch runs, so that a large replay holds one file's rows at
 * a time. A kept file's rows are let go after the plan's last step that reads it.
 *
 * <p>The first reading also looks for a file whose rows all lack the query's watermark column
 * (absent or null on every row): Spark's {@code EventTimeWatermarkExec} reads a null event time as
 * 0 (1970-01-01), so such rows never move the watermark, and its late filter keeps them (a null
 * is never at or before the watermark), which is rarely what was meant (a misspelled field). Each
 * such file is a {@link Warning}, reported before the first batch runs.
 *
 * @param <I> input row type
 */
final class EventInputs<I> {
    /** How many rows the first pass keeps when not asked to keep all: small replays read each file once. */
    static final long DEFAULT_KEEP_ROWS = 100_000;

    private final JsonLines<I> again;
    private final boolean keepAll;
    private final Map<EventFile, List<I>> kept;
    private final Map<EventFile, Integer> usesLeft;
    private final List<Warning> warnings;
    private final long valuesReadAsNull;

    /**
     * A file with rows none of which has a value in the watermark column.
     *
     * @param file   the file
     * @param column the query's watermark (event-time) column
     * @param rows   the file's rows
     */
    record Warning(EventFile file, String column, int rows) {
        /** The warning as one line, naming the file as {@code where} (its path or label). */
        String message(String where) {
            return where + ": warning: the watermark column \"" + column + "\" is missing or null on every row ("
                    + rows + (rows == 1 ? " row" : " rows") + "): Spark's watermark takes their event time as"
                    + " 1970-01-01, so none moves it, its late filter keeps them all, and the processor gets null;"
                    + " check the field's name in the file (a field not in the schema has a note on stderr)";
        }
    }

    private EventInputs(JsonLines<I> again, boolean keepAll, Map<EventFile, List<I>> kept,
            Map<EventFile, Integer> usesLeft, List<Warning> warnings, long valuesReadAsNull) {
        this.again = again;
        this.keepAll = keepAll;
        this.kept = kept;
        this.usesLeft = usesLeft;
        this.warnings = List.copyOf(warnings);
        this.valuesReadAsNull = valuesReadAsNull;
    }

    /**
     * Reads (checks) every file of {@code plan} in plan order; notes about fields not in the schema go
     * to {@code notes}, once per field and file. {@code eventTimeColumn} is the query's watermark
     * column, if any: files without a value in it are {@link #warnings()}.
     */
    static <I> EventInputs<I> read(ReplayPlan plan, EncoderRows<I> codec, Optional<String> eventTimeColumn,
            PrintWriter notes, boolean keepAll, long keepRows) {
        JsonLines<I> first = JsonLines.of(codec, notes::println);
        Map<EventFile, Integer> uses = new LinkedHashMap<>();
        for (ScenarioPlan.Step step : plan.steps()) {
            if (step.hasRows()) {
                uses.merge(plan.file(step), 1, Integer::sum);
            }
        }
        Map<EventFile, List<I>> kept = new HashMap<>();
        long keptRows = 0;
        boolean keeping = true;
        List<Warning> warnings = new ArrayList<>();
        int eventTimeIndex = eventTimeColumn.map(codec::columnIndex).orElse(-1);
        for (EventFile file : uses.keySet()) {
            List<I> rows = readFirst(first, file);
            if (eventTimeIndex >= 0 && !rows.isEmpty() && noneHasValue(rows, codec, eventTimeIndex)) {
                warnings.add(new Warning(file, eventTimeColumn.get(), rows.size()));
            }
            keeping = keepAll || (keeping && keptRows + rows.size() <= keepRows);
            if (keeping) {
                kept.put(file, rows);
                keptRows += rows.size();
            }
        }
        // the notes were printed in the first pass
        JsonLines<I> again = JsonLines.of(codec, note -> { });
        return new EventInputs<>(again, keepAll, kept, uses, warnings, first.valuesReadAsNull());
    }

    /** How many values of the files Spark's JSON source cannot read, and so were read as null (each with a warning). */
    long valuesReadAsNull() {
        return valuesReadAsNull;
    }

    /** The files without a value in the watermark column, in plan order. */
    List<Warning> warnings() {
        return warnings;
    }

    /** Whether the column at {@code index} is null on every row; stops at the first value (usually the first row). */
    private static <I> boolean noneHasValue(List<I> rows, EncoderRows<I> codec, int index) {
        for (I row : rows) {
            if (!codec.toRow(row).isNullAt(index)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code file}'s rows; a bad line is invalid input (exit 3) with the file and line (for the JSON
     * failure record) and, for a file whose name does not say JSON, a hint that a folder's every file
     * is an event file.
     */
    private static <I> List<I> readFirst(JsonLines<I> reader, EventFile file) {
        try {
            return reader.read(file.path(), file.display());
        } catch (JsonLinesException e) {
            String message = e.getMessage();
            String name = file.name().toLowerCase(Locale.ROOT);
            if (!name.endsWith(".jsonl") && !name.endsWith(".json") && !name.endsWith(".ndjson")) {
                message += " (" + file.name() + " is read as JSON lines, as Spark's JSON file source reads every file"
                        + " of its folder; move it out of the folder, or rename it to start with _ so that both skip"
                        + " it)";
            }
            throw CliException.invalidInput(message, e).at(file, e.line(), message);
        }
    }

    /** {@code file}'s rows read again; a bad line (the file changed since) is invalid input (exit 3). */
    private List<I> readAgain(EventFile file) {
        try {
            return again.read(file.path(), file.display());
        } catch (JsonLinesException e) {
            throw CliException.invalidInput(e.getMessage(), e).at(file, e.line(), e.getMessage());
        }
    }

    /** The rows of {@code file} for its batch: kept ones, or read again; let go after the file's last use. */
    List<I> take(EventFile file) {
        int left = usesLeft.merge(file, -1, Integer::sum);
        List<I> rows = kept.get(file);
        if (rows == null) {
            return readAgain(file);
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
