package dev.twstester.junit.internal;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.twstester.io.EncoderRows;
import dev.twstester.sim.StateDump;

/**
 * Internal, not API: may change in any release.
 *
 * <p>What differs between two {@link StateDump}s of one operator ({@code StateView.dump()}), key by
 * key in Spark's key order: each state variable that changed, then the timers. Keys are matched by
 * their encoded bytes, so a key class without {@code equals} still names one key.
 */
final class StateChanges {
    private StateChanges() {}

    /** The changes of operator {@code operator} from {@code before} to {@code after}. */
    static <K> List<StateChange> between(int operator, StateDump<K> before, StateDump<K> after, EncoderRows<K> keys) {
        Map<ByteBuffer, StateDump.KeyState<K>> was = byKey(before, keys);
        Map<ByteBuffer, StateDump.KeyState<K>> now = byKey(after, keys);
        Set<ByteBuffer> all = new LinkedHashSet<>(was.keySet());
        all.addAll(now.keySet());
        List<ByteBuffer> ordered = new ArrayList<>(all);
        ordered.sort((a, b) -> keys.compareEncoded(a.array(), b.array()));
        List<StateChange> changes = new ArrayList<>();
        for (ByteBuffer k : ordered) {
            Map<String, Entry> from = entries(was.get(k));
            Map<String, Entry> to = entries(now.get(k));
            Object key = (now.containsKey(k) ? now.get(k) : was.get(k)).key();
            Set<String> labels = new LinkedHashSet<>(from.keySet());
            labels.addAll(to.keySet());
            for (String label : timersLast(labels)) {
                Entry a = from.get(label);
                Entry b = to.get(label);
                Object beforeValue = a == null ? null : a.value();
                Object afterValue = b == null ? null : b.value();
                if (!same(beforeValue, afterValue)) {
                    Entry e = b != null ? b : a;
                    changes.add(new StateChange(operator, key, e.kind(), e.name(), beforeValue, afterValue));
                }
            }
        }
        return changes;
    }

    /**
     * The changes {@code first} and then {@code then} make together: one per variable (or timers)
     * that ends up different, in the order first changed; {@code keys} encode each operator's keys.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static List<StateChange> compose(List<StateChange> first, List<StateChange> then, List<EncoderRows<?>> keys) {
        Map<String, StateChange> net = new LinkedHashMap<>();
        for (List<StateChange> changes : List.of(first, then)) {
            for (StateChange c : changes) {
                String id = c.operator() + " " + Arrays.toString(((EncoderRows) keys.get(c.operator())).encode(c.key()))
                        + " " + c.kind() + " " + c.variable();
                StateChange earlier = net.get(id);
                net.put(id, earlier == null ? c
                        : new StateChange(c.operator(), c.key(), c.kind(), c.variable(), earlier.before(), c.after()));
            }
        }
        net.values().removeIf(c -> same(c.before(), c.after()));
        return List.copyOf(net.values());
    }

    /** A variable's kind, name and value for one key, or the timers (kind and name {@code timers}). */
    private record Entry(String kind, String name, Object value) {}

    private static <K> Map<ByteBuffer, StateDump.KeyState<K>> byKey(StateDump<K> dump, EncoderRows<K> keys) {
        Map<ByteBuffer, StateDump.KeyState<K>> out = new LinkedHashMap<>();
        for (StateDump.KeyState<K> k : dump.keys()) {
            out.put(ByteBuffer.wrap(keys.encode(k.key())), k);
        }
        return out;
    }

    /** The key's variables that hold something, by kind and name ("value count"), then its timers ("timers"). */
    private static Map<String, Entry> entries(StateDump.KeyState<?> state) {
        Map<String, Entry> out = new LinkedHashMap<>();
        if (state == null) {
            return out;
        }
        state.variables().forEach((name, v) -> out.put(v.kind() + " " + name, new Entry(v.kind(), name, v.value())));
        List<Instant> timers = state.timers();
        if (!timers.isEmpty()) {
            out.put("timers", new Entry("timers", "timers", timers));
        }
        return out;
    }

    /** Variables in the order first seen, the timers last. */
    private static List<String> timersLast(Set<String> labels) {
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
