package dev.twstester.junit;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.twstester.junit.internal.Recorder;
import dev.twstester.sim.StateView;

/**
 * A {@link TestSimulator}'s state and timers between micro-batches: {@link StateView}'s methods,
 * with every write recorded in the timeline.
 *
 * <pre>{@code
 * sim.state().setValue("count", "a", 41L);             // pre-populate before a batch
 * Optional<Long> count = sim.state().value("count", "a");
 * }</pre>
 *
 * @param <K> grouping key type
 */
public final class TestStateView<K> {
    private final Recorder<K, ?, ?> recorder;
    private final String notLive;

    TestStateView(Recorder<K, ?, ?> recorder, String notLive) {
        this.recorder = recorder;
        this.notLive = notLive;
    }

    private StateView<K> view() {
        return recorder.simulator().state();
    }

    /** Names of the state variables, in definition order. */
    public Set<String> variableNames() {
        return view().variableNames();
    }

    /** The kind of state variable {@code name}: {@code "value"}, {@code "list"} or {@code "map"}. */
    public String kindOf(String name) {
        return view().kindOf(name);
    }

    /** Keys with any state or timer, in Spark's key order. */
    public List<K> keys() {
        return view().keys();
    }

    /** True when {@code key} has any visible state value or a timer. */
    public boolean hasState(K key) {
        return view().hasState(key);
    }

    /** The value of ValueState {@code name} for {@code key}, empty when unset or expired. */
    public <T> Optional<T> value(String name, K key) {
        return view().value(name, key);
    }

    /** The elements of ListState {@code name} for {@code key}, in append order. */
    public <T> List<T> list(String name, K key) {
        return view().list(name, key);
    }

    /** The entries of MapState {@code name} for {@code key}, in Spark's iteration order. */
    public <MK, MV> Map<MK, MV> map(String name, K key) {
        return view().map(name, key);
    }

    /** The timers of {@code key}, ascending. */
    public List<Instant> timers(K key) {
        return view().timers(key);
    }

    /** Sets ValueState {@code name} for {@code key}. */
    public <T> TestStateView<K> setValue(String name, K key, T value) {
        return write("setValue(\"" + name + "\", " + key + ", " + value + ")", () -> view().setValue(name, key, value));
    }

    /** Replaces ListState {@code name} for {@code key}; an empty list clears it. */
    public <T> TestStateView<K> setList(String name, K key, List<T> values) {
        return write("setList(\"" + name + "\", " + key + ", " + values + ")", () -> view().setList(name, key, values));
    }

    /** Replaces MapState {@code name} for {@code key} with {@code entries}. */
    public <MK, MV> TestStateView<K> setMap(String name, K key, Map<MK, MV> entries) {
        return write("setMap(\"" + name + "\", " + key + ", " + entries + ")", () -> view().setMap(name, key, entries));
    }

    /** Removes everything state variable {@code name} holds for {@code key}. */
    public TestStateView<K> clear(String name, K key) {
        return write("clear(\"" + name + "\", " + key + ")", () -> view().clear(name, key));
    }

    /** Registers a timer for {@code key}. */
    public TestStateView<K> registerTimer(K key, Instant expiry) {
        return write("registerTimer(" + key + ", " + expiry + ")", () -> view().registerTimer(key, expiry));
    }

    /** Deletes a timer of {@code key}; a missing one is ignored, as in Spark. */
    public TestStateView<K> deleteTimer(K key, Instant expiry) {
        return write("deleteTimer(" + key + ", " + expiry + ")", () -> view().deleteTimer(key, expiry));
    }

    private TestStateView<K> write(String description, Runnable write) {
        recorder.call("state()." + description, List.of(), notLive, () -> {
            write.run();
            return null;
        });
        return this;
    }
}
