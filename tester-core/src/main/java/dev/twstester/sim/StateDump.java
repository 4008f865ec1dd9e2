package dev.twstester.sim;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every key's visible state and timers at one moment, decoded: what {@link StateView#dump()}
 * reads. Later batches do not change it.
 *
 * <pre>{@code
 * StateDump<String> now = sim.state().dump();
 * for (StateDump.KeyState<String> key : now.keys()) {
 *     System.out.println(key.key() + " " + key.variables() + " timers " + key.timers());
 * }
 * }</pre>
 *
 * @param keys the keys with state or timers, in Spark's key order
 * @param <K>  grouping key type
 */
public record StateDump<K>(List<KeyState<K>> keys) {
    public StateDump {
        keys = List.copyOf(keys);
    }

    /**
     * One key's state.
     *
     * @param key       the grouping key
     * @param variables each state variable that holds something visible, by name in definition order
     * @param timers    the key's timers, ascending (empty in TimeMode.None)
     * @param <K>       grouping key type
     */
    public record KeyState<K>(K key, Map<String, Variable> variables, List<Instant> timers) {
        public KeyState {
            variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
            timers = List.copyOf(timers);
        }
    }

    /**
     * A state variable's kind and its value for one key.
     *
     * @param kind  {@code value}, {@code list} or {@code map}
     * @param value the value; the list's elements ({@code List}); the map's entries ({@code Map}, in Spark's order)
     */
    public record Variable(String kind, Object value) {}

    /** The state of {@code key}, found by equality of the decoded key. */
    public Optional<KeyState<K>> of(K key) {
        return keys.stream().filter(k -> k.key().equals(key)).findFirst();
    }
}
