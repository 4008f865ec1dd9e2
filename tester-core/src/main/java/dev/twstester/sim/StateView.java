package dev.twstester.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.spark.sql.streaming.TimeMode;

/**
 * Reads and writes a simulator's state and timers between micro-batches, the way a processor
 * would see them at the current processing time (TTL-expired entries are invisible).
 *
 * <pre>{@code
 * StateView<String> state = simulator.state();
 * state.setValue("count", "ana", 3L);                 // pre-populate before a batch
 * Optional<Long> count = state.value("count", "ana"); // Optional[3]
 * List<String> items = state.list("items", "ana");
 * List<Instant> timers = state.timers("ana");         // ascending
 * }</pre>
 *
 * State variable names are those the processor's {@code init} defines; an unknown name or the
 * wrong kind fails with the names that exist. Writes made here are committed at once.
 *
 * @param <K> grouping key type
 */
public final class StateView<K> {
    private final Engine<K, ?, ?> engine;

    StateView(Engine<K, ?, ?> engine) {
        this.engine = engine;
    }

    /** Names of the state variables, in definition order. */
    public Set<String> variableNames() {
        return engine.store.variables().keySet();
    }

    /** The kind of state variable {@code name}: {@code "value"}, {@code "list"} or {@code "map"}. */
    public String kindOf(String name) {
        StateVariable v = variable(name, StateVariable.class, "any");
        return v.kind();
    }

    /** Keys with any state or timer, in Spark's key order. */
    public List<K> keys() {
        List<Bytes> keys = new ArrayList<>(engine.store.keysWithState());
        keys.sort((a, b) -> engine.keyCodec.compareNatural(a.array(), b.array()));
        List<K> out = new ArrayList<>();
        keys.forEach(k -> out.add(engine.keyCodec.decode(k.array())));
        return out;
    }

    /** True when {@code key} has any visible state value or a timer. */
    public boolean hasState(K key) {
        for (String name : variableNames()) {
            StateVariable v = engine.store.variables().get(name);
            boolean present = switch (v.kind()) {
                case "value" -> value(name, key).isPresent();
                case "list" -> !list(name, key).isEmpty();
                default -> !map(name, key).isEmpty();
            };
            if (present) {
                return true;
            }
        }
        return !timers(key).isEmpty();
    }

    /** The value of ValueState {@code name} for {@code key}, empty when unset or expired. */
    @SuppressWarnings("unchecked")
    public <T> Optional<T> value(String name, K key) {
        ValueVariable<T> v = variable(name, ValueVariable.class, "value");
        return Optional.ofNullable(at(key, () -> v.get(engine.store.scope().key)));
    }

    /** The elements of ListState {@code name} for {@code key}, in append order. */
    @SuppressWarnings("unchecked")
    public <T> List<T> list(String name, K key) {
        ListVariable<T> v = variable(name, ListVariable.class, "list");
        return at(key, () -> v.get(engine.store.scope().key));
    }

    /** The entries of MapState {@code name} for {@code key}, in Spark's iteration order. */
    @SuppressWarnings("unchecked")
    public <MK, MV> Map<MK, MV> map(String name, K key) {
        MapVariable<MK, MV> v = variable(name, MapVariable.class, "map");
        return at(key, () -> v.get(engine.store.scope().key));
    }

    /** Sets ValueState {@code name} for {@code key}, through its encoder (TTL from the current processing time). */
    @SuppressWarnings("unchecked")
    public <T> StateView<K> setValue(String name, K key, T value) {
        ValueVariable<T> v = variable(name, ValueVariable.class, "value");
        return write(key, () -> v.put(engine.store.scope().key, value));
    }

    /** Replaces ListState {@code name} for {@code key}; an empty list clears it. */
    @SuppressWarnings("unchecked")
    public <T> StateView<K> setList(String name, K key, List<T> values) {
        ListVariable<T> v = variable(name, ListVariable.class, "list");
        return write(key, () -> {
            v.clearKey(engine.store.scope().key);
            if (!values.isEmpty()) {
                v.put(engine.store.scope().key, values);
            }
        });
    }

    /** Replaces MapState {@code name} for {@code key} with {@code entries}. */
    @SuppressWarnings("unchecked")
    public <MK, MV> StateView<K> setMap(String name, K key, Map<MK, MV> entries) {
        MapVariable<MK, MV> v = variable(name, MapVariable.class, "map");
        return write(key, () -> {
            v.clearKey(engine.store.scope().key);
            entries.forEach((mk, mv) -> v.put(engine.store.scope().key, mk, mv));
        });
    }

    /** Removes everything state variable {@code name} holds for {@code key}. */
    public StateView<K> clear(String name, K key) {
        StateVariable v = variable(name, StateVariable.class, "any");
        return write(key, () -> v.clearKey(engine.store.scope().key));
    }

    /** The timers of {@code key}, ascending (inside a processor, {@code listTimers()} uses Spark's byte order). */
    public List<Instant> timers(K key) {
        List<Long> timers = at(key, () -> engine.store.timers().list(engine.store.scope().key));
        return timers.stream().sorted().map(Instant::ofEpochMilli).toList();
    }

    /** Registers a timer for {@code key}, as {@code registerTimer} would. */
    public StateView<K> registerTimer(K key, Instant expiry) {
        requireTimers();
        return write(key, () -> engine.store.timers().register(engine.store.scope().key, expiry.toEpochMilli()));
    }

    /** Deletes a timer of {@code key}; a missing one is ignored, as in Spark. */
    public StateView<K> deleteTimer(K key, Instant expiry) {
        requireTimers();
        return write(key, () -> engine.store.timers().delete(engine.store.scope().key, expiry.toEpochMilli()));
    }

    private void requireTimers() {
        if (engine.query.timeMode().equals(TimeMode.None())) {
            throw new IllegalStateException("the query runs in TimeMode.None(), which has no timers; "
                    + "build it with .timeMode(TimeMode.ProcessingTime()) or .timeMode(TimeMode.EventTime())");
        }
    }

    private <V> V variable(String name, Class<?> kind, String kindName) {
        // V is the caller's expected variable type; kind checks it
        Objects.requireNonNull(name, "name must not be null");
        StateVariable v = engine.store.variables().get(name);
        if (v == null) {
            throw new IllegalArgumentException("no state variable named '" + name + "'; the processor's init() defines "
                    + variableNames());
        }
        if (!kind.isInstance(v)) {
            throw new IllegalArgumentException("'" + name + "' is a " + v.kind() + " state, not a " + kindName
                    + " state; use " + v.kind() + "(\"" + name + "\", key)");
        }
        @SuppressWarnings("unchecked")
        V typed = (V) v;
        return typed;
    }

    /** Runs {@code read} with {@code key} as implicit key and the clock as batch timestamp. */
    private <R> R at(K key, Supplier<R> read) {
        Scope scope = engine.store.scope();
        Bytes previous = scope.key;
        scope.key = new Bytes(engine.keyCodec.encode(Objects.requireNonNull(key, "key must not be null")));
        scope.batchTimestampMs = engine.processingTimeMs();
        try {
            return read.get();
        } finally {
            scope.key = previous;
        }
    }

    private StateView<K> write(K key, Runnable change) {
        at(key, () -> {
            change.run();
            return null;
        });
        engine.store.scope().journal.commit();
        return this;
    }

}
