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
 * changes it caused. For a query of several operators each batch shows every operator's part.
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
        boolean several = recorder.query().operators().size() > 1;
        StringBuilder b = new StringBuilder("timeline of simulator '").append(recorder.name()).append("' (")
                .append(describe(recorder.query())).append("): ").append(count(recorder.callCount(), "call"))
                .append(", ").append(count(recorder.batchCount(), "batch")).append("; times in UTC");
        int first = Math.max(0, calls.size() - maxCalls);
        int leftOut = recorder.callsLeftOut() + first;
        if (recorder.callsLeftOut() > 0) {
            b.append("\n(calls #1-#").append(leftOut).append(" left out; with keepHistory = false the last ")
                    .append(Recorder.KEPT_CALLS).append(" calls are kept)");
        } else if (first > 0) {
            b.append("\n(calls #1-#").append(first).append(" left out; the trace files have every call)");
        }
        for (Call<K, I, O> call : calls.subList(first, calls.size())) {
            appendCall(b, call, several);
        }
        TwsSimulator<K, I, O> sim = recorder.simulator();
        b.append("\nnow: watermark ").append(sim.watermark()).append(", processing time ").append(sim.processingTime())
                .append(", next batch ").append(sim.nextBatchId());
        return b.toString();
    }

    /**
     * {@code TallyProcessor, EventTime mode, Update output, watermark on ts delayed PT5S}; for
     * several operators each in turn: {@code Relay (None mode, ...) then TallyProcessor (EventTime mode, Update output)}.
     */
    public static String describe(TwsQuery<?, ?, ?> query) {
        List<TwsQuery<?, ?, ?>> operators = query.operators();
        if (operators.size() == 1) {
            return query.userClass().getSimpleName() + ", " + modes(query) + ", " + watermark(query);
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < operators.size(); i++) {
            TwsQuery<?, ?, ?> op = operators.get(i);
            b.append(i == 0 ? "" : " then ").append(op.userClass().getSimpleName()).append(" (").append(modes(op))
                    .append(i == 0 ? ", " + watermark(op) : "").append(')');
        }
        return b.toString();
    }

    private static String modes(TwsQuery<?, ?, ?> op) {
        return timeMode(op.timeMode()) + " mode, " + op.outputMode() + " output";
    }

    private static String watermark(TwsQuery<?, ?, ?> op) {
        return op.eventTimeColumn().map(c -> "watermark on " + c + " delayed " + op.watermarkDelay()).orElse("no watermark");
    }

    static String timeMode(TimeMode mode) {
        if (mode.equals(TimeMode.EventTime())) {
            return "EventTime";
        }
        return mode.equals(TimeMode.ProcessingTime()) ? "ProcessingTime" : "None";
    }

    private static <K, I, O> void appendCall(StringBuilder b, Call<K, I, O> call, boolean several) {
        b.append("\n#").append(call.number()).append(' ').append(call.description());
        if (call.error() != null) {
            b.append(" threw ").append(firstLine(call.error()));
            if (call.error() instanceof SparkThrowable) {
                b.append("\n  (the failing batch committed nothing)");
            }
        }
        if (call.newVersion() != null) {
            b.append("\n  new version: ").append(call.newVersion()).append("; the calls after this one run it");
        }
        if (call.leftOut().batches() > 0) {
            b.append("\n  (").append(count(call.leftOut().batches(), "earlier batch"))
                    .append(" of this call left out; with keepHistory = false a call keeps its last ")
                    .append(Recorder.KEPT_BATCHES_PER_CALL).append(')');
        } else if (call.committed().isEmpty()) {
            b.append("\n  no batch ran");
        }
        for (BatchResult<K, I, O> batch : call.batches()) {
            appendBatch(b, batch);
        }
        if (call.changes().isEmpty()) {
            b.append("\n  state: unchanged");
        } else {
            b.append("\n  state changes:");
            call.changes().forEach(c -> b.append("\n    ").append(c.describe(several)));
        }
    }

    private static void appendBatch(StringBuilder b, BatchResult<?, ?, ?> batch) {
        b.append("\n  batch ").append(batch.batchId()).append(batch.hadInput() ? " (data)" : " (no data)")
                .append(", processing time ").append(batch.batchTimestamp())
                .append("\n    input: ").append(count(batch.input().size(), "row"))
                .append(", dropped late: ").append(batch.droppedLate().isEmpty() ? "none" : batch.droppedLate().size());
        rows(b, batch.droppedLate(), "      ");
        b.append("\n    watermark: late ").append(batch.lateWatermark()).append(", eviction ")
                .append(batch.evictionWatermark());
        List<BatchResult<?, ?, ?>> operators = batch.operators();
        if (operators.size() > 1) {
            appendOperators(b, operators);
        }
        b.append("\n    outputs: ").append(batch.outputs().isEmpty() ? "none" : batch.outputs().size());
        rows(b, batch.outputs(), "      ");
        if (operators.size() == 1) {
            b.append("\n    timers fired: ").append(batch.firedTimers().isEmpty() ? "none" : batch.firedTimers());
        }
    }

    /**
     * Each operator's part of a batch: its late rows (after the first, whose are the batch's), its
     * fired timers and its outputs (but the last's, which are the query's outputs, shown after).
     */
    private static void appendOperators(StringBuilder b, List<BatchResult<?, ?, ?>> operators) {
        for (int i = 0; i < operators.size(); i++) {
            BatchResult<?, ?, ?> op = operators.get(i);
            boolean last = i == operators.size() - 1;
            b.append("\n    operator ").append(i).append(": ");
            if (i > 0) {
                b.append("received ").append(count(op.input().size(), "row")).append(", dropped late: ")
                        .append(op.droppedLate().isEmpty() ? "none" : op.droppedLate().size()).append(", ");
            }
            b.append("timers fired: ").append(op.firedTimers().isEmpty() ? "none" : op.firedTimers());
            if (!last) {
                b.append(", outputs: ").append(op.outputs().isEmpty() ? "none" : op.outputs().size());
            }
            rows(b, i > 0 ? op.droppedLate() : List.of(), "      late: ");
            rows(b, last ? List.of() : op.outputs(), "      ");
        }
    }

    private static void rows(StringBuilder b, List<?> rows, String indent) {
        rows.forEach(r -> b.append('\n').append(indent).append(r));
    }

    public static String firstLine(Throwable t) {
        String text = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl) + " ...";
    }

    public static String count(long n, String unit) {
        String plural = unit.endsWith("ch") ? unit + "es" : unit + "s";
        return n + " " + (n == 1 ? unit : plural);
    }
}
