package dev.twstester.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.TaskContext;

/**
 * Where the upstream processor of a live chain reports the rows it emits, per live run: they go to
 * the downstream operator's shuffle, not to the sink. Executors of a local master share this JVM; on
 * a remote cluster nothing arrives here.
 */
final class OutputRecorder {
    private record Emitted(long batchId, int partition, long sequence, Object row) {}

    private static final Map<String, List<Emitted>> RUNS = new ConcurrentHashMap<>();

    private OutputRecorder() {}

    static void open(String run) {
        RUNS.put(run, new ArrayList<>());
    }

    static void record(String run, long batchId, Object row) {
        List<Emitted> rows = RUNS.get(run);
        if (rows != null) {
            TaskContext task = TaskContext.get();
            synchronized (rows) {
                rows.add(new Emitted(batchId, task == null ? 0 : task.partitionId(), rows.size(), row));
            }
        }
    }

    /** The rows emitted in {@code batchId}, partition by partition, in emission order. */
    @SuppressWarnings("unchecked")
    static <T> List<T> emittedIn(String run, long batchId) {
        List<Emitted> rows = RUNS.getOrDefault(run, List.of());
        synchronized (rows) {
            return rows.stream().filter(e -> e.batchId() == batchId)
                    .sorted(Comparator.comparingInt(Emitted::partition).thenComparingLong(Emitted::sequence))
                    .map(e -> (T) e.row())
                    .toList();
        }
    }

    static void close(String run) {
        RUNS.remove(run);
    }
}
