package dev.twstester.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.io.EncoderRows;

/**
 * The replay for people, batch by batch:
 * <pre>
 * batch 5 (no data, after 003.jsonl)
 *   rows in: 0, dropped late: 0
 *   watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:40:00Z
 *   batch timestamp: 1970-01-01T00:00:00Z
 *   outputs: 1
 *     {"itemCount":2,"lastSeen":"2024-05-01T10:05:00Z","userId":"ana"}
 *   timers fired: ana@2024-05-01T10:35:00Z
 *   metrics: numExpiredTimers=1, numRemovedStateRows=2
 * </pre>
 * Rows are shown as JSON through the query's encoders, times in UTC; the metrics line (with
 * {@code --show-metrics}) lists the batch's non-zero metrics in {@link BatchResult#METRIC_NAMES} order.
 *
 * <p>Text stays readable for large batches and runs: each list of a batch (late rows, outputs,
 * fired timers, keys of {@code --show-state}) shows at most {@code maxRows} entries followed by
 * {@code ... and 1234 more}, and the last line names at most {@value #KEYS_LISTED} keys with state
 * ({@code keys with state: 20000 (first 10: [...])}). The report keeps nothing of a batch once it is
 * printed, except for the comparison with another run, which gets that run.
 */
final class TextReport<K, I, O> implements Report<K, I, O> {
    /** How many keys with state the last line names. */
    static final int KEYS_LISTED = 10;
    /** The default of {@code maxRows}: entries shown of each list of a batch. */
    static final int DEFAULT_MAX_ROWS = 20;

    private final PrintWriter out;
    private final TwsQuery<K, I, O> query;
    private EncoderRows<K> keys;
    private EncoderRows<I> inputs;
    private EncoderRows<O> outputs;
    private final boolean showMetrics;
    private final List<String> simulatorModes;
    private final int maxRows;

    /**
     * @param showMetrics    print each batch's non-zero metrics
     * @param simulatorModes how the simulator runs beyond Spark's defaults, for the header
     *                       (e.g. {@code real-time mode}); empty for none
     * @param maxRows        entries shown of each list of a batch (outputs, late rows, timers fired,
     *                       keys with state); 0 for all
     */
    TextReport(PrintWriter out, TwsQuery<K, I, O> query, boolean showMetrics, List<String> simulatorModes,
            int maxRows) {
        this.out = out;
        this.query = query;
        this.showMetrics = showMetrics;
        this.simulatorModes = List.copyOf(simulatorModes);
        this.maxRows = maxRows <= 0 ? Integer.MAX_VALUE : maxRows;
    }

    // the codecs are made when first needed: a replay without outputs or late rows needs none of them
    private EncoderRows<K> keys() {
        if (keys == null) {
            keys = EncoderRows.of(query.keyEncoder());
        }
        return keys;
    }

    private EncoderRows<I> inputs() {
        if (inputs == null) {
            inputs = EncoderRows.of(query.inputEncoder());
        }
        return inputs;
    }

    private EncoderRows<O> outputs() {
        if (outputs == null) {
            outputs = EncoderRows.of(query.outputEncoder());
        }
        return outputs;
    }

    @Override
    public void start(String queryName, ReplayPlan plan) {
        int files = plan.inputCount();
        out.println("replay of " + files + (files == 1 ? " file" : " files") + " with " + queryName + ": "
                + describe(query) + (plan.source().equals("options") ? "" : "; plan " + plan.source())
                + (simulatorModes.isEmpty() ? "" : "; simulator: " + String.join(", ", simulatorModes))
                + ". Times in UTC.");
    }

    @Override
    public void warning(EventInputs.Warning warning) {
        // on stderr: stdout has the batches
    }

    static String describe(TwsQuery<?, ?, ?> query) {
        String watermark = query.eventTimeColumn()
                .map(c -> ", watermark on " + c + " with delay " + query.watermarkDelay())
                .orElse(", no watermark");
        String partitions = query.shufflePartitions() == 1 ? ""
                : ", " + query.shufflePartitions() + " shuffle partitions";
        String trigger = query.triggerIntervalMs() == 0 ? ""
                : ", trigger interval " + java.time.Duration.ofMillis(query.triggerIntervalMs());
        return timeMode(query.timeMode()) + " mode, " + outputMode(query.outputMode()) + " output" + watermark
                + partitions + trigger;
    }

    static String timeMode(TimeMode mode) {
        if (mode.equals(TimeMode.EventTime())) {
            return "EventTime";
        } else if (mode.equals(TimeMode.ProcessingTime())) {
            return "ProcessingTime";
        }
        return "None";
    }

    private static String outputMode(OutputMode mode) {
        if (mode.equals(OutputMode.Append())) {
            return "Append";
        } else if (mode.equals(OutputMode.Complete())) {
            return "Complete";
        }
        return "Update";
    }

    @Override
    public void batch(BatchResult<K, I, O> b, BatchCause cause, StateSnapshot<K> state) {
        printBatch(b, cause == null ? BatchCause.unknown(b.hadInput()) : cause.label(b.hadInput()));
        if (state != null) {
            printState(state);
        }
    }

    private void printBatch(BatchResult<K, I, O> b, String label) {
        out.println("batch " + b.batchId() + " (" + label + ")");
        out.println("  rows in: " + b.input().size() + ", dropped late: " + b.droppedLate().size());
        List<I> late = b.droppedLate();
        for (int i = 0; i < Math.min(late.size(), maxRows); i++) {
            out.println("    " + RowFormat.text(late.get(i), inputs()));
        }
        more(late.size(), "    ");
        out.println("  watermark: late " + b.lateWatermark() + ", eviction " + b.evictionWatermark());
        out.println("  batch timestamp: " + b.batchTimestamp());
        List<O> rows = b.outputs();
        out.println("  outputs: " + (rows.isEmpty() ? "none" : rows.size()));
        for (int i = 0; i < Math.min(rows.size(), maxRows); i++) {
            out.println("    " + RowFormat.text(rows.get(i), outputs()));
        }
        more(rows.size(), "    ");
        List<FiredTimer<K>> fired = b.firedTimers();
        List<String> timers = new ArrayList<>();
        for (int i = 0; i < Math.min(fired.size(), maxRows); i++) {
            timers.add(RowFormat.keyText(fired.get(i).key(), keys()) + "@" + fired.get(i).expiry());
        }
        out.println("  timers fired: " + (timers.isEmpty() ? "none" : String.join(", ", timers))
                + (fired.size() > maxRows ? ", ... and " + (fired.size() - maxRows) + " more" : ""));
        if (showMetrics) {
            printMetrics(b);
        }
    }

    /** The non-zero metrics in Spark's order ({@link BatchResult#METRIC_NAMES}). */
    private void printMetrics(BatchResult<K, I, O> b) {
        List<String> shown = new ArrayList<>();
        for (String name : BatchResult.METRIC_NAMES) {
            long value = b.metric(name);
            if (value != 0) {
                shown.add(name + "=" + value);
            }
        }
        out.println("  metrics: " + (shown.isEmpty() ? "none" : String.join(", ", shown)));
    }

    private void printState(StateSnapshot<K> state) {
        if (state.keys().isEmpty()) {
            out.println("  state: none");
            return;
        }
        out.println("  state:");
        List<StateSnapshot.KeyState<K>> shown = state.keys().subList(0, Math.min(state.keys().size(), maxRows));
        for (StateSnapshot.KeyState<K> k : shown) {
            List<String> parts = new ArrayList<>();
            k.variables().forEach((name, v) -> parts.add(name + " (" + v.kind() + ") " + RowFormat.print(RowFormat.any(v.value()))));
            if (!k.timers().isEmpty()) {
                parts.add("timers " + k.timers());
            }
            out.println("    " + RowFormat.keyText(k.key(), keys()) + ": "
                    + (parts.isEmpty() ? "(nothing visible: expired by TTL)" : String.join(", ", parts)));
        }
        more(state.keys().size(), "    ");
    }

    /** The line after a list cut at {@code maxRows}: how many entries were not shown, and where to see them. */
    private void more(int size, String indent) {
        if (size > maxRows) {
            out.println(indent + "... and " + (size - maxRows) + " more (--max-rows 0 shows all, --format json has"
                    + " all)");
        }
    }

    @Override
    public void restart(long nextBatchId, Instant watermark, Instant processingTime, int waitingRows) {
        out.println("restart: the query restarted from its checkpoint (state, timers, watermark " + watermark
                + " and batch ids kept; a fresh processor ran init/close on the driver); " + (waitingRows == 0
                        ? "no batch runs until the next file"
                        : "its first trigger reads the " + count(waitingRows, "row", "rows") + " waiting in the source")
                + " (batch " + nextBatchId + ")");
    }

    @Override
    public void stop(Instant processingTime) {
        out.println("stop: the query stopped at " + processingTime + " (state, timers, watermark and batch ids kept);"
                + " nothing runs until its start, rows added wait, a pending no-data batch is skipped");
    }

    @Override
    public void tickWithoutBatch(Instant to, String why) {
        out.println("tick to " + to + ": no batch (" + why + ")");
    }

    @Override
    public void addWithoutBatch(String file, int rows, int waiting, String why) {
        out.println("add " + file + ": " + count(rows, "row waits", "rows wait") + " in the source, " + waiting
                + " in all (" + why + ")");
    }

    @Override
    public void end(Replay.Totals totals, int files, Instant watermark, Instant processingTime,
            List<K> keysWithState, Instant pendingNoDataBatchAt) {
        out.println("total: " + count(totals.batches(), "batch", "batches") + " for " + count(files, "file", "files")
                + ": " + count(totals.outputs(), "output row", "output rows")
                + ", " + count(totals.timersFired(), "timer fired", "timers fired")
                + ", " + count(totals.droppedLate(), "row dropped late", "rows dropped late")
                + "; watermark " + watermark + ", processing time " + processingTime
                + "; keys with state: " + keysText(keysWithState));
        if (pendingNoDataBatchAt != null) {
            out.println("pending: the last batch moved the watermark; its no-data batch (timers up to "
                    + watermark + ") runs at the next trigger, " + pendingNoDataBatchAt
                    + ", which this replay does not reach; add --tick " + pendingNoDataBatchAt + " to run it");
        }
    }

    /** {@code [ana, bo]} for up to {@value #KEYS_LISTED} keys, else {@code 20000 (first 10: [...])}. */
    private String keysText(List<K> keysWithState) {
        List<String> shown = keysWithState.subList(0, Math.min(keysWithState.size(), KEYS_LISTED)).stream()
                .map(k -> RowFormat.keyText(k, keys())).toList();
        return keysWithState.size() <= KEYS_LISTED ? shown.toString()
                : keysWithState.size() + " (first " + KEYS_LISTED + ": " + shown + ")";
    }

    @Override
    public void comparison(String otherName, String otherTitle, RunResult<K, I, O> other,
            List<RunDifference> differences, Map<Long, BatchCause> causes, EndState endState) {
        if (differences.isEmpty()) {
            // RunComparison compares metrics where both runs have them; the simulator always does
            boolean metrics = other.batches().stream().noneMatch(b -> b.metrics().isEmpty());
            out.println(otherTitle + ": " + count(other.batches().size(), "batch", "batches")
                    + ", the same as the simulator's (ids, watermarks, batch timestamps, late rows, outputs, timers"
                    + (metrics ? ", metrics)" : ")"));
        } else {
            out.println(otherTitle + " differs from the simulator: "
                    + count(differences.size(), "difference", "differences"));
            for (RunDifference d : differences) {
                out.println(d.message());
            }
            out.println(otherTitle + ", batch by batch:");
            for (BatchResult<K, I, O> b : other.batches()) {
                BatchCause cause = causes.get(b.batchId());
                printBatch(b, cause == null ? BatchCause.unknown(b.hadInput()) : cause.label(b.hadInput()));
            }
        }
        if (endState != null) {
            printEndState(otherTitle, endState);
        }
    }

    /**
     * {@code live Spark's end state after batch 5: the same as the simulator's (...)}, or the
     * differences, each as {@code RunComparison#stateDifferences} words it, or why it was not compared.
     */
    private void printEndState(String otherTitle, EndState endState) {
        String title = otherTitle + "'s end state";
        if (!endState.compared()) {
            out.println(title + ": not compared (" + endState.notCompared() + ")");
            return;
        }
        String after = endState.afterBatch() < 0 ? " (no batch ran)" : " after batch " + endState.afterBatch();
        if (endState.same()) {
            out.println(title + after + ": the same as the simulator's (" + count(endState.keys(),
                    "key", "keys") + " with state or timers: every state variable's values with their TTL"
                    + " expirations, the registered timers, the next batch id, the watermarks)");
            return;
        }
        out.println(title + after + " differs from the simulator's: "
                + count(endState.differences().size(), "difference", "differences"));
        for (RunDifference d : endState.differences()) {
            out.println(d.message());
        }
    }

    private static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
