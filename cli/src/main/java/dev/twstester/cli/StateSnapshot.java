package dev.twstester.cli;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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

    /**
     * Reads the state of every key. {@code StateView} has no public accessor for a variable's kind,
     * so each variable is tried as value, list and map state in turn (a wrong kind throws
     * {@link IllegalArgumentException}); the kind found is remembered in {@code kinds}.
     */
    static <K> StateSnapshot<K> of(StateView<K> view, Map<String, String> kinds) {
        List<KeyState<K>> keys = new ArrayList<>();
        for (K key : view.keys()) {
            Map<String, Variable> vars = new LinkedHashMap<>();
            for (String name : view.variableNames()) {
                Variable v = read(view, name, key, kinds);
                if (v != null) {
                    vars.put(name, v);
                }
            }
            keys.add(new KeyState<>(key, vars, timers(view, key)));
        }
        return new StateSnapshot<>(keys);
    }

    /** A cache for {@link #of}: variable name → kind. */
    static Map<String, String> newKindCache() {
        return new HashMap<>();
    }

    private static <K> List<Instant> timers(StateView<K> view, K key) {
        try {
            return view.timers(key);
        } catch (IllegalStateException e) {
            return List.of();   // TimeMode.None: no timers
        }
    }

    private static <K> Variable read(StateView<K> view, String name, K key, Map<String, String> kinds) {
        String known = kinds.get(name);
        for (String kind : known == null ? List.of("value", "list", "map") : List.of(known)) {
            try {
                Variable v = switch (kind) {
                    case "value" -> {
                        Optional<Object> value = view.value(name, key);
                        yield value.map(x -> new Variable("value", x)).orElse(null);
                    }
                    case "list" -> {
                        List<Object> list = view.list(name, key);
                        yield list.isEmpty() ? null : new Variable("list", list);
                    }
                    default -> {
                        Map<Object, Object> map = view.map(name, key);
                        yield map.isEmpty() ? null : new Variable("map", map);
                    }
                };
                kinds.put(name, kind);
                return v;
            } catch (IllegalArgumentException wrongKind) {
                // try the next kind
            }
        }
        return null;
    }
}
