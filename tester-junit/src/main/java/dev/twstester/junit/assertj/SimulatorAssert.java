package dev.twstester.junit.assertj;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.ListAssert;
import org.assertj.core.api.MapAssert;
import org.assertj.core.api.OptionalAssert;

import dev.twstester.BatchResult;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.internal.Session;
import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * Assertions on a simulator between batches: its state per key, its timers, its clocks, and the
 * outputs and batches it ran. Navigation methods switch to AssertJ's list, map and optional
 * asserts, described with the state variable, the key and the batch.
 *
 * <pre>{@code
 * assertThat(sim).valueState("count", "a").contains(3L);
 * assertThat(sim).listState("items", "ana").containsExactly("boots", "socks");
 * assertThat(sim).mapState("spendByMerchant", "c1").containsExactly(entry("shop", 560_00L));
 * assertThat(sim).timers("ana").containsExactly(at("10:35"));
 * assertThat(sim).hasNoStateFor("bo").hasWatermark(at("10:10"));
 * assertThat(sim).outputs().containsExactly(new CartAlert("ana", 2, at("10:05")));   // every batch's
 * assertThat(sim).lastBatch().isNoDataBatch().outputs().isEmpty();
 * }</pre>
 *
 * A failing navigation names what it looked at:
 * <pre>
 * [list state 'items' of key "ana" after batch 3]
 * Expecting actual:
 *   ["boots", "socks"]
 * to contain exactly (and in same order):
 *   ["boots"]
 * ...
 * </pre>
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public class SimulatorAssert<K, I, O> extends AbstractAssert<SimulatorAssert<K, I, O>, TwsSimulator<K, I, O>> {
    Navigation navigation = new Navigation(null);

    public SimulatorAssert(TwsSimulator<K, I, O> actual) {
        super(actual, SimulatorAssert.class);
    }

    /**
     * The value of ValueState {@code name} for {@code key}, empty when it has none.
     * <pre>{@code
     * assertThat(sim).valueState("count", "a").contains(3L);   // passes when count of a is 3
     * assertThat(sim).valueState("count", "a").isEmpty();      // fails: "Expecting an empty Optional but was containing value: 3L"
     * }</pre>
     */
    public <T> OptionalAssert<T> valueState(String name, K key) {
        isNotNull();
        Optional<T> value = actual.state().value(name, key);
        return RowsByValue.compare(navigation.optional(value, "value state '" + name + "' of key "
                + Navigation.show(key) + " " + when()), value.orElse(null));
    }

    /**
     * The elements of ListState {@code name} for {@code key}, in append order.
     * <pre>{@code
     * assertThat(sim).listState("items", "ana").containsExactly("boots", "socks");
     * }</pre>
     */
    public <T> ListAssert<T> listState(String name, K key) {
        isNotNull();
        List<T> list = actual.state().list(name, key);
        return RowsByValue.compare(navigation.list(list, "list state '" + name + "' of key " + Navigation.show(key)
                + " " + when()), list, null);
    }

    /**
     * The entries of MapState {@code name} for {@code key}, in Spark's iteration order.
     * <pre>{@code
     * assertThat(sim).mapState("spendByMerchant", "c1").containsExactly(entry("shop", 560_00L));
     * }</pre>
     */
    public <MK, MV> MapAssert<MK, MV> mapState(String name, K key) {
        isNotNull();
        Map<MK, MV> map = actual.state().map(name, key);
        return navigation.map(map, "map state '" + name + "' of key " + Navigation.show(key) + " " + when());
    }

    /**
     * The timers of {@code key}, ascending.
     * <pre>{@code
     * assertThat(sim).timers("ana").containsExactly(Instant.parse("2024-05-01T10:35:00Z"));
     * }</pre>
     */
    public ListAssert<Instant> timers(K key) {
        isNotNull();
        return navigation.list(actual.state().timers(key), "timers of key " + Navigation.show(key) + " " + when());
    }

    /**
     * The keys with any state or timer, in Spark's key order.
     * <pre>{@code
     * assertThat(sim).keysWithState().containsExactly("cy");
     * }</pre>
     */
    public ListAssert<K> keysWithState() {
        isNotNull();
        return navigation.list(actual.state().keys(), "keys with state " + when());
    }

    /**
     * Verifies that {@code key} has no visible state value and no timer: its state is gone.
     * <pre>{@code
     * assertThat(sim).hasNoStateFor("bo");   // fails listing what bo still has
     * }</pre>
     */
    public SimulatorAssert<K, I, O> hasNoStateFor(K key) {
        isNotNull();
        Map<String, Object> left = stateOf(key);
        if (!left.isEmpty()) {
            StringBuilder lines = new StringBuilder();
            left.forEach((what, value) -> lines.append("\n  ").append(what).append(": ").append(Navigation.show(value)));
            throw failureWithActualExpected(left, Map.of(), "%nExpecting key %s of %s to have no state %s, but it has:%s",
                    Navigation.show(key), name(), when(), lines);
        }
        return myself;
    }

    /**
     * Verifies that {@code key} has some state value or a timer.
     * <pre>{@code
     * assertThat(sim).hasStateFor("ana");
     * }</pre>
     */
    public SimulatorAssert<K, I, O> hasStateFor(K key) {
        isNotNull();
        if (stateOf(key).isEmpty()) {
            throw failure("%nExpecting key %s of %s to have state %s, but it has none", Navigation.show(key), name(),
                    when());
        }
        return myself;
    }

    /**
     * Verifies the current watermark (the next batch's eviction watermark).
     * <pre>{@code
     * assertThat(sim).hasWatermark(Instant.parse("2024-05-01T10:10:00Z"));
     * }</pre>
     */
    public SimulatorAssert<K, I, O> hasWatermark(Instant expected) {
        isNotNull();
        return hasTime("watermark", actual.watermark(), expected);
    }

    /**
     * Verifies the current processing time (the next batch's timestamp).
     * <pre>{@code
     * assertThat(sim).hasProcessingTime(Instant.EPOCH.plus(Duration.ofMinutes(10)));
     * }</pre>
     */
    public SimulatorAssert<K, I, O> hasProcessingTime(Instant expected) {
        isNotNull();
        return hasTime("processing time", actual.processingTime(), expected);
    }

    private SimulatorAssert<K, I, O> hasTime(String what, Instant time, Instant expected) {
        if (!time.equals(expected)) {
            throw failureWithActualExpected(time, expected, "%nExpecting %s of %s %s:%n  %s%nto be:%n  %s", what,
                    name(), when(), time, expected);
        }
        return myself;
    }

    /**
     * The output rows of every batch so far, in order; in strict mode they count as read.
     * <pre>{@code
     * assertThat(sim).outputs().containsExactly(new CartAlert("ana", 2, at("10:05")));
     * }</pre>
     */
    public ListAssert<O> outputs() {
        isNotNull();
        List<BatchResult<K, I, O>> batches = actual.history().batches();
        Session.markRead(batches);
        List<O> rows = actual.history().outputs();
        return RowsByValue.compare(navigation.list(rows, "outputs of " + Navigation.batches(batches) + " of " + name()),
                rows, actual.query().outputEncoder());
    }

    /**
     * The last batch that ran.
     * <pre>{@code
     * assertThat(sim).lastBatch().isNoDataBatch().hasEvictionWatermark(at("10:36"));
     * }</pre>
     */
    public BatchResultAssert<K, I, O> lastBatch() {
        isNotNull();
        List<BatchResult<K, I, O>> batches = actual.history().batches();
        if (batches.isEmpty()) {
            throw failure("%nExpecting %s to have run a batch, but none ran", name());
        }
        return navigation.batch(batches.get(batches.size() - 1));
    }

    /**
     * The batch with id {@code batchId}.
     * <pre>{@code
     * assertThat(sim).batch(4).droppedLate().containsExactly(CartEvent.add("bo", "hat", at("10:09")));
     * }</pre>
     */
    public BatchResultAssert<K, I, O> batch(long batchId) {
        isNotNull();
        List<BatchResult<K, I, O>> batches = actual.history().batches();
        for (BatchResult<K, I, O> b : batches) {
            if (b.batchId() == batchId) {
                return navigation.batch(b);
            }
        }
        throw failure("%nExpecting %s to have run batch %s, but it ran %s", name(), batchId,
                batches.isEmpty() ? "none" : batches.stream().map(BatchResult::batchId).toList());
    }

    /**
     * Every batch run so far, as a run.
     * <pre>{@code
     * assertThat(sim).history().hasBatchIds(0, 1, 2, 3);
     * }</pre>
     */
    public RunResultAssert<K, I, O> history() {
        isNotNull();
        return navigation.run(actual.history());
    }

    /** What the key has: "value state 'count'" -> 3, "timers" -> [...]. */
    private Map<String, Object> stateOf(K key) {
        StateView<K> view = actual.state();
        Map<String, Object> left = new LinkedHashMap<>();
        for (String variable : view.variableNames()) {
            read(view, variable, key).ifPresent(v -> left.put(view.kindOf(variable) + " state '" + variable + "'", v));
        }
        if (!view.timers(key).isEmpty()) {
            left.put("timers", view.timers(key));
        }
        return left;
    }

    /** What variable {@code variable} holds for the key, read by its kind; empty when nothing. */
    private static <K> Optional<Object> read(StateView<K> view, String variable, K key) {
        return switch (view.kindOf(variable)) {
            case "value" -> view.value(variable, key);
            case "list" -> Optional.<Object>of(view.list(variable, key)).filter(l -> !((List<?>) l).isEmpty());
            default -> Optional.<Object>of(view.map(variable, key)).filter(m -> !((Map<?, ?>) m).isEmpty());
        };
    }

    /** {@code simulator 'sim'} for a {@link TestSimulator}, else {@code the simulator}. */
    private String name() {
        return actual instanceof TestSimulator<?, ?, ?> t ? "simulator '" + t.name() + "'" : "the simulator";
    }

    /** {@code after batch 3} or {@code before the first batch}. */
    private String when() {
        long next = actual.nextBatchId();
        return next == 0 ? "before the first batch" : "after batch " + (next - 1);
    }
}
