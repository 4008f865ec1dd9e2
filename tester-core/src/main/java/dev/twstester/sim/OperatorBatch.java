package dev.twstester.sim;

import java.time.Instant;
import java.util.ArrayList;
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
    final List<FiredTimer<K>> fired = new ArrayList<>();
    /** The number of rows each partition's task emitted, by partition: Spark's collect order cuts outputs so. */
    final List<Integer> outputsPerTask = new ArrayList<>(1);
    /** Every handler call with what it emitted; null when nothing needs them. */
    final List<RetryCheck.Call> calls;
    private final List<Metrics> tasks = new ArrayList<>(2);

    OperatorBatch(Checkpoint.PlannedBatch planned, long lateWatermarkMs, long evictionWatermarkMs, BatchInput<K, I> input,
            boolean recordCalls) {
        this.planned = planned;
        this.lateWatermarkMs = lateWatermarkMs;
        this.timerValues = new Timers(planned.timestampMs(), evictionWatermarkMs);
        this.input = input;
        this.calls = recordCalls ? new ArrayList<>() : null;
    }

    long id() {
        return planned.id();
    }

    long lateWatermarkMs() {
        return lateWatermarkMs;
    }

    /** A new task's counters, summed into the batch's at the end. */
    Metrics metricsOfTask() {
        Metrics task = new Metrics();
        tasks.add(task);
        return task;
    }

    /**
     * This operator's view of the batch, {@code received} being the rows it was given (the
     * source's, or the previous operator's outputs).
     */
    BatchResult<K, I, O> result(List<I> received, Map<String, Long> metrics) {
        return new BatchResult<>(planned.id(), planned.hadInput(), received, input.dropped,
                Instant.ofEpochMilli(lateWatermarkMs), Instant.ofEpochMilli(timerValues.watermarkMs()),
                Instant.ofEpochMilli(planned.timestampMs()), outputs, fired, metrics,
                ContiguousPartitions.ofCounts(outputsPerTask));
    }

    /** Every task's counters summed, with {@code last}'s map when the figures are the same. */
    Map<String, Long> summedMetrics(Metrics.Last last) {
        return Metrics.sum(tasks, last);
    }

    /** Which shuffle partition each grouping key is in (computed once per key and batch). */
    static final class Partitions {
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
                return List.of(keys);
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
