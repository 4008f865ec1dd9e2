package dev.twstester.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import org.apache.spark.TaskContext;

/**
 * Where the upstream processor of a live chain reports the rows it emits, per live run: they go to
 * the downstream operator's shuffle, not to the sink. Executors of a local master share this JVM; on
 * a remote cluster nothing arrives here.
 */
final class EmittedRows {
    private record Emitted(long batchId, int partition, long sequence, Object row) {}

    private record Run(List<Emitted> rows, UnaryOperator<Object> copy) {}

    private static final Map<String, Run> RUNS = new ConcurrentHashMap<>();

    private EmittedRows() {}

    /**
     * Starts recording for {@code run}; {@code copy} turns an emitted row into the row Spark reads
     * from it (through the output encoder, at the moment Spark takes it, so a processor that reuses
     * and mutates one instance is recorded as Spark serializes it).
     */
    static void open(String run, UnaryOperator<Object> copy) {
        RUNS.put(run, new Run(new ArrayList<>(), copy));
    }

    static void record(String run, long batchId, Object row) {
        Run r = RUNS.get(run);
        if (r != null) {
            TaskContext task = TaskContext.get();
            synchronized (r) {
                r.rows.add(new Emitted(batchId, task == null ? 0 : task.partitionId(), r.rows.size(), r.copy.apply(row)));
            }
        }
    }

    /** The rows emitted in {@code batchId}, partition by partition, in emission order. */
    @SuppressWarnings("unchecked")
    static <T> List<T> emittedIn(String run, long batchId) {
        Run r = RUNS.get(run);
        if (r == null) {
            return List.of();
        }
        synchronized (r) {
            return r.rows.stream().filter(e -> e.batchId() == batchId)
                    .sorted(Comparator.comparingInt(Emitted::partition).thenComparingLong(Emitted::sequence))
                    .map(e -> (T) e.row())
                    .toList();
        }
    }

    static void close(String run) {
        RUNS.remove(run);
    }
}
