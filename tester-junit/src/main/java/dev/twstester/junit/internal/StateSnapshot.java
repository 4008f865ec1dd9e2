package dev.twstester.junit.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.twstester.io.EncoderRows;
import dev.twstester.sim.StateView;

/**
 * Internal, not API: may change in any release.
 *
 * <p>Everything a simulator's state view shows at one moment: per key, each state variable that
 * holds something and the timers. Values are the decoded copies the view returns, so later
 * batches cannot change a snapshot.
 */
final class StateSnapshot {
    static final StateSnapshot EMPTY = new StateSnapshot(Map.of());

    /** Per encoded key: the decoded key and its non-empty entries ("kind name" -> value; "timers" last). */
    private final Map<Bytes, KeyState> keys;

    private StateSnapshot(Map<Bytes, KeyState> keys) {
        this.keys = keys;
    }

    private record KeyState(Object key, Map<String, Object> entries) {}

    /** Encoded key bytes with value equality. */
    private record Bytes(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes b && Arrays.equals(bytes, b.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    /** Reads every key's state through {@code view}; {@code kinds} maps each variable to value, list or map. */
    static <K> StateSnapshot take(StateView<K> view, EncoderRows<K> keyCodec, Map<String, String> kinds) {
        Map<Bytes, KeyState> keys = new LinkedHashMap<>();
        for (K key : view.keys()) {
            Map<String, Object> entries = new LinkedHashMap<>();
            for (String name : view.variableNames()) {
                Object value = read(view, kinds.get(name), name, key);
                if (value != null) {
                    entries.put(kinds.get(name) + " " + name, value);
                }
            }
            List<Instant> timers = view.timers(key);
            if (!timers.isEmpty()) {
                entries.put("timers", timers);
            }
            if (!entries.isEmpty()) {
                keys.put(new Bytes(keyCodec.encode(key)), new KeyState(key, entries));
            }
        }
        return new StateSnapshot(keys);
    }

    private static <K> Object read(StateView<K> view, String kind, String name, K key) {
        switch (kind) {
            case "value": {
                Optional<Object> v = view.value(name, key);
                return v.orElse(null);
            }
            case "list": {
                List<Object> l = view.list(name, key);
                return l.isEmpty() ? null : l;
            }
            default: {
                Map<Object, Object> m = view.map(name, key);
                return m.isEmpty() ? null : m;
            }
        }
    }

    /** What differs from this snapshot to {@code after}, key by key in Spark's key order. */
    <K> List<StateChange> changesTo(StateSnapshot after, EncoderRows<K> keyCodec) {
        Set<Bytes> all = new LinkedHashSet<>(keys.keySet());
        all.addAll(after.keys.keySet());
        List<Bytes> ordered = new ArrayList<>(all);
        ordered.sort((a, b) -> keyCodec.compareEncoded(a.bytes, b.bytes));
        List<StateChange> changes = new ArrayList<>();
        for (Bytes k : ordered) {
            KeyState was = keys.get(k);
            KeyState now = after.keys.get(k);
            Object key = (now != null ? now : was).key();
            Set<String> labels = new LinkedHashSet<>();
            if (was != null) {
                labels.addAll(was.entries().keySet());
            }
            if (now != null) {
                labels.addAll(now.entries().keySet());
            }
            for (String label : sortedLabels(labels)) {
                Object before = was == null ? null : was.entries().get(label);
                Object afterValue = now == null ? null : now.entries().get(label);
                if (!same(before, afterValue)) {
                    int space = label.indexOf(' ');
                    String kind = space < 0 ? label : label.substring(0, space);
                    String name = space < 0 ? label : label.substring(space + 1);
                    changes.add(new StateChange(key, kind, name, before, afterValue));
                }
            }
        }
        return changes;
    }

    /** Variables in the order first seen, timers last. */
    private static List<String> sortedLabels(Collection<String> labels) {
        List<String> out = new ArrayList<>();
        labels.stream().filter(l -> !l.equals("timers")).forEach(out::add);
        if (labels.contains("timers")) {
            out.add("timers");
        }
        return out;
    }

    /** Equal, or printed the same (beans without equals). */
    private static boolean same(Object a, Object b) {
        return Objects.equals(a, b) || (a != null && b != null && String.valueOf(a).equals(String.valueOf(b)));
    }
}
