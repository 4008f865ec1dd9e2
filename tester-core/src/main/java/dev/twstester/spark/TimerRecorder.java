package dev.twstester.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.TaskContext;

/**
 * Where wrapped processors report the timers Spark fires, per live run. Executors of a local
 * master share this JVM; on a remote cluster nothing arrives here and runs report no fired timers.
 */
final class TimerRecorder {
    record Fired(long batchId, int partition, long sequence, Object key, long expiryMs) {}

    private static final Map<String, List<Fired>> RUNS = new ConcurrentHashMap<>();

    private TimerRecorder() {}

    static void open(String run) {
        RUNS.put(run, new ArrayList<>());
    }

    static void record(String run, long batchId, Object key, long expiryMs) {
        List<Fired> fired = RUNS.get(run);
        if (fired != null) {
            TaskContext task = TaskContext.get();
            synchronized (fired) {
                fired.add(new Fired(batchId, task == null ? 0 : task.partitionId(), fired.size(), key, expiryMs));
            }
        }
    }

    /** The timers fired in {@code batchId}, partition by partition, in call order. */
    static List<Fired> firedIn(String run, long batchId) {
        List<Fired> fired = RUNS.getOrDefault(run, List.of());
        synchronized (fired) {
            return fired.stream().filter(f -> f.batchId() == batchId)
                    .sorted(Comparator.comparingInt(Fired::partition).thenComparingLong(Fired::sequence))
                    .toList();
        }
    }

    static void close(String run) {
        RUNS.remove(run);
    }
}
