package dev.twstester.scaladsl;

import java.time.Instant;
import java.util.Objects;

import dev.twstester.sim.StateDump;
import dev.twstester.sim.StateView;

/**
 * A simulator's {@link StateView} for Scala tests: reads return {@code Option}, immutable {@code List} and
 * {@code Map}; writes take Scala's collections. Each method does what the {@link StateView} method of the
 * same name does; {@link #view()} is the Java view.
 *
 * <pre>{@code
 * val state = sim.state
 * state.setValue("visit", "ana", Visit(0L, Some("ad")))
 * assert(state.value[Visit]("visit", "ana") == Some(Visit(0L, Some("ad"))))
 * assert(state.list[String]("pages", "ana") == Seq("/home", "/cart"))
 * assert(state.map[String, Int]("views", "ana") == Map("/home" -> 1, "/cart" -> 1))
 * assert(state.timers("ana") == Seq(Instant.parse("2024-05-01T10:30:00Z")))
 * }</pre>
 *
 * @param view the Java view it reads and writes through
 * @param <K> grouping key type
 */
public record ScalaStateView<K>(StateView<K> view) {
    /** Wraps {@code view}. */
    public ScalaStateView {
        Objects.requireNonNull(view, "view must not be null");
    }

    /** Names of the state variables, in definition order. */
    public scala.collection.immutable.List<String> variableNames() {
        return ScalaCollections.toScala(java.util.List.copyOf(view.variableNames()));
    }

    /** Keys with any state or timer, in Spark's key order. */
    public scala.collection.immutable.List<K> keys() {
        return ScalaCollections.toScala(view.keys());
    }

    /** Whether {@code key} has any state or timer. */
    public boolean hasState(K key) {
        return view.hasState(key);
    }

    /** Every key's state and timers, decoded. */
    public StateDump<K> dump() {
        return view.dump();
    }

    /** ValueState {@code name} of {@code key}: {@code None} when unset or expired. */
    public <T> scala.Option<T> value(String name, K key) {
        return ScalaCollections.toScala(view.<T>value(name, key));
    }

    /** ListState {@code name} of {@code key}, in append order. */
    public <T> scala.collection.immutable.List<T> list(String name, K key) {
        return ScalaCollections.toScala(view.<T>list(name, key));
    }

    /** MapState {@code name} of {@code key}, in Spark's iteration order. */
    public <MK, MV> scala.collection.immutable.Map<MK, MV> map(String name, K key) {
        return ScalaCollections.toScala(view.<MK, MV>map(name, key));
    }

    /** The timers of {@code key}, ascending. */
    public scala.collection.immutable.List<Instant> timers(K key) {
        return ScalaCollections.toScala(view.timers(key));
    }

    /** Sets ValueState {@code name} of {@code key}. */
    public <T> ScalaStateView<K> setValue(String name, K key, T value) {
        view.setValue(name, key, value);
        return this;
    }

    /** Replaces ListState {@code name} of {@code key}; {@code Seq()} clears it. */
    public <T> ScalaStateView<K> setList(String name, K key, scala.collection.Seq<T> values) {
        view.setList(name, key, ScalaCollections.toJava(values, "values"));
        return this;
    }

    /** Replaces MapState {@code name} of {@code key} with {@code entries}. */
    public <MK, MV> ScalaStateView<K> setMap(String name, K key, scala.collection.Map<MK, MV> entries) {
        view.setMap(name, key, ScalaCollections.toJava(entries, "entries"));
        return this;
    }

    /** Removes everything state variable {@code name} holds for {@code key}. */
    public ScalaStateView<K> clear(String name, K key) {
        view.clear(name, key);
        return this;
    }

    /** Registers a timer for {@code key}. */
    public ScalaStateView<K> registerTimer(K key, Instant expiry) {
        view.registerTimer(key, expiry);
        return this;
    }

    /** Deletes a timer of {@code key}; a missing one is ignored, as in Spark. */
    public ScalaStateView<K> deleteTimer(K key, Instant expiry) {
        view.deleteTimer(key, expiry);
        return this;
    }
}
