package dev.twstester.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import dev.twstester.StateDifference;

import org.apache.spark.sql.Encoder;

import dev.twstester.RunDifference.Aspect;

/**
 * Finds the {@link StateDifference}s between two {@link StateSnapshot}s of the same query: the next
 * batch id and watermarks, then operator by operator, variable by variable (by name, the left's
 * order first) and key by key in Spark's key order, then timers key by key. Variables one side does
 * not have count as empty there. The clock (processing time) is not compared: a live query's is the
 * wall clock's or the last batch's.
 */
final class StateDifferences {
    private StateDifferences() {
    }

    static List<StateDifference> between(StateSnapshot left, StateSnapshot right) {
        Objects.requireNonNull(left, "left must not be null");
        Objects.requireNonNull(right, "right must not be null");
        List<StateDifference> found = new ArrayList<>();
        if (left.nextBatchId != right.nextBatchId) {
            found.add(new StateDifference(Aspect.BATCH_ID, 0, null, null, String.valueOf(left.nextBatchId),
                    String.valueOf(right.nextBatchId)));
        }
        if (left.watermarkMs != right.watermarkMs) {
            found.add(new StateDifference(Aspect.EVICTION_WATERMARK, 0, null, null, instant(left.watermarkMs),
                    instant(right.watermarkMs)));
        }
        if (left.lastBatchWatermarkMs != right.lastBatchWatermarkMs) {
            found.add(new StateDifference(Aspect.LATE_WATERMARK, 0, null, null, instant(left.lastBatchWatermarkMs),
                    instant(right.lastBatchWatermarkMs)));
        }
        if (left.operators.size() != right.operators.size()) {
            throw new IllegalArgumentException("the two end states are of different queries: " + left.operators.size()
                    + " and " + right.operators.size() + " stateful operators");
        }
        for (int i = 0; i < left.operators.size(); i++) {
            operator(i, new Side(left.operators.get(i), left.loaded), new Side(right.operators.get(i), right.loaded), found);
        }
        return found;
    }

    /** One operator's part of a snapshot, and whether it was read from a file (every value bytes, row encoders). */
    private record Side(StateSnapshot.OperatorData data, boolean loaded) {}

    private static void operator(int op, Side leftSide, Side rightSide, List<StateDifference> found) {
        StateSnapshot.OperatorData left = leftSide.data();
        StateSnapshot.OperatorData right = rightSide.data();
        // the query's own key encoder where a side has it: a file's row encoder runs Spark's generated code
        KeyCodec<Object> keys = keyCodec(leftSide.loaded() ? right : left);
        Set<String> names = new LinkedHashSet<>();
        left.variables().forEach(v -> names.add(v.name()));
        right.variables().forEach(v -> names.add(v.name()));
        for (String name : names) {
            StateSnapshot.Variable l = variable(left, name);
            StateSnapshot.Variable r = variable(right, name);
            if (l != null && r != null && !l.kind().equals(r.kind())) {
                found.add(new StateDifference(Aspect.STATE, op, name, null, l.kind() + " state", r.kind() + " state"));
                continue;
            }
            Set<Bytes> all = new TreeSet<>((a, b) -> keys.compareNatural(a.array(), b.array()));
            Map<Bytes, List<Item>> ld = items(l, leftSide.loaded());
            Map<Bytes, List<Item>> rd = items(r, rightSide.loaded());
            all.addAll(ld.keySet());
            all.addAll(rd.keySet());
            String kind = (l != null ? l : r).kind();
            for (Bytes key : all) {
                List<Item> a = ld.getOrDefault(key, List.of());
                List<Item> b = rd.getOrDefault(key, List.of());
                if (!sameItems(a, b)) {
                    found.add(new StateDifference(Aspect.STATE, op, name, keys.decode(key.array()), render(kind, a),
                            render(kind, b)));
                }
            }
        }
        Set<Bytes> timerKeys = new TreeSet<>((a, b) -> keys.compareNatural(a.array(), b.array()));
        timerKeys.addAll(left.timers().keySet());
        timerKeys.addAll(right.timers().keySet());
        for (Bytes key : timerKeys) {
            long[] a = sorted(left.timers().get(key));
            long[] b = sorted(right.timers().get(key));
            if (!Arrays.equals(a, b)) {
                found.add(new StateDifference(Aspect.TIMERS, op, null, keys.decode(key.array()), timers(a), timers(b)));
            }
        }
    }

    /** One stored value (or map entry): its encoded bytes, decoded object and expiration. */
    private record Item(byte[] keyBytes, Supplier<Object> keyObject, byte[] bytes, Supplier<Object> object, long expiry) {
        boolean same(Item o) {
            return expiry == o.expiry && Arrays.equals(bytes, o.bytes) && Arrays.equals(keyBytes, o.keyBytes);
        }

        String text() {
            String v = keyBytes == null ? String.valueOf(object.get()) : keyObject.get() + "=" + object.get();
            return expiry == StateVariable.NO_EXPIRY ? v : v + " (expires at " + instant(expiry) + ")";
        }
    }

    private static boolean sameItems(List<Item> a, List<Item> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).same(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static String render(String kind, List<Item> items) {
        if (items.isEmpty()) {
            return "(none)";
        }
        List<String> parts = items.stream().map(Item::text).toList();
        return switch (kind) {
            case "value" -> parts.get(0);
            case "list" -> "[" + String.join(", ", parts) + "]";
            default -> "{" + String.join(", ", parts) + "}";
        };
    }

    /** A variable's data by encoded key, each key's values as items (value: one; list: in order; map: by key order). */
    private static Map<Bytes, List<Item>> items(StateSnapshot.Variable v, boolean loaded) {
        Map<Bytes, List<Item>> out = new java.util.HashMap<>();
        if (v == null) {
            return out;
        }
        Encoder<?>[] encoders = v.encoders();
        v.data().forEach((key, data) -> {
            List<Item> items = new ArrayList<>();
            switch (v.kind()) {
                case "value" -> {
                    Object[] s = ValueVariable.stored(data);
                    if (s != null) {
                        items.add(item(null, null, s[0], encoders[0], (Long) s[1], loaded));
                    }
                }
                case "list" -> {
                    for (Object[] s : ListVariable.stored(data)) {
                        items.add(item(null, null, s[0], encoders[0], (Long) s[1], loaded));
                    }
                }
                default -> {
                    for (Object[] s : MapVariable.stored(data)) {
                        items.add(item(s[0], encoders[0], s[1], encoders[1], (Long) s[2], loaded));
                    }
                }
            }
            if (!items.isEmpty()) {
                out.put(key, items);
            }
        });
        return out;
    }

    private static Item item(Object storedKey, Encoder<?> keyEncoder, Object stored, Encoder<?> encoder, long expiry,
            boolean loaded) {
        Object[] key = storedKey == null && keyEncoder == null ? new Object[2] : canonical(storedKey, keyEncoder, loaded);
        Object[] value = canonical(stored, encoder, loaded);
        return new Item((byte[]) key[0], (Supplier<Object>) key[1], (byte[]) value[0], (Supplier<Object>) value[1], expiry);
    }

    /**
     * {@code [bytes, object]} of a stored form: Spark's bytes when the snapshot kept them (FULL, a
     * mutable type; a snapshot read from a file), else the object itself (FULL, an immutable type;
     * FAST), encoded here. The object is a supplier: bytes are decoded only for a difference's words.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Object[] canonical(Object storedForm, Encoder<?> encoder, boolean loaded) {
        Object stored = storedForm instanceof WrittenValue written ? written.readAs(encoder) : storedForm;
        KeyCodec codec = KeyCodec.of(encoder);
        if (stored instanceof byte[] bytes && (loaded || !codec.immutable())) {
            return new Object[] {bytes, (Supplier<Object>) () -> codec.decode(bytes)};
        }
        return new Object[] {codec.encode(stored), (Supplier<Object>) () -> stored};
    }

    @SuppressWarnings("unchecked")
    private static KeyCodec<Object> keyCodec(StateSnapshot.OperatorData s) {
        return KeyCodec.of((Encoder<Object>) s.keyEncoder());
    }

    private static StateSnapshot.Variable variable(StateSnapshot.OperatorData s, String name) {
        for (StateSnapshot.Variable v : s.variables()) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        return null;
    }

    private static long[] sorted(long[] timers) {
        if (timers == null) {
            return new long[0];
        }
        long[] copy = timers.clone();
        Arrays.sort(copy);
        return copy;
    }

    private static String timers(long[] timers) {
        if (timers.length == 0) {
            return "(none)";
        }
        List<String> parts = new ArrayList<>();
        for (long t : timers) {
            parts.add(instant(t));
        }
        return "[" + String.join(", ", parts) + "]";
    }

    static String instant(long ms) {
        return ms == StateVariable.NO_EXPIRY ? "never" : Instant.ofEpochMilli(ms).toString();
    }
}
