package dev.twstester.junit.assertj;

import java.util.Arrays;
import java.util.List;

import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.ListAssert;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.junit.internal.Session;

/**
 * Assertions on the batches one simulator call (or a whole run) executed.
 *
 * <pre>{@code
 * RunResult<String, CartEvent, CartAlert> run = sim.runBatch(file3Events);
 * assertThat(run).hasBatchIds(4, 5);
 * assertThat(run).outputs().containsExactly(new CartAlert("ana", 2, at("10:05")));
 * assertThat(run).droppedLate().containsExactly(CartEvent.add("bo", "hat", at("10:09")));
 * assertThat(run).batch(5).isNoDataBatch().hasEvictionWatermark(at("10:40"));
 * }</pre>
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public class RunResultAssert<K, I, O> extends AbstractAssert<RunResultAssert<K, I, O>, RunResult<K, I, O>> {
    Navigation navigation = new Navigation(null);

    public RunResultAssert(RunResult<K, I, O> actual) {
        super(actual, RunResultAssert.class);
    }

    /**
     * Verifies the ids of the batches that ran, in order.
     * <pre>{@code
     * assertThat(sim.runBatch(events)).hasBatchIds(0, 1);   // a data batch and its no-data batch
     * }</pre>
     */
    public RunResultAssert<K, I, O> hasBatchIds(long... expected) {
        isNotNull();
        List<Long> ids = ids();
        List<Long> wanted = Arrays.stream(expected).boxed().toList();
        if (!ids.equals(wanted)) {
            throw failureWithActualExpected(ids, wanted, "%nExpecting the run to consist of batches:%n  %s%nbut it ran:%n  %s",
                    wanted, ids);
        }
        return myself;
    }

    /**
     * Verifies that no batch ran, e.g. a clock tick before the first batch.
     * <pre>{@code
     * assertThat(sim.advanceProcessingTime(Duration.ofMinutes(5))).isEmpty();
     * }</pre>
     */
    public RunResultAssert<K, I, O> isEmpty() {
        isNotNull();
        if (!actual.isEmpty()) {
            throw failureWithActualExpected(ids(), List.of(), "%nExpecting no batch to run, but %s ran",
                    Navigation.batches(actual.batches()));
        }
        return myself;
    }

    /**
     * The output rows of every batch of the run, in order; in strict mode they count as read.
     * <pre>{@code
     * assertThat(run).outputs().containsExactly(new Tuple2<>("a", 1L), new Tuple2<>("b", 2L));
     * }</pre>
     */
    public ListAssert<O> outputs() {
        isNotNull();
        Session.markRead(actual.batches());
        return RowsByValue.compare(navigation.list(actual.outputs(), "outputs of " + Navigation.batches(actual.batches())),
                actual.outputs(), null);
    }

    /**
     * The timers fired in the run, in order.
     * <pre>{@code
     * assertThat(run).firedTimers().containsExactly(new FiredTimer<>("c1", minute(10)));
     * }</pre>
     */
    public ListAssert<FiredTimer<K>> firedTimers() {
        isNotNull();
        return navigation.list(actual.firedTimers(), "timers fired in " + Navigation.batches(actual.batches()));
    }

    /**
     * The rows dropped as late in the run, in order.
     * <pre>{@code
     * assertThat(run).droppedLate().isEmpty();
     * }</pre>
     */
    public ListAssert<I> droppedLate() {
        isNotNull();
        return RowsByValue.compare(navigation.list(actual.droppedLate(), "rows dropped as late in "
                + Navigation.batches(actual.batches())), actual.droppedLate(), null);
    }

    /**
     * The last batch of the run.
     * <pre>{@code
     * assertThat(run).lastBatch().isNoDataBatch();
     * }</pre>
     */
    public BatchResultAssert<K, I, O> lastBatch() {
        isNotNull();
        if (actual.isEmpty()) {
            throw failure("%nExpecting the run to have a last batch, but no batch ran");
        }
        return navigation.batch(actual.lastBatch());
    }

    /**
     * The batch with id {@code batchId}.
     * <pre>{@code
     * assertThat(run).batch(4).isDataBatch().droppedLate().hasSize(1);
     * }</pre>
     */
    public BatchResultAssert<K, I, O> batch(long batchId) {
        isNotNull();
        for (BatchResult<K, I, O> b : actual.batches()) {
            if (b.batchId() == batchId) {
                return navigation.batch(b);
            }
        }
        throw failure("%nExpecting the run to have batch %s, but it ran %s", batchId,
                actual.isEmpty() ? "none" : ids());
    }

    private List<Long> ids() {
        return actual.batches().stream().map(BatchResult::batchId).toList();
    }
}
