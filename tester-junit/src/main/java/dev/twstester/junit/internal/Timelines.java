package dev.twstester.junit.internal;

import java.util.List;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

/**
 * Internal, not API: may change in any release.
 *
 * <p>The readable timeline of a recorded simulator: every call, the batches it ran, the state
 * changes it caused.
 */
public final class Timelines {
    /** How many calls a timeline shows at most; the trace files hold all. */
    public static final int MAX_CALLS = 40;

    private Timelines() {}

    /** The timeline of {@code recorder}, its last {@code maxCalls} calls shown. */
    public static String render(Recorder<?, ?, ?> recorder, int maxCalls) {
        return renderTyped(recorder, maxCalls);
    }

    private static <K, I, O> String renderTyped(Recorder<K, I, O> recorder, int maxCalls) {
        List<Call<K, I, O>> calls = recorder.calls();
        int batches = calls.stream().mapToInt(c -> c.batches().size()).sum();
        StringBuilder b = new StringBuilder("timeline of simulator '").append(recorder.name()).append("' (")
                .append(describe(recorder.query())).append("): ").append(count(calls.size(), "call"))
                .append(", ").append(count(batches, "batch")).append("; times in UTC");
        int first = Math.max(0, calls.size() - maxCalls);
        if (first > 0) {
            b.append("\n(calls #1-#").append(first).append(" left out; the trace files have every call)");
        }
        for (Call<K, I, O> call : calls.subList(first, calls.size())) {
            appendCall(b, call);
        }
        TwsSimulator<K, I, O> sim = recorder.simulator();
        b.append("\nnow: watermark ").append(sim.watermark()).append(", processing time ").append(sim.processingTime())
                .append(", next batch ").append(sim.nextBatchId());
        return b.toString();
    }

    /** {@code TallyProcessor, EventTime mode, Update output, watermark on ts delayed PT5S}. */
    public static String describe(TwsQuery<?, ?, ?> query) {
        return query.userClass().getSimpleName() + ", " + timeMode(query.timeMode()) + " mode, "
                + query.outputMode() + " output, "
                + query.eventTimeColumn().map(c -> "watermark on " + c + " delayed " + query.watermarkDelay())
                        .orElse("no watermark");
    }

    static String timeMode(TimeMode mode) {
        if (mode.equals(TimeMode.EventTime())) {
            return "EventTime";
        }
        return mode.equals(TimeMode.ProcessingTime()) ? "ProcessingTime" : "None";
    }

    private static <K, I, O> void appendCall(StringBuilder b, Call<K, I, O> call) {
        b.append("\n#").append(call.number()).append(' ').append(call.description());
        if (call.error() != null) {
            b.append(" threw ").append(firstLine(call.error()));
            if (call.error() instanceof SparkThrowable) {
                b.append("\n  (the failing batch committed nothing)");
            }
        }
        if (call.batches().isEmpty()) {
            b.append("\n  no batch ran");
        }
        for (BatchResult<K, I, O> batch : call.batches()) {
            appendBatch(b, batch);
        }
        if (call.changes().isEmpty()) {
            b.append("\n  state: unchanged");
        } else {
            b.append("\n  state changes:");
            call.changes().forEach(c -> b.append("\n    ").append(c.describe()));
        }
    }

    private static void appendBatch(StringBuilder b, BatchResult<?, ?, ?> batch) {
        b.append("\n  batch ").append(batch.batchId()).append(batch.hadInput() ? " (data)" : " (no data)")
                .append(", processing time ").append(batch.batchTimestamp())
                .append("\n    input: ").append(count(batch.input().size(), "row"))
                .append(", dropped late: ").append(batch.droppedLate().isEmpty() ? "none" : batch.droppedLate().size());
        rows(b, batch.droppedLate());
        b.append("\n    watermark: late ").append(batch.lateWatermark()).append(", eviction ")
                .append(batch.evictionWatermark())
                .append("\n    outputs: ").append(batch.outputs().isEmpty() ? "none" : batch.outputs().size());
        rows(b, batch.outputs());
        b.append("\n    timers fired: ").append(batch.firedTimers().isEmpty() ? "none" : batch.firedTimers());
    }

    private static void rows(StringBuilder b, List<?> rows) {
        rows.forEach(r -> b.append("\n      ").append(r));
    }

    public static String firstLine(Throwable t) {
        String text = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl) + " ...";
    }

    public static String count(int n, String unit) {
        String plural = unit.endsWith("ch") ? unit + "es" : unit + "s";
        return n + " " + (n == 1 ? unit : plural);
    }
}
