package dev.twstester.junit.assertj;

import java.time.Instant;
import java.util.List;

import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.ListAssert;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.junit.internal.Session;

/**
 * Assertions on one micro-batch: its id and kind, watermarks, timestamp and input count, and
 * navigation to its outputs, fired timers, late rows and input.
 *
 * <pre>{@code
 * assertThat(run.lastBatch())
 *         .hasBatchId(5).isNoDataBatch()
 *         .hasLateWatermark(at("10:10")).hasEvictionWatermark(at("10:40"))
 *         .hasBatchTimestamp(Instant.EPOCH);
 * assertThat(run.lastBatch()).outputs().containsExactly(new CartAlert("ana", 2, at("10:05")));
 * assertThat(run.lastBatch()).firedTimers().containsExactly(new FiredTimer<>("ana", at("10:35")));
 * }</pre>
 *
 * A failure names the batch and shows both values:
 * <pre>
 * Expecting eviction watermark of batch 5:
 *   2024-05-01T10:40:00Z
 * to be:
 *   2024-05-01T10:36:00Z
 * </pre>
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public class BatchResultAssert<K, I, O> extends AbstractAssert<BatchResultAssert<K, I, O>, BatchResult<K, I, O>> {
    Navigation navigation = new Navigation(null);

    public BatchResultAssert(BatchResult<K, I, O> actual) {
        super(actual, BatchResultAssert.class);
    }

    /**
     * Verifies the batch id.
     * <pre>{@code
     * assertThat(batch).hasBatchId(4);   // fails for batch 5: "Expecting batch 5 to have id 4"
     * }</pre>
     */
    public BatchResultAssert<K, I, O> hasBatchId(long expected) {
        isNotNull();
        if (actual.batchId() != expected) {
            throw failureWithActualExpected(actual.batchId(), expected, "%nExpecting batch %s to have id %s", actual.batchId(),
                    expected);
        }
        return myself;
    }

    /**
     * Verifies that the batch had input (possibly all dropped as late, or none at all for an empty runBatch()).
     * <pre>{@code
     * assertThat(run.batches().get(0)).isDataBatch();
     * }</pre>
     */
    public BatchResultAssert<K, I, O> isDataBatch() {
        isNotNull();
        if (!actual.hadInput()) {
            throw failureWithActualExpected("no-data batch", "data batch",
                    "%nExpecting batch %s to be a data batch, but it is a no-data batch (run after the watermark moved "
                            + "or on a clock tick)", actual.batchId());
        }
        return myself;
    }

    /**
     * Verifies that the batch was a no-data batch: run after the watermark moved or on a clock tick.
     * <pre>{@code
     * assertThat(run.lastBatch()).isNoDataBatch();
     * }</pre>
     */
    public BatchResultAssert<K, I, O> isNoDataBatch() {
        isNotNull();
        if (actual.hadInput()) {
            throw failureWithActualExpected("data batch", "no-data batch",
                    "%nExpecting batch %s to be a no-data batch, but it is a data batch with %s", actual.batchId(),
                    rows(actual.input().size()));
        }
        return myself;
    }

    /**
     * Verifies the watermark input rows were compared with (the previous batch's).
     * <pre>{@code
     * assertThat(batch).hasLateWatermark(Instant.parse("2024-05-01T10:10:00Z"));
     * }</pre>
     */
    public BatchResultAssert<K, I, O> hasLateWatermark(Instant expected) {
        return hasTime("late watermark", actual == null ? null : actual.lateWatermark(), expected);
    }

    /**
     * Verifies the batch's own watermark: event-time timers fired up to it.
     * <pre>{@code
     * assertThat(batch).hasEvictionWatermark(Instant.parse("2024-05-01T10:40:00Z"));
     * }</pre>
     */
    public BatchResultAssert<K, I, O> hasEvictionWatermark(Instant expected) {
        return hasTime("eviction watermark", actual == null ? null : actual.evictionWatermark(), expected);
    }

    /**
     * Verifies the batch's processing time.
     * <pre>{@code
     * assertThat(batch).hasBatchTimestamp(Instant.EPOCH.plus(Duration.ofMinutes(45)));
     * }</pre>
     */
    public BatchResultAssert<K, I, O> hasBatchTimestamp(Instant expected) {
        return hasTime("batch timestamp", actual == null ? null : actual.batchTimestamp(), expected);
    }

    private BatchResultAssert<K, I, O> hasTime(String what, Instant time, Instant expected) {
        isNotNull();
        if (!time.equals(expected)) {
            throw failureWithActualExpected(time, expected, "%nExpecting %s of batch %s:%n  %s%nto be:%n  %s", what,
                    actual.batchId(), time, expected);
        }
        return myself;
    }

    /**
     * Verifies how many rows the batch received, late ones included.
     * <pre>{@code
     * assertThat(batch).hasInputCount(2);
     * }</pre>
     */
    public BatchResultAssert<K, I, O> hasInputCount(int expected) {
        isNotNull();
        if (actual.input().size() != expected) {
            throw failureWithActualExpected(actual.input().size(), expected,
                    "%nExpecting batch %s to have received %s, but it received %s: %s", actual.batchId(),
                    rows(expected), rows(actual.input().size()), Navigation.show(actual.input()));
        }
        return myself;
    }

    /**
     * The rows the batch emitted, in Spark's order; in strict mode they count as read.
     * <pre>{@code
     * assertThat(batch).outputs().containsExactly(new CartAlert("ana", 2, at("10:05")));
     * }</pre>
     */
    public ListAssert<O> outputs() {
        isNotNull();
        Session.markRead(List.of(actual));
        return RowsByValue.compare(navigation.list(actual.outputs(), "outputs of batch " + actual.batchId()),
                actual.outputs(), null);
    }

    /**
     * The timers that fired in the batch, in firing order.
     * <pre>{@code
     * assertThat(batch).firedTimers().containsExactly(new FiredTimer<>("ana", at("10:35")));
     * }</pre>
     */
    public ListAssert<FiredTimer<K>> firedTimers() {
        isNotNull();
        return navigation.list(actual.firedTimers(), "timers fired in batch " + actual.batchId());
    }

    /**
     * The rows dropped as late (at or before the late watermark).
     * <pre>{@code
     * assertThat(batch).droppedLate().containsExactly(CartEvent.add("bo", "hat", at("10:09")));
     * }</pre>
     */
    public ListAssert<I> droppedLate() {
        isNotNull();
        return RowsByValue.compare(navigation.list(actual.droppedLate(), "rows dropped as late in batch "
                + actual.batchId()), actual.droppedLate(), null);
    }

    /**
     * The rows the batch received, late ones included, in arrival order.
     * <pre>{@code
     * assertThat(batch).input().hasSize(3);
     * }</pre>
     */
    public ListAssert<I> input() {
        isNotNull();
        return RowsByValue.compare(navigation.list(actual.input(), "input of batch " + actual.batchId()),
                actual.input(), null);
    }

    private static String rows(int n) {
        return n + (n == 1 ? " input row" : " input rows");
    }
}
