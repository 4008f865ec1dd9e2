package dev.twstester;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The micro-batches one call (or a whole run) executed, in batch order.
 *
 * <pre>{@code
 * RunResult<String, CartEvent, CartAlert> run = simulator.runBatch(file3Events);
 * run.batches().size();   // 2: the data batch and the no-data batch after the watermark moved
 * run.outputs();          // every output row of both, in order
 * }</pre>
 *
 * <p>A batch that failed stopped the query; when a later start ran on (a {@link Scenario} with a
 * start after the failure), the failure is in {@link #failures()} and the batch, run again, among
 * the batches with the same id.
 *
 * @param batches  the batches that committed, oldest first
 * @param failures the batches that failed, oldest first (a batch that fails at every start is
 *                 there once per start)
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public record RunResult<K, I, O>(List<BatchResult<K, I, O>> batches, List<FailedBatch> failures) {
    public RunResult {
        batches = List.copyOf(batches);
        failures = List.copyOf(failures);
    }

    /** The committed {@code batches} of a run in which no batch failed. */
    public RunResult(List<BatchResult<K, I, O>> batches) {
        this(batches, List.of());
    }

    /** All output rows of all batches, in order. */
    public List<O> outputs() {
        List<O> all = new ArrayList<>();
        batches.forEach(b -> all.addAll(b.outputs()));
        return all;
    }

    /** All timers fired in all batches, in order. */
    public List<FiredTimer<K>> firedTimers() {
        List<FiredTimer<K>> all = new ArrayList<>();
        batches.forEach(b -> all.addAll(b.firedTimers()));
        return all;
    }

    /** All rows dropped as late, in order. */
    public List<I> droppedLate() {
        List<I> all = new ArrayList<>();
        batches.forEach(b -> all.addAll(b.droppedLate()));
        return all;
    }

    /** The last batch that ran. */
    public BatchResult<K, I, O> lastBatch() {
        if (batches.isEmpty()) {
            throw new NoSuchElementException("no micro-batch ran: Spark runs nothing before the first data batch"
                    + " (in ProcessingTime mode a clock tick runs a batch only after one has run)");
        }
        return batches.get(batches.size() - 1);
    }

    /**
     * The batches as operator {@code index} of the query saw them ({@link BatchResult#operators()}),
     * typed as the caller expects: for a query of several operators, e.g.
     * {@code RunResult<String, Session, PageAlert> alerts = run.operator(1);}. Operator 0 of a query
     * of one operator is this result.
     *
     * @throws IndexOutOfBoundsException when the query has no operator {@code index}
     */
    @SuppressWarnings("unchecked")
    public <K2, I2, O2> RunResult<K2, I2, O2> operator(int index) {
        List<BatchResult<K2, I2, O2>> views = new ArrayList<>(batches.size());
        for (BatchResult<K, I, O> b : batches) {
            List<BatchResult<?, ?, ?>> all = b.operators();
            if (index < 0 || index >= all.size()) {
                throw new IndexOutOfBoundsException("batch " + b.batchId() + " has " + all.size() + " operator(s), no "
                        + "operator " + index);
            }
            views.add((BatchResult<K2, I2, O2>) all.get(index));
        }
        return new RunResult<>(views, failures);
    }

    /** True when no batch ran. */
    public boolean isEmpty() {
        return batches.isEmpty();
    }
}
