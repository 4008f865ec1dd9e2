package dev.twstester.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.FiredTimer;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.sim.StateDump;

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
 * <p>A query of several stateful operators shows, after the batch's rows in, watermarks and time,
 * each operator's view of the batch, the last one's outputs being the query's:
 * <pre>
 *   operator 0 (CartFlags):
 *     outputs: 1
 *       {"flaggedAt":"2024-05-01T10:35:00Z","itemCount":2,"userId":"ana"}
 *     timers fired: ana@2024-05-01T10:35:00Z
 *   operator 1 (HourlyDigest), the query's output:
 *     rows in: 1, dropped late: 0
 *     outputs: none
 *     timers fired: none
 * </pre>
 * and {@code --show-state} each operator's state ({@code state of operator 1 (HourlyDigest):}).
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
    private final OperatorRows rows;
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
        this.rows = new OperatorRows(query);
        this.showMetrics = showMetrics;
        this.simulatorModes = List.copyOf(simulatorModes);
        this.maxRows = maxRows <= 0 ? Integer.MAX_VALUE : maxRows;
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

    /**
     * The query's modes: {@code EventTime mode, Update output, watermark on ts with delay PT10M},
     * for several operators each operator's, then the shuffle partitions and trigger if not the defaults.
     */
    static String describe(TwsQuery<?, ?, ?> query) {
        List<TwsQuery<?, ?, ?>> operators = query.operators();
        String modes;
        if (operators.size() == 1) {
            modes = modes(query) + query.eventTimeColumn()
                    .map(c -> ", watermark on " + c + " with delay " + query.watermarkDelay())
                    .orElse(", no watermark");
        } else {
            List<String> each = new ArrayList<>();
            for (int i = 0; i < operators.size(); i++) {
                TwsQuery<?, ?, ?> op = operators.get(i);
                each.add(operatorName(operators, i) + " " + modes(op)
                        + op.eventTimeColumn().map(c -> ", watermark on " + c + " with delay " + op.watermarkDelay())
                                .orElse("")
                        + op.outputEventTimeColumn().map(c -> ", output event time " + c).orElse(""));
            }
            modes = operators.size() + " stateful operators: " + String.join("; ", each);
        }
        String partitions = query.shufflePartitions() == 1 ? ""
                : ", " + query.shufflePartitions() + " shuffle partitions";
        String trigger = query.triggerIntervalMs() == 0 ? ""
                : ", trigger interval " + java.time.Duration.ofMillis(query.triggerIntervalMs());
        return modes + partitions + trigger;
    }

    private static String modes(TwsQuery<?, ?, ?> operator) {
        return timeMode(operator.timeMode()) + " mode, " + outputMode(operator.outputMode()) + " output";
    }

    /** {@code operator 1 (HourlyDigest)}: operator {@code i} of a query's {@code operators}, by its class. */
    static String operatorName(List<TwsQuery<?, ?, ?>> operators, int i) {
        Class<?> type = operators.get(i).userClass();
        return "operator " + i + " (" + (type.getSimpleName().isEmpty() ? type.getName() : type.getSimpleName()) + ")";
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
    public void batch(BatchResult<K, I, O> b, BatchCause cause, List<StateDump<?>> states) {
        printBatch(b, cause == null ? BatchCause.unknown(b.hadInput()) : cause.label(b.hadInput()));
        if (states != null) {
            for (int i = 0; i < states.size(); i++) {
                printState(states.get(i), i, states.size());
            }
        }
    }

    /**
     * The batch: its rows, watermarks and time, then its outputs and fired timers; for several
     * operators each operator's view of the batch (its rows in and late rows from operator 1 on,
     * its outputs, fired timers and metrics), the last one's outputs being the query's.
     */
    private void printBatch(BatchResult<K, I, O> b, String label) {
        out.println("batch " + b.batchId() + " (" + label + ")");
        List<BatchResult<?, ?, ?>> views = b.operators();
        printRowsIn(b, 0, "  ");
        out.println("  watermark: late " + b.lateWatermark() + ", eviction " + b.evictionWatermark());
        out.println("  batch timestamp: " + b.batchTimestamp());
        if (views.size() == 1) {
            printResults(b, 0, "  ");
            return;
        }
        List<TwsQuery<?, ?, ?>> operators = query.operators();
        for (int i = 0; i < views.size(); i++) {
            out.println("  " + operatorName(operators, i) + (i == views.size() - 1 ? ", the query's output:" : ":"));
            if (i > 0) {
                printRowsIn(views.get(i), i, "    ");
            }
            printResults(views.get(i), i, "    ");
        }
    }

    /** {@code rows in: 3, dropped late: 1} and the late rows. */
    private void printRowsIn(BatchResult<?, ?, ?> b, int operator, String indent) {
        out.println(indent + "rows in: " + b.input().size() + ", dropped late: " + b.droppedLate().size());
        List<?> late = b.droppedLate();
        for (int i = 0; i < Math.min(late.size(), maxRows); i++) {
            out.println(indent + "  " + RowFormat.text(late.get(i), rows.inputs(operator)));
        }
        more(late.size(), indent + "  ");
    }

    /** The outputs, the timers fired and (with {@code --show-metrics}) the metrics of one operator's view. */
    private void printResults(BatchResult<?, ?, ?> b, int operator, String indent) {
        List<?> outputs = b.outputs();
        out.println(indent + "outputs: " + (outputs.isEmpty() ? "none" : outputs.size()));
        for (int i = 0; i < Math.min(outputs.size(), maxRows); i++) {
            out.println(indent + "  " + RowFormat.text(outputs.get(i), rows.outputs(operator)));
        }
        more(outputs.size(), indent + "  ");
        List<? extends FiredTimer<?>> fired = b.firedTimers();
        List<String> timers = new ArrayList<>();
        for (int i = 0; i < Math.min(fired.size(), maxRows); i++) {
            timers.add(RowFormat.keyText(fired.get(i).key(), rows.keys(operator)) + "@" + fired.get(i).expiry());
        }
        out.println(indent + "timers fired: " + (timers.isEmpty() ? "none" : String.join(", ", timers))
                + (fired.size() > maxRows ? ", ... and " + (fired.size() - maxRows) + " more" : ""));
        if (showMetrics) {
            printMetrics(b, indent);
        }
    }

    /** The non-zero metrics in Spark's order ({@link BatchResult#METRIC_NAMES}). */
    private void printMetrics(BatchResult<?, ?, ?> b, String indent) {
        List<String> shown = new ArrayList<>();
        for (String name : BatchResult.METRIC_NAMES) {
            long value = b.metric(name);
            if (value != 0) {
                shown.add(name + "=" + value);
            }
        }
        out.println(indent + "metrics: " + (shown.isEmpty() ? "none" : String.join(", ", shown)));
    }

    /** One operator's state: {@code state:} for a query of one operator, else {@code state of operator 1 (...):}. */
    private void printState(StateDump<?> state, int operator, int operators) {
        String title = operators == 1 ? "  state" : "  state of " + operatorName(query.operators(), operator);
        if (state.keys().isEmpty()) {
            out.println(title + ": none");
            return;
        }
        out.println(title + ":");
        List<? extends StateDump.KeyState<?>> keys = state.keys();
        for (StateDump.KeyState<?> k : keys.subList(0, Math.min(keys.size(), maxRows))) {
            List<String> parts = new ArrayList<>();
            k.variables().forEach((name, v) -> parts.add(name + " (" + v.kind() + ") " + RowFormat.print(RowFormat.any(v.value()))));
            if (!k.timers().isEmpty()) {
                parts.add("timers " + k.timers());
            }
            out.println("    " + RowFormat.keyText(k.key(), rows.keys(operator)) + ": "
                    + (parts.isEmpty() ? "(nothing visible: expired by TTL)" : String.join(", ", parts)));
        }
        more(keys.size(), "    ");
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
    public void failedBatch(FailedBatch failed, BatchCause cause, String message) {
        out.println("batch " + failed.batchId() + " (" + cause.label(failed.hadInput()) + ") FAILED: " + message);
        out.println("  the query stopped; batch " + failed.batchId() + " stays in the offset log (" + failed.rows()
                + (failed.rows() == 1 ? " row" : " rows") + ", batch timestamp " + failed.batchTimestamp()
                + "): the next start or deploy runs it again");
    }

    @Override
    public void deploy(String version, long nextBatchId, Long rerun, int waitingRows) {
        out.println("deploy " + version + ": the query stopped and this version started on its checkpoint (state,"
                + " timers, watermark and batch ids kept); its first trigger " + (rerun != null
                        ? "runs failed batch " + rerun + " again with it, at its original time" + (waitingRows == 0 ? ""
                                : ", then reads the " + count(waitingRows, "row", "rows") + " waiting")
                        : waitingRows == 0 ? "runs nothing until the next file"
                                : "reads the " + count(waitingRows, "row", "rows") + " waiting (batch " + nextBatchId + ")"));
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
            List<List<?>> keysWithState, Instant pendingNoDataBatchAt) {
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

    /** Each operator's keys ({@link #keysText(List, int)}), for several operators as {@code operator 0 [...], operator 1 [...]}. */
    private String keysText(List<List<?>> keysWithState) {
        if (keysWithState.size() == 1) {
            return keysText(keysWithState.get(0), 0);
        }
        List<String> each = new ArrayList<>();
        for (int i = 0; i < keysWithState.size(); i++) {
            each.add("operator " + i + " " + keysText(keysWithState.get(i), i));
        }
        return String.join(", ", each);
    }

    /** {@code [ana, bo]} for up to {@value #KEYS_LISTED} keys, else {@code 20000 (first 10: [...])}. */
    private String keysText(List<?> keys, int operator) {
        List<String> shown = keys.subList(0, Math.min(keys.size(), KEYS_LISTED)).stream()
                .map(k -> RowFormat.keyText(k, rows.keys(operator))).toList();
        return keys.size() <= KEYS_LISTED ? shown.toString()
                : keys.size() + " (first " + KEYS_LISTED + ": " + shown + ")";
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
