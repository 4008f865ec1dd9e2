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
import dev.twstester.internal.RowCodec;

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
 */
final class TextReport<K, I, O> implements Report<K, I, O> {
    private final PrintWriter out;
    private final TwsQuery<K, I, O> query;
    private final RowCodec<K> keys;
    private final RowCodec<I> inputs;
    private final RowCodec<O> outputs;
    private final boolean showMetrics;
    private final List<String> simulatorModes;

    /**
     * @param showMetrics    print each batch's non-zero metrics
     * @param simulatorModes how the simulator runs beyond Spark's defaults, for the header
     *                       (e.g. {@code real-time mode}); empty for none
     */
    TextReport(PrintWriter out, TwsQuery<K, I, O> query, boolean showMetrics, List<String> simulatorModes) {
        this.out = out;
        this.query = query;
        this.showMetrics = showMetrics;
        this.simulatorModes = List.copyOf(simulatorModes);
        this.keys = RowCodec.of(query.keyEncoder());
        this.inputs = RowCodec.of(query.inputEncoder());
        this.outputs = RowCodec.of(query.outputEncoder());
    }

    @Override
    public void start(String queryName, ReplayPlan plan) {
        int files = plan.inputCount();
        out.println("replay of " + files + (files == 1 ? " file" : " files") + " with " + queryName + ": "
                + describe(query) + (plan.source().equals("options") ? "" : "; plan " + plan.source())
                + (simulatorModes.isEmpty() ? "" : "; simulator: " + String.join(", ", simulatorModes))
                + ". Times in UTC.");
    }

    static String describe(TwsQuery<?, ?, ?> query) {
        String watermark = query.eventTimeColumn()
                .map(c -> ", watermark on " + c + " with delay " + query.watermarkDelay())
                .orElse(", no watermark");
        String partitions = query.shufflePartitions() == 1 ? ""
                : ", " + query.shufflePartitions() + " shuffle partitions";
        return timeMode(query.timeMode()) + " mode, " + outputMode(query.outputMode()) + " output" + watermark
                + partitions;
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
        for (I row : b.droppedLate()) {
            out.println("    " + RowFormat.text(row, inputs));
        }
        out.println("  watermark: late " + b.lateWatermark() + ", eviction " + b.evictionWatermark());
        out.println("  batch timestamp: " + b.batchTimestamp());
        out.println("  outputs: " + (b.outputs().isEmpty() ? "none" : b.outputs().size()));
        for (O row : b.outputs()) {
            out.println("    " + RowFormat.text(row, outputs));
        }
        List<String> timers = new ArrayList<>();
        for (FiredTimer<K> t : b.firedTimers()) {
            timers.add(RowFormat.keyText(t.key(), keys) + "@" + t.expiry());
        }
        out.println("  timers fired: " + (timers.isEmpty() ? "none" : String.join(", ", timers)));
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
        for (StateSnapshot.KeyState<K> k : state.keys()) {
            List<String> parts = new ArrayList<>();
            k.variables().forEach((name, v) -> parts.add(name + " (" + v.kind() + ") " + RowFormat.print(RowFormat.any(v.value()))));
            if (!k.timers().isEmpty()) {
                parts.add("timers " + k.timers());
            }
            out.println("    " + RowFormat.keyText(k.key(), keys) + ": "
                    + (parts.isEmpty() ? "(nothing visible: expired by TTL)" : String.join(", ", parts)));
        }
    }

    @Override
    public void restart(long nextBatchId, Instant watermark, Instant processingTime) {
        out.println("restart: the query restarted from its checkpoint (state, timers, watermark " + watermark
                + " and batch ids kept; a fresh processor ran init/close on the driver); no batch runs until the"
                + " next file (batch " + nextBatchId + ")");
    }

    @Override
    public void tickWithoutBatch(Instant to, String why) {
        out.println("tick to " + to + ": no batch (" + why + ")");
    }

    @Override
    public void end(RunResult<K, I, O> run, int files, Instant watermark, Instant processingTime, List<K> keysWithState) {
        List<String> shown = keysWithState.stream().map(k -> RowFormat.keyText(k, keys)).toList();
        out.println("total: " + count(run.batches().size(), "batch", "batches") + " for " + count(files, "file", "files")
                + ": " + count(run.outputs().size(), "output row", "output rows")
                + ", " + count(run.firedTimers().size(), "timer fired", "timers fired")
                + ", " + count(run.droppedLate().size(), "row dropped late", "rows dropped late")
                + "; watermark " + watermark + ", processing time " + processingTime
                + "; keys with state: " + shown);
    }

    @Override
    public void comparison(String otherName, String otherTitle, RunResult<K, I, O> other,
            List<RunDifference> differences, Map<Long, BatchCause> causes) {
        if (differences.isEmpty()) {
            // RunComparison compares metrics where both runs have them; the simulator always does
            boolean metrics = other.batches().stream().noneMatch(b -> b.metrics().isEmpty());
            out.println(otherTitle + ": " + count(other.batches().size(), "batch", "batches")
                    + ", the same as the simulator's (ids, watermarks, batch timestamps, late rows, outputs, timers"
                    + (metrics ? ", metrics)" : ")"));
            return;
        }
        out.println(otherTitle + " differs from the simulator: " + count(differences.size(), "difference", "differences"));
        for (RunDifference d : differences) {
            out.println(d.message());
        }
        out.println(otherTitle + ", batch by batch:");
        for (BatchResult<K, I, O> b : other.batches()) {
            BatchCause cause = causes.get(b.batchId());
            printBatch(b, cause == null ? BatchCause.unknown(b.hadInput()) : cause.label(b.hadInput()));
        }
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
