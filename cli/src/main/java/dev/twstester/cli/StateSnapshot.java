package dev.twstester.cli;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.twstester.sim.StateView;

/**
 * Every key's visible state and timers at one moment, read through {@link StateView}.
 *
 * @param keys the keys with state or timers, in Spark's key order
 * @param <K>  grouping key type
 */
record StateSnapshot<K>(List<KeyState<K>> keys) {

    /**
     * One key's state: each variable with a visible value (name → kind and value) and its timers.
     *
     * @param key       the grouping key
     * @param variables variable name → its kind ({@code value}, {@code list}, {@code map}) and value, in definition order
     * @param timers    the key's timers, ascending
     */
    record KeyState<K>(K key, Map<String, Variable> variables, List<Instant> timers) {}

    /** A state variable's kind and its value for one key. */
    record Variable(String kind, Object value) {}

    /** Reads the state of every key. */
    static <K> StateSnapshot<K> of(StateView<K> view) {
        List<KeyState<K>> keys = new ArrayList<>();
        for (K key : view.keys()) {
            Map<String, Variable> vars = new LinkedHashMap<>();
            for (String name : view.variableNames()) {
                Variable v = read(view, name, key);
                if (v != null) {
                    vars.put(name, v);
                }
            }
            keys.add(new KeyState<>(key, vars, timers(view, key)));
        }
        return new StateSnapshot<>(keys);
    }

    private static <K> List<Instant> timers(StateView<K> view, K key) {
        try {
            return view.timers(key);
        } catch (IllegalStateException e) {
            return List.of();   // TimeMode.None: no timers
        }
    }

    /** The variable's visible value for {@code key}, or null when it holds nothing. */
    private static <K> Variable read(StateView<K> view, String name, K key) {
        String kind = view.kindOf(name);
        return switch (kind) {
            case "value" -> {
                Optional<Object> value = view.value(name, key);
                yield value.map(x -> new Variable(kind, x)).orElse(null);
            }
            case "list" -> {
                List<Object> list = view.list(name, key);
                yield list.isEmpty() ? null : new Variable(kind, list);
            }
            default -> {
                Map<Object, Object> map = view.map(name, key);
                yield map.isEmpty() ? null : new Variable(kind, map);
            }
        };
    }
}
