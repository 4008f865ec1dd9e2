package dev.twstester;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one micro-batch did, in the same shape for the simulator and for a live Spark run.
 *
 * <pre>{@code
 * BatchResult<String, CartEvent, CartAlert> batch = simulator.runBatch(events).lastBatch();
 * assert batch.hadInput() && batch.droppedLate().isEmpty();
 * List<CartAlert> alerts = batch.outputs();
 * }</pre>
 *
 * @param batchId            Spark's micro-batch id: every batch counts, no-data batches too
 * @param hadInput           true for a data batch, false for a no-data batch (run for a watermark
 *                           advance or a processing-time tick)
 * @param input              the rows the batch received, late ones included, in arrival order
 *                           (like every list here, copied unless already unmodifiable)
 * @param droppedLate        the rows dropped by the late-event filter before any processor call
 * @param lateWatermark      the watermark input rows were compared with (the previous batch's)
 * @param evictionWatermark  the watermark of this batch: event-time timers fire up to it and
 *                           {@code TimerValues.getCurrentWatermarkInMs()} reports it
 * @param batchTimestamp     the batch's processing time ({@code getCurrentProcessingTimeInMs()})
 * @param outputs            the rows emitted, in Spark's order: input outputs key by key, then
 *                           timer outputs (one shuffle partition)
 * @param firedTimers        the timers that fired, in firing order
 * @param metrics            the operator's custom metrics for this batch under Spark's names
 *                           ({@code numRegisteredTimers}, {@code numUpdatedStateRows}, ...; see
 *                           {@link #METRIC_NAMES}), summed over partitions; empty when not measured
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public record BatchResult<K, I, O>(
        long batchId,
        boolean hadInput,
        List<I> input,
        List<I> droppedLate,
        Instant lateWatermark,
        Instant evictionWatermark,
        Instant batchTimestamp,
        List<O> outputs,
        List<FiredTimer<K>> firedTimers,
        Map<String, Long> metrics) {

    /**
     * The metrics both engines report, with the names of Spark's query progress: the
     * {@code transformWithState} operator's custom metrics, plus {@code numUpdatedStateRows}
     * ({@code numRowsUpdated}), {@code numRemovedStateRows} ({@code numRowsRemoved}) and
     * {@code numRowsDroppedByWatermark} of its state operator progress.
     */
    public static final List<String> METRIC_NAMES = List.of(
            "numRegisteredTimers", "numDeletedTimers", "numExpiredTimers",
            "numValueStateVars", "numListStateVars", "numMapStateVars",
            "numValueStateWithTTLVars", "numListStateWithTTLVars", "numMapStateWithTTLVars", "numDeletedStateVars",
            "numValuesRemovedDueToTTLExpiry", "numUpdatedStateRows", "numRemovedStateRows",
            "numRowsDroppedByWatermark");

    /** A batch without metrics. */
    public BatchResult(long batchId, boolean hadInput, List<I> input, List<I> droppedLate, Instant lateWatermark,
            Instant evictionWatermark, Instant batchTimestamp, List<O> outputs, List<FiredTimer<K>> firedTimers) {
        this(batchId, hadInput, input, droppedLate, lateWatermark, evictionWatermark, batchTimestamp, outputs,
                firedTimers, Map.of());
    }

    @SuppressWarnings("unchecked")
    public BatchResult {
        input = unmodifiable(input);
        droppedLate = List.copyOf(droppedLate);
        Objects.requireNonNull(lateWatermark, "lateWatermark must not be null");
        Objects.requireNonNull(evictionWatermark, "evictionWatermark must not be null");
        Objects.requireNonNull(batchTimestamp, "batchTimestamp must not be null");
        outputs = List.copyOf(outputs);
        firedTimers = List.copyOf(firedTimers);
        metrics = metrics.isEmpty() ? Map.of()
                : metrics.getClass() == UNMODIFIABLE_SORTED_MAP && ((java.util.SortedMap<String, Long>) metrics).comparator() == null
                ? metrics : Collections.unmodifiableSortedMap(new TreeMap<>(metrics));
    }

    private static final Class<?> UNMODIFIABLE_SORTED_MAP = Collections.unmodifiableSortedMap(new TreeMap<>()).getClass();
    private static final Class<?> UNMODIFIABLE_VIEW = Collections.unmodifiableList(new java.util.LinkedList<>()).getClass();
    private static final Class<?> UNMODIFIABLE_RANDOM_ACCESS_VIEW = Collections.unmodifiableList(List.of()).getClass();

    /** Read-only views are kept as they are (the simulator's FAST mode passes one); others are copied. */
    private static <T> List<T> unmodifiable(List<T> list) {
        Class<?> type = list.getClass();
        return type == UNMODIFIABLE_VIEW || type == UNMODIFIABLE_RANDOM_ACCESS_VIEW ? list : List.copyOf(list);
    }

    /** The metric {@code name} of this batch, or 0 when it was not reported. */
    public long metric(String name) {
        return metrics.getOrDefault(name, 0L);
    }

    /** A short one-line description: id, kind, counts and times. */
    public String summary() {
        return "batch " + batchId + (hadInput ? " (data)" : " (no data)")
                + ": rows in " + input.size() + ", dropped late " + droppedLate.size()
                + ", watermark late=" + lateWatermark + " eviction=" + evictionWatermark
                + ", processing time " + batchTimestamp
                + ", outputs " + outputs.size() + ", timers fired " + firedTimers.size();
    }
}
