package dev.twstester.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

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
    /** How a write is made: run at once, or reported as a call of the simulator first. */
    interface Writes {
        void write(String description, Runnable write);
    }

    private final StateAccess<K> access;
    private final LongSupplier clock;
    private final Writes writes;

    StateView(StateAccess<K> access, LongSupplier clock, Writes writes) {
        this.access = access;
        this.clock = clock;
        this.writes = writes;
    }

    /** Names of the state variables, in definition order. */
    public Set<String> variableNames() {
        return access.variables().keySet();
    }

    /**
     * The time to live of state variable {@code name} ({@code TTLConfig}), empty when it has none.
     * A value with a TTL can expire, and be removed at a batch's end, without a handler call.
     */
    public Optional<Duration> ttlOf(String name) {
        StateVariable v = variable(name, StateVariable.class, "any");
        return v.ttlMs > 0 ? Optional.of(Duration.ofMillis(v.ttlMs)) : Optional.empty();
    }

    /** The kind of state variable {@code name}: {@code "value"}, {@code "list"} or {@code "map"}. */
    public String kindOf(String name) {
        StateVariable v = variable(name, StateVariable.class, "any");
        return v.kind();
    }

    /** Keys with any state or timer, in Spark's key order. */
    public List<K> keys() {
        Set<Bytes> withState = new TreeSet<>();
        access.variables().values().forEach(v -> withState.addAll(v.keys()));
        withState.addAll(access.timers().keys());
        List<Bytes> keys = new ArrayList<>(withState);
        KeyCodec<K> codec = access.keyCodec();
        keys.sort((a, b) -> codec.compareNatural(a.array(), b.array()));
        List<K> out = new ArrayList<>();
        keys.forEach(k -> out.add(codec.decode(k.array())));
        return out;
    }

    /** True when {@code key} has any visible state value or a timer. */
    public boolean hasState(K key) {
        for (String name : variableNames()) {
            StateVariable v = access.variables().get(name);
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

    /**
     * Every key's visible state and timers now, decoded: each key with state or timers in Spark's
     * key order, each variable that holds something for it, and its timers.
     */
    public StateDump<K> dump() {
        return dump(keys(), true);
    }

    /**
     * The visible state and timers of {@code keys} now, decoded as {@link #dump()} does, in the
     * order given; a key without visible state or timers is left out. Cheaper than the whole dump when a
     * few keys changed, e.g. those a batch's handlers ran for:
     * <pre>{@code
     * StateDump<String> ana = sim.state().dump(List.of("ana"));
     * }</pre>
     */
    public StateDump<K> dump(Collection<? extends K> keys) {
        return dump(keys, false);
    }

    private StateDump<K> dump(Collection<? extends K> keys, boolean keepEmpty) {
        List<StateDump.KeyState<K>> all = new ArrayList<>();
        boolean timers = !access.timeMode().equals(TimeMode.None());
        for (K key : keys) {
            StateDump.KeyState<K> state = at(key, k -> keyState(key, k, timers));   // the key encoded once
            if (keepEmpty || !state.variables().isEmpty() || !state.timers().isEmpty()) {
                all.add(state);
            }
        }
        return new StateDump<>(all);
    }

    /** {@code key}'s visible variables and timers, read with its encoded form {@code k}. */
    @SuppressWarnings("unchecked")
    private StateDump.KeyState<K> keyState(K key, Bytes k, boolean timers) {
        Map<String, StateDump.Variable> variables = new LinkedHashMap<>();
        access.variables().forEach((name, v) -> {
            Object value = switch (v.kind()) {
                case "value" -> ((ValueVariable<Object>) v).get(k);
                case "list" -> nonEmpty(((ListVariable<Object>) v).get(k));
                default -> nonEmpty(((MapVariable<Object, Object>) v).get(k));
            };
            if (value != null) {
                variables.put(name, new StateDump.Variable(v.kind(), value));
            }
        });
        List<Instant> pending = List.of();
        if (timers) {
            List<Long> ms = new ArrayList<>(access.timers().list(k));
            ms.sort(null);
            pending = new ArrayList<>(ms.size());
            for (long t : ms) {
                pending.add(Instant.ofEpochMilli(t));
            }
        }
        return new StateDump.KeyState<>(key, variables, pending);
    }

    private static List<?> nonEmpty(List<?> list) {
        return list.isEmpty() ? null : list;
    }

    private static Map<?, ?> nonEmpty(Map<?, ?> map) {
        return map.isEmpty() ? null : map;
    }

    /** The value of ValueState {@code name} for {@code key}, empty when unset or expired. */
    @SuppressWarnings("unchecked")
    public <T> Optional<T> value(String name, K key) {
        ValueVariable<T> v = variable(name, ValueVariable.class, "value");
        return Optional.ofNullable(at(key, v::get));
    }

    /** The elements of ListState {@code name} for {@code key}, in append order. */
    @SuppressWarnings("unchecked")
    public <T> List<T> list(String name, K key) {
        ListVariable<T> v = variable(name, ListVariable.class, "list");
        return at(key, v::get);
    }

    /** The entries of MapState {@code name} for {@code key}, in Spark's iteration order. */
    @SuppressWarnings("unchecked")
    public <MK, MV> Map<MK, MV> map(String name, K key) {
        MapVariable<MK, MV> v = variable(name, MapVariable.class, "map");
        return at(key, v::get);
    }

    /** Sets ValueState {@code name} for {@code key}, through its encoder (TTL from the current processing time). */
    @SuppressWarnings("unchecked")
    public <T> StateView<K> setValue(String name, K key, T value) {
        ValueVariable<T> v = variable(name, ValueVariable.class, "value");
        return write("setValue(\"" + name + "\", " + key + ", " + value + ")", key, k -> v.put(k, value));
    }

    /** Replaces ListState {@code name} for {@code key}; an empty list clears it. */
    @SuppressWarnings("unchecked")
    public <T> StateView<K> setList(String name, K key, List<T> values) {
        ListVariable<T> v = variable(name, ListVariable.class, "list");
        return write("setList(\"" + name + "\", " + key + ", " + values + ")", key, k -> {
            v.clearKey(k);
            if (!values.isEmpty()) {
                v.put(k, values);
            }
        });
    }

    /** Replaces MapState {@code name} for {@code key} with {@code entries}. */
    @SuppressWarnings("unchecked")
    public <MK, MV> StateView<K> setMap(String name, K key, Map<MK, MV> entries) {
        MapVariable<MK, MV> v = variable(name, MapVariable.class, "map");
        return write("setMap(\"" + name + "\", " + key + ", " + entries + ")", key, k -> {
            v.clearKey(k);
            entries.forEach((mk, mv) -> v.put(k, mk, mv));
        });
    }

    /** Removes everything state variable {@code name} holds for {@code key}. */
    public StateView<K> clear(String name, K key) {
        StateVariable v = variable(name, StateVariable.class, "any");
        return write("clear(\"" + name + "\", " + key + ")", key, v::clearKey);
    }

    /** The timers of {@code key}, ascending (inside a processor, {@code listTimers()} uses Spark's byte order). */
    public List<Instant> timers(K key) {
        List<Long> timers = at(key, access.timers()::list);
        return timers.stream().sorted().map(Instant::ofEpochMilli).toList();
    }

    /** Registers a timer for {@code key}, as {@code registerTimer} would. */
    public StateView<K> registerTimer(K key, Instant expiry) {
        requireTimers();
        return write("registerTimer(" + key + ", " + expiry + ")", key,
                k -> access.timers().register(k, expiry.toEpochMilli()));
    }

    /** Deletes a timer of {@code key}; a missing one is ignored, as in Spark. */
    public StateView<K> deleteTimer(K key, Instant expiry) {
        requireTimers();
        return write("deleteTimer(" + key + ", " + expiry + ")", key,
                k -> access.timers().delete(k, expiry.toEpochMilli()));
    }

    private void requireTimers() {
        if (access.timeMode().equals(TimeMode.None())) {
            throw new IllegalStateException("the query runs in TimeMode.None(), which has no timers; "
                    + "build it with .timeMode(TimeMode.ProcessingTime()) or .timeMode(TimeMode.EventTime())");
        }
    }

    private <V> V variable(String name, Class<?> kind, String kindName) {
        // V is the caller's expected variable type; kind checks it
        Objects.requireNonNull(name, "name must not be null");
        StateVariable v = access.variables().get(name);
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
    private <R> R at(K key, Function<Bytes, R> read) {
        return access.atKey(key, clock.getAsLong(), read);
    }

    private StateView<K> write(String description, K key, Consumer<Bytes> change) {
        Objects.requireNonNull(key, "key must not be null");
        writes.write(description, () -> {
            at(key, k -> {
                change.accept(k);
                return null;
            });
            access.commit();
        });
        return this;
    }
}
