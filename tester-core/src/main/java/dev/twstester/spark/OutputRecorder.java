package dev.twstester.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.TaskContext;

/**
 * Where wrapped processors report, per live run, how many output rows each partition's task
 * emitted in each batch, counted as Spark pulls them from the processor's iterators. Spark's
 * {@code MemorySink} concatenates a batch's rows by partition id ({@code MemoryStreamingWrite.commit}
 * flattens the commit messages, which the write job keeps by partition index), so these counts
 * cut the sink's rows into partitions. Executors of a local master share this JVM; on a remote
 * cluster nothing arrives here and runs report no output partitions.
 */
final class OutputRecorder {
    /** Per run: batch id, then partition, then the count of the latest task that ran it. */
    private static final Map<String, Map<Long, Map<Integer, AtomicInteger>>> RUNS = new ConcurrentHashMap<>();

    private OutputRecorder() {}

    static void open(String run) {
        RUNS.put(run, new ConcurrentHashMap<>());
    }

    /**
     * Called when a partition task starts ({@code init}): the counter its handlers add to, or null
     * outside a task (the driver's init/close pass) or for a run not open here. A later task of the
     * same batch and partition (the batch run again after a restart) replaces the earlier count.
     */
    static AtomicInteger startTask(String run, long batchId) {
        Map<Long, Map<Integer, AtomicInteger>> batches = RUNS.get(run);
        TaskContext task = TaskContext.get();
        if (batches == null || task == null) {
            return null;
        }
        AtomicInteger count = new AtomicInteger();
        batches.computeIfAbsent(batchId, b -> new ConcurrentHashMap<>()).put(task.partitionId(), count);
        return count;
    }

    /**
     * The number of rows each partition emitted in {@code batchId}, by partition id from 0 (a
     * partition whose task did not report counts 0), or empty when no task of the batch reported.
     */
    static List<Integer> countsIn(String run, long batchId) {
        Map<Integer, AtomicInteger> tasks = RUNS.getOrDefault(run, Map.of()).get(batchId);
        if (tasks == null || tasks.isEmpty()) {
            return List.of();
        }
        Map<Integer, AtomicInteger> sorted = new TreeMap<>(tasks);
        List<Integer> counts = new ArrayList<>();
        sorted.forEach((partition, count) -> {
            while (counts.size() < partition) {
                counts.add(0);
            }
            counts.add(count.get());
        });
        return counts;
    }

    static void close(String run) {
        RUNS.remove(run);
    }
}
