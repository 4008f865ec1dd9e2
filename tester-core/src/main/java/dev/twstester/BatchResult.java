package dev.twstester;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

import dev.twstester.internal.ContiguousPartitions;
import dev.twstester.internal.NamedCounts;

/**
 * What one micro-batch did, in the same shape for the simulator and for a live Spark run.
 *
 * <pre>{@code
 * BatchResult<String, CartEvent, CartAlert> batch = simulator.runBatch(events).lastBatch();
 * assert batch.hadInput() && batch.droppedLate().isEmpty();
 * List<CartAlert> alerts = batch.outputs();
 * }</pre>
 *
 * <p>With several shuffle partitions, {@link #outputPartitions()} says which partition's task
 * emitted each output row, and {@link #outputsOfPartition(int)} / {@link #outputsByPartition()}
 * give one partition's rows in the order that task emitted them:
 * <pre>{@code
 * // RunningCount (in the samples) emits (word, count); ana and dee hash to partition 0 of 2, bo to 1
 * BatchResult<String, String, Tuple2<String, Long>> b = new TwsSimulator<>(
 *         RunningCount.query().withShufflePartitions(2)).runBatch("bo", "dee", "ana").lastBatch();
 * b.outputs();               // [(ana,1), (dee,1), (bo,1)]: partition 0's rows, then partition 1's
 * b.outputPartitions();      // [0, 0, 1]
 * b.outputsOfPartition(1);   // [(bo,1)]
 * b.outputsByPartition();    // {0=[(ana,1), (dee,1)], 1=[(bo,1)]}
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
 * @param outputs            the rows emitted, in Spark's collect order: partition by partition in
 *                           ascending partition id (Spark's {@code MemorySink} and
 *                           {@code Dataset.collect()} concatenate the partitions' rows so), and in
 *                           each partition the input outputs key by key (keys ascending), then the
 *                           timer outputs in firing order
 * @param firedTimers        the timers that fired, in firing order
 * @param metrics            the operator's custom metrics for this batch under Spark's names
 *                           ({@code numRegisteredTimers}, {@code numUpdatedStateRows}, ...; see
 *                           {@link #METRIC_NAMES}), summed over partitions; empty when not measured
 * @param outputPartitions   the shuffle partition (0 to {@code spark.sql.shuffle.partitions - 1})
 *                           whose task emitted each row of {@code outputs}: the same length and
 *                           order as {@code outputs}, or empty when not known (a result built
 *                           without it, or read from a file written without it). The simulator
 *                           and the live runner always give it, in collect order, so the list is
 *                           ascending
 * @param operators          for a query of several stateful operators, each operator's own view of
 *                           the batch, in plan order (see {@link #operators()}); empty for one
 *                           operator
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
        Map<String, Long> metrics,
        List<Integer> outputPartitions,
        List<BatchResult<?, ?, ?>> operators) {

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

    /** The batch of a query of one stateful operator. */
    public BatchResult(long batchId, boolean hadInput, List<I> input, List<I> droppedLate, Instant lateWatermark,
            Instant evictionWatermark, Instant batchTimestamp, List<O> outputs, List<FiredTimer<K>> firedTimers,
            Map<String, Long> metrics, List<Integer> outputPartitions) {
        this(batchId, hadInput, input, droppedLate, lateWatermark, evictionWatermark, batchTimestamp, outputs,
                firedTimers, metrics, outputPartitions, List.of());
    }

    /** A batch without metrics and without the outputs' partitions. */
    public BatchResult(long batchId, boolean hadInput, List<I> input, List<I> droppedLate, Instant lateWatermark,
            Instant evictionWatermark, Instant batchTimestamp, List<O> outputs, List<FiredTimer<K>> firedTimers) {
        this(batchId, hadInput, input, droppedLate, lateWatermark, evictionWatermark, batchTimestamp, outputs,
                firedTimers, Map.of(), List.of());
    }

    /** A batch without the outputs' partitions ({@link #outputPartitions()} is empty: not known). */
    public BatchResult(long batchId, boolean hadInput, List<I> input, List<I> droppedLate, Instant lateWatermark,
            Instant evictionWatermark, Instant batchTimestamp, List<O> outputs, List<FiredTimer<K>> firedTimers,
            Map<String, Long> metrics) {
        this(batchId, hadInput, input, droppedLate, lateWatermark, evictionWatermark, batchTimestamp, outputs,
                firedTimers, metrics, List.of());
    }

    @SuppressWarnings("unchecked")
    public BatchResult {
        input = unmodifiable(input);
        droppedLate = unmodifiable(droppedLate);
        Objects.requireNonNull(lateWatermark, "lateWatermark must not be null");
        Objects.requireNonNull(evictionWatermark, "evictionWatermark must not be null");
        Objects.requireNonNull(batchTimestamp, "batchTimestamp must not be null");
        outputs = isView(outputs) ? outputs
                : hasNull(outputs) ? Collections.unmodifiableList(new java.util.ArrayList<>(outputs)) : unmodifiable(outputs);
        firedTimers = unmodifiable(firedTimers);
        metrics = metrics.isEmpty() ? Map.of()
                : metrics instanceof NamedCounts || metrics.getClass() == UNMODIFIABLE_SORTED_MAP
                        && ((java.util.SortedMap<String, Long>) metrics).comparator() == null
                ? metrics : Collections.unmodifiableSortedMap(new TreeMap<>(metrics));
        outputPartitions = outputPartitions instanceof ContiguousPartitions ? outputPartitions
                : List.copyOf(outputPartitions);
        if (!outputPartitions.isEmpty() && outputPartitions.size() != outputs.size()) {
            throw new IllegalArgumentException("batch " + batchId + " has " + outputs.size() + " outputs but "
                    + outputPartitions.size() + " output partitions; give one partition per output row, or none"
                    + " when they are not known");
        }
        operators = List.copyOf(operators);
        if (operators.size() == 1) {
            throw new IllegalArgumentException("batch " + batchId + ": give each operator's view for a query of several "
                    + "operators, and none for one operator");
        }
        for (int i = 0; i < outputPartitions.size() && !(outputPartitions instanceof ContiguousPartitions); i++) {
            if (outputPartitions.get(i) < 0) {
                throw new IllegalArgumentException("batch " + batchId + ": output row " + i + " has the negative "
                        + "partition " + outputPartitions.get(i) + "; shuffle partitions count from 0");
            }
        }
    }

    private static final Class<?> UNMODIFIABLE_SORTED_MAP = Collections.unmodifiableSortedMap(new TreeMap<>()).getClass();
    private static final Class<?> UNMODIFIABLE_VIEW = Collections.unmodifiableList(new java.util.LinkedList<>()).getClass();
    private static final Class<?> UNMODIFIABLE_RANDOM_ACCESS_VIEW = Collections.unmodifiableList(List.of()).getClass();

    /** A null output row: a mapGroupsWithState function's null result with a flat output encoder (STRING, LONG). */
    private static boolean hasNull(List<?> list) {
        for (Object o : list) {
            if (o == null) {
                return true;
            }
        }
        return false;
    }

    /** Read-only views are kept as they are (the simulator's FAST mode passes one); others are copied. */
    private static <T> List<T> unmodifiable(List<T> list) {
        return list.isEmpty() ? List.of() : isView(list) ? list : List.copyOf(list);
    }

    private static boolean isView(List<?> list) {
        Class<?> type = list.getClass();
        return type == UNMODIFIABLE_VIEW || type == UNMODIFIABLE_RANDOM_ACCESS_VIEW;
    }

    /**
     * Each stateful operator's view of this batch, in plan order: the rows it received (the source's
     * for the first, the previous operator's outputs for the others), the rows it dropped as late, its
     * outputs with their partitions, its fired timers (with its keys) and its metrics, and the
     * batch's id, watermarks and time, which all operators share. A query of one operator has one
     * view: this batch.
     *
     * <p>For a query of several operators, this batch itself reports the query: the source's rows
     * and the first operator's late rows, fired timers and metrics ({@code K} is its key), and the
     * query's output, the last operator's, with its partitions.
     * <pre>{@code
     * BatchResult<String, Click, PageAlert> batch = sim.runBatch(clicks).lastBatch();
     * batch.outputs();                          // the page alerts: what the query writes
     * batch.operators().get(0).outputs();       // the sessions the second operator received
     * batch.operators().get(1).firedTimers();   // the second operator's timers, with its keys
     * }</pre>
     */
    @Override
    public List<BatchResult<?, ?, ?>> operators() {
        return operators.isEmpty() ? List.of(this) : operators;
    }

    /**
     * True when {@link #outputPartitions()} says which partition emitted each output row (always for
     * the simulator and the live runner; a batch without outputs knows them trivially).
     */
    public boolean knowsOutputPartitions() {
        return outputPartitions.size() == outputs.size();
    }

    /**
     * The rows partition {@code partition}'s task emitted, in the order it emitted them (an empty
     * list when it emitted none, or when the batch ran fewer partitions).
     *
     * @throws IllegalStateException when the batch does not know its outputs' partitions
     */
    public List<O> outputsOfPartition(int partition) {
        requirePartitions();
        List<O> rows = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            if (outputPartitions.get(i) == partition) {
                rows.add(outputs.get(i));
            }
        }
        return Collections.unmodifiableList(rows);
    }

    /**
     * The output rows of each partition that emitted any, by ascending partition id, each
     * partition's in the order its task emitted them.
     *
     * @throws IllegalStateException when the batch does not know its outputs' partitions
     */
    public SortedMap<Integer, List<O>> outputsByPartition() {
        requirePartitions();
        SortedMap<Integer, List<O>> byPartition = new TreeMap<>();
        for (int i = 0; i < outputs.size(); i++) {
            byPartition.computeIfAbsent(outputPartitions.get(i), p -> new ArrayList<>()).add(outputs.get(i));
        }
        byPartition.replaceAll((p, rows) -> Collections.unmodifiableList(rows));
        return Collections.unmodifiableSortedMap(byPartition);
    }

    private void requirePartitions() {
        if (!knowsOutputPartitions()) {
            throw new IllegalStateException("batch " + batchId + " does not know which shuffle partition emitted its "
                    + outputs.size() + " outputs: it was built without outputPartitions (or read from JSON without "
                    + "\"outputPartitions\"); the simulator and the live runner record them");
        }
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
