package dev.twstester.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.CollectionAccumulator;

/**
 * What the tasks of one wrapped processor ({@link RecordingProcessor}) report to the driver during
 * a live run: each task's end with the number of rows it emitted, each timer Spark fired, and (for
 * every operator but the query's last) each row it emitted. The reports travel through a Spark
 * accumulator registered in the driver and captured by the serialized processor, so they arrive
 * from executors in other JVMs (a {@code local-cluster} or standalone master) exactly as from a
 * local master's: Spark merges a task's updates into the driver's accumulator when the task
 * succeeds, before the batch's job ends. A failed task reports nothing.
 *
 * <p>Keys and rows travel as their encoded bytes (the run's encoders), so they need not be
 * {@code Serializable}, and a row is encoded when Spark takes it from the processor.
 */
final class TaskReports implements Serializable {
    private static final long serialVersionUID = 1L;

    enum Kind { TASK, TIMER, ROW, TIMEOUT }

    /**
     * One report: {@code count} is a TASK's emitted rows, {@code expiryMs} a TIMER's expiry or the
     * timeout a legacy function's call left (TIMEOUT, -1 for none), {@code bytes} a TIMER's or
     * TIMEOUT's encoded key or a ROW's encoded row.
     */
    record Report(Kind kind, long batchId, int partition, long taskAttempt, long sequence, byte[] bytes, long expiryMs,
            int count) implements Serializable {}

    /** A fired timer, its key still encoded. */
    record Fired(byte[] key, long expiryMs) {}

    private final CollectionAccumulator<Report> reports;
    /** This task's report sequence (a processor and its reports are deserialized per task). */
    private transient long sequence;

    private TaskReports(CollectionAccumulator<Report> reports) {
        this.reports = reports;
    }

    /** A new, empty set of reports, its accumulator registered with {@code spark}'s context. */
    static TaskReports register(SparkSession spark) {
        SparkContext context = spark.sparkContext();
        CollectionAccumulator<Report> acc = new CollectionAccumulator<>();
        context.register(acc, "twstester live run reports");
        return new TaskReports(acc);
    }

    // ---- in a task (executor side) ----

    /**
     * Called when a partition task starts ({@code init}): returns its emitted-row counter, reported
     * when the task completes; null outside a task (the driver's init/close pass).
     */
    java.util.concurrent.atomic.AtomicInteger startTask(long batchId) {
        TaskContext task = TaskContext.get();
        if (task == null) {
            return null;
        }
        java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        int partition = task.partitionId();
        long attempt = task.taskAttemptId();
        // listeners run inside the task, before Spark collects its accumulator updates
        task.addTaskCompletionListener(ctx -> {
            if (!ctx.isFailed() && !ctx.isInterrupted()) {
                reports.add(new Report(Kind.TASK, batchId, partition, attempt, next(), null, 0L, count.get()));
            }
        });
        return count;
    }

    void timerFired(long batchId, byte[] key, long expiryMs) {
        add(Kind.TIMER, batchId, key, expiryMs);
    }

    /** A legacy function's call for {@code key} completed, leaving timeout {@code timeoutMs} (-1: none). */
    void timeoutSet(long batchId, byte[] key, long timeoutMs) {
        add(Kind.TIMEOUT, batchId, key, timeoutMs);
    }

    void rowEmitted(long batchId, byte[] row) {
        add(Kind.ROW, batchId, row, 0L);
    }

    private void add(Kind kind, long batchId, byte[] bytes, long expiryMs) {
        TaskContext task = TaskContext.get();
        if (task == null) {
            return;
        }
        reports.add(new Report(kind, batchId, task.partitionId(), task.taskAttemptId(), next(), bytes, expiryMs, 0));
    }

    private synchronized long next() {
        return sequence++;
    }

    // ---- in the driver ----

    private List<Report> of(Kind kind, long batchId) {
        List<Report> out = new ArrayList<>();
        for (Report r : reports.value()) {
            if (r.kind() == kind && r.batchId() == batchId) {
                out.add(r);
            }
        }
        out.sort(Comparator.comparingInt(Report::partition).thenComparingLong(Report::taskAttempt)
                .thenComparingLong(Report::sequence));
        return out;
    }

    /** The timers fired in {@code batchId}, partition by partition, in call order. */
    List<Fired> firedIn(long batchId) {
        return of(Kind.TIMER, batchId).stream().map(r -> new Fired(r.bytes(), r.expiryMs())).toList();
    }

    /** The timeouts legacy function calls left in {@code batchId} (expiry -1: none), partition by partition, in call order. */
    List<Fired> timeoutsSetIn(long batchId) {
        return of(Kind.TIMEOUT, batchId).stream().map(r -> new Fired(r.bytes(), r.expiryMs())).toList();
    }

    /**
     * The rows emitted in {@code batchId}, partition by partition, in emission order (of several
     * task attempts of one partition, the latest's), each report's {@code bytes} the encoded row.
     */
    List<Report> emittedIn(long batchId) {
        List<Report> rows = of(Kind.ROW, batchId);
        Map<Integer, Long> latest = new HashMap<>();
        for (Report r : rows) {
            latest.merge(r.partition(), r.taskAttempt(), Math::max);
        }
        return rows.stream().filter(r -> r.taskAttempt() == latest.get(r.partition())).toList();
    }

    /**
     * The number of rows each partition emitted in {@code batchId}, by partition id from 0 (a
     * partition whose task did not report counts 0; of several tasks of one partition, as when a
     * batch runs again after a restart, the latest counts), or empty when no task of the batch reported.
     */
    List<Integer> countsIn(long batchId) {
        Map<Integer, Report> latest = new HashMap<>();
        for (Report r : of(Kind.TASK, batchId)) {
            latest.merge(r.partition(), r, (a, b) -> a.taskAttempt() >= b.taskAttempt() ? a : b);
        }
        if (latest.isEmpty()) {
            return List.of();
        }
        List<Integer> counts = new ArrayList<>();
        new TreeMap<>(latest).forEach((partition, report) -> {
            while (counts.size() < partition) {
                counts.add(0);
            }
            counts.add(report.count());
        });
        return counts;
    }
}
