package dev.twstester.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.internal.ContiguousPartitions;

/**
 * What one operator did in one run of a micro-batch, before the batch commits: its input after the
 * late-row filter, its outputs in Spark's collect order with each task's count, the timers that
 * fired, each task's metrics and (when asked for) each handler call with what it emitted.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
final class OperatorBatch<K, I, O> {
    final Checkpoint.PlannedBatch planned;
    /** The operator's late-event watermark in this batch (0 for one the query's watermark does not reach). */
    private final long lateWatermarkMs;
    final Timers timerValues;
    final BatchInput<K, I> input;
    final List<O> outputs = new ArrayList<>();
    /** The timers fired, in firing order (an empty list shared until the first one: {@link #fired}). */
    private List<FiredTimer<K>> fired = List.of();
    /** The number of rows each partition's task emitted, by partition: Spark's collect order cuts outputs so. */
    private final int[] outputsPerTask;
    /** Every handler call with what it emitted; null when nothing needs them. */
    final List<RetryCheck.Call> calls;
    /**
     * The operator's counters, reused batch after batch: this batch's tasks use the first
     * {@link #taskCount} ({@link #metricsOfTask}).
     */
    private final List<Metrics> taskMetrics;
    private int taskCount;

    /**
     * A batch of an operator with {@code partitions} shuffle partitions, whose tasks count into
     * {@code taskMetrics} (the operator's, reused) and whose {@code TimerValues} are {@code timerValues}.
     */
    OperatorBatch(Checkpoint.PlannedBatch planned, long lateWatermarkMs, Timers timerValues, BatchInput<K, I> input,
            boolean recordCalls, int partitions, List<Metrics> taskMetrics) {
        this.planned = planned;
        this.lateWatermarkMs = lateWatermarkMs;
        this.timerValues = timerValues;
        this.input = input;
        this.calls = recordCalls ? new ArrayList<>() : null;
        this.outputsPerTask = new int[partitions];
        this.taskMetrics = taskMetrics;
    }

    long id() {
        return planned.id();
    }

    long lateWatermarkMs() {
        return lateWatermarkMs;
    }

    /**
     * A new task's counters, summed into the batch's at the end: the operator's, set back to 0 (a
     * batch's figures are summed before its operator runs the next batch).
     */
    Metrics metricsOfTask() {
        if (taskMetrics.size() == taskCount) {
            taskMetrics.add(new Metrics());
        }
        Metrics task = taskMetrics.get(taskCount++);
        task.clear();
        return task;
    }

    /** Records that partition {@code partition}'s task emitted {@code rows} rows. */
    void taskEmitted(int partition, int rows) {
        outputsPerTask[partition] = rows;
    }

    /** Records a fired timer. */
    void fired(FiredTimer<K> timer) {
        if (fired.isEmpty()) {
            fired = new ArrayList<>();
        }
        fired.add(timer);
    }

    /**
     * This operator's view of the batch, {@code received} being the rows it was given (the
     * source's, or the previous operator's outputs).
     */
    BatchResult<K, I, O> result(List<I> received, Map<String, Long> metrics) {
        // the batch is done: its lists are handed over as read-only views, not copied
        return new BatchResult<>(planned.id(), planned.hadInput(), received, input.dropped,
                Instant.ofEpochMilli(lateWatermarkMs), Instant.ofEpochMilli(timerValues.watermarkMs()),
                Instant.ofEpochMilli(planned.timestampMs()), Collections.unmodifiableList(outputs), fired, metrics,
                ContiguousPartitions.ofCounts(outputsPerTask));
    }

    /** Every task's counters summed, with {@code last}'s map when the figures are the same. */
    Map<String, Long> summedMetrics(Metrics.Last last) {
        return Metrics.sum(taskMetrics.subList(0, taskCount), last);
    }

    /** Which shuffle partition each grouping key is in (computed once per key and batch). */
    static final class Partitions {
        /** One partition without keys, the most common split (initial state is rare). */
        private static final List<List<Bytes>> NO_KEYS_IN_ONE = List.of(List.of());
        final int count;
        private final KeyCodec<?> keyCodec;
        private final Map<Bytes, Integer> cache;

        Partitions(int count, KeyCodec<?> keyCodec) {
            this.count = count;
            this.keyCodec = keyCodec;
            this.cache = count == 1 ? null : new HashMap<>();
        }

        int of(Bytes key) {
            if (count == 1) {
                return 0;
            }
            Integer partition = cache.get(key);
            if (partition == null) {
                partition = keyCodec.partition(key.array(), count);
                cache.put(key, partition);
            }
            return partition;
        }

        /** {@code keys} split by partition, each partition's in the order given: one list per partition. */
        List<List<Bytes>> split(List<Bytes> keys) {
            if (count == 1) {
                return keys.isEmpty() ? NO_KEYS_IN_ONE : List.of(keys);
            }
            List<List<Bytes>> byPartition = new ArrayList<>(count);
            for (int p = 0; p < count; p++) {
                byPartition.add(keys.isEmpty() ? List.of() : new ArrayList<>());
            }
            for (Bytes key : keys) {
                byPartition.get(of(key)).add(key);
            }
            return byPartition;
        }
    }

    /** {@code TimerValues}: the batch timestamp and the eviction watermark, in every time mode. */
    record Timers(long processingTimeMs, long watermarkMs) implements TimerValues {
        @Override
        public long getCurrentProcessingTimeInMs() {
            return processingTimeMs;
        }

        @Override
        public long getCurrentWatermarkInMs() {
            return watermarkMs;
        }
    }
}
