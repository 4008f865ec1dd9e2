package dev.twstester.junit.internal;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.twstester.io.EncoderRows;
import dev.twstester.report.TimelinePage;

/**
 * Internal, not API: may change in any release.
 *
 * <p>The first operator's state as a trace's {@link TimelinePage} draws it: per key, each variable
 * that holds something and the timers, kept up to date by applying {@link StateChange}s in order.
 * Keys are told apart by their encoded bytes.
 *
 * @param <K> the first operator's key type
 */
final class PageState<K> {
    private final EncoderRows<K> keys;
    private final Map<ByteBuffer, K> keyObjects = new LinkedHashMap<>();
    /** Per key: "kind name" (or "timers") to the value after the last change. */
    private final Map<ByteBuffer, Map<String, Object>> entries = new LinkedHashMap<>();

    PageState(EncoderRows<K> keys) {
        this.keys = keys;
    }

    /** A copy to go on from. */
    PageState<K> copy() {
        PageState<K> c = new PageState<>(keys);
        c.keyObjects.putAll(keyObjects);
        entries.forEach((k, e) -> c.entries.put(k, new LinkedHashMap<>(e)));
        return c;
    }

    /** Applies the first operator's changes among {@code changes}. */
    @SuppressWarnings("unchecked")
    void apply(List<StateChange> changes) {
        for (StateChange change : changes) {
            if (change.operator() != 0) {
                continue;
            }
            ByteBuffer key = ByteBuffer.wrap(keys.encode((K) change.key()));
            keyObjects.putIfAbsent(key, (K) change.key());
            String label = change.kind().equals("timers") ? "timers" : change.kind() + " " + change.variable();
            Map<String, Object> of = entries.computeIfAbsent(key, k -> new LinkedHashMap<>());
            if (change.after() == null) {
                of.remove(label);
            } else {
                of.put(label, change.after());
            }
            if (of.isEmpty()) {
                entries.remove(key);
            }
        }
    }

    /** Every key's state now, as the page takes it ({@link TimelinePage#stateAfter}). */
    Map<K, TimelinePage.KeyState> now() {
        Map<K, TimelinePage.KeyState> out = new LinkedHashMap<>();
        entries.forEach((key, of) -> out.put(keyObjects.get(key), keyState(of)));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static TimelinePage.KeyState keyState(Map<String, Object> of) {
        List<Instant> timers = List.of();
        Map<String, Integer> sizes = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : of.entrySet()) {
            String label = e.getKey();
            if (label.equals("timers")) {
                timers = (List<Instant>) e.getValue();
                continue;
            }
            Object value = e.getValue();
            boolean single = label.startsWith("value ");
            sizes.put(label.substring(label.indexOf(' ') + 1), !single && value instanceof List<?> l ? l.size()
                    : !single && value instanceof Map<?, ?> m ? m.size() : 1);
        }
        return new TimelinePage.KeyState(timers, sizes);
    }
}
