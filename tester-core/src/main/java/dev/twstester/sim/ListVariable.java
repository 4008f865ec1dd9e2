package dev.twstester.sim;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.streaming.ListState;

import scala.jdk.javaapi.CollectionConverters;

/** A ListState variable: encoded elements in append order, each with its own expiration. */
final class ListVariable<T> extends StateVariable {
    private record Element(Object value, long expiry) implements java.io.Serializable {}

    private final Codec<T> codec;
    private final Map<Bytes, List<Element>> lists = new HashMap<>();

    ListVariable(String name, Codec<T> codec, long ttlMs, Scope scope, org.apache.spark.sql.Encoder<T> encoder) {
        super(name, ttlMs, scope, encoder);
        this.codec = codec;
    }

    @Override
    String kind() {
        return "list";
    }

    @Override
    Set<Bytes> keys() {
        return lists.keySet();
    }

    List<T> get(Bytes key) {
        List<T> out = new ArrayList<>();
        for (Element e : lists.getOrDefault(key, List.of())) {
            if (visible(e.expiry)) {
                out.add(codec.load(e.value));
            }
        }
        return out;
    }

    void put(Bytes key, List<T> values) {
        List<Element> encoded = encodeAll(values);
        remember(key);
        lists.put(key, encoded);
    }

    void append(Bytes key, List<T> values) {
        List<Element> encoded = encodeAll(values);
        remember(key);
        lists.computeIfAbsent(key, k -> new ArrayList<>()).addAll(encoded);
    }

    /** Appends one element with the expiration a checkpoint gave it (no journal: for {@link SnapshotBuilder}). */
    void appendRestored(Bytes key, T value, long expiry) {
        lists.computeIfAbsent(key, k -> new ArrayList<>()).add(new Element(codec.store(value), expiry));
    }

    /** A snapshot's elements of one key as {@code [stored form, expiry]} pairs, in append order, for {@link SnapshotBuilder}. */
    static List<Object[]> stored(Object keyData) {
        List<Object[]> out = new ArrayList<>();
        for (Object o : (List<?>) keyData) {
            Element e = (Element) o;
            out.add(new Object[] {e.value, e.expiry});
        }
        return out;
    }

    /** One key's data from a snapshot file: {@code [stored form, expiry]} pairs in append order, for {@link SnapshotReader}. */
    static Object keyData(List<Object[]> elements) {
        List<Element> out = new ArrayList<>(elements.size());
        elements.forEach(e -> out.add(new Element(e[0], (Long) e[1])));
        return out;
    }

    @Override
    void clearKey(Bytes key) {
        remember(key);
        lists.remove(key);
    }

    @Override
    int removeExpired(long batchTimestampMs) {
        if (ttlMs == 0) {
            return 0;
        }
        int removed = 0;
        for (var it = lists.entrySet().iterator(); it.hasNext();) {
            List<Element> list = it.next().getValue();
            int before = list.size();
            list.removeIf(e -> batchTimestampMs >= e.expiry);
            removed += before - list.size();
            if (list.isEmpty()) {
                it.remove();
            }
        }
        return removed;
    }

    @Override
    Map<Bytes, Object> copyData() {
        Map<Bytes, Object> copy = new HashMap<>();
        lists.forEach((k, v) -> copy.put(k, new ArrayList<>(v)));
        return copy;
    }

    @Override
    @SuppressWarnings("unchecked")
    void restoreData(Map<Bytes, Object> data) {
        lists.clear();
        data.forEach((k, v) -> lists.put(k, new ArrayList<>((List<Element>) v)));
    }

    @Override
    @SuppressWarnings("unchecked")
    Object convertKeyData(Object keyData, java.util.function.UnaryOperator<Object> value,
            java.util.function.UnaryOperator<Object> mapKey) {
        List<Element> converted = new ArrayList<>();
        for (Element e : (List<Element>) keyData) {
            converted.add(new Element(value.apply(e.value), e.expiry));
        }
        return converted;
    }

    @Override
    boolean sameKeyData(Object a, Object b) {
        if (!(a instanceof List<?> x) || !(b instanceof List<?> y) || x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            Element e = (Element) x.get(i);
            Element f = (Element) y.get(i);
            if (e.expiry != f.expiry || !sameStored(e.value, f.value)) {
                return false;
            }
        }
        return true;
    }

    private List<Element> encodeAll(List<T> values) {
        long expiry = expiryForWrite();
        List<Element> encoded = new ArrayList<>(values.size());
        for (T v : values) {
            encoded.add(new Element(codec.store(v), expiry));
        }
        return encoded;
    }

    private void remember(Bytes key) {
        if (!scope.journal().firstWrite(this, key)) {
            return;
        }
        List<Element> before = lists.containsKey(key) ? new ArrayList<>(lists.get(key)) : null;
        scope.journal().push(() -> {
            if (before == null) {
                lists.remove(key);
            } else {
                lists.put(key, before);
            }
        });
    }

    /** Spark's validateNewState: a non-null, non-empty array of non-null elements. */
    private List<T> validated(Object array) {
        requireNonNull(array, name);
        if (!array.getClass().isArray()) {
            throw new IllegalArgumentException("ListState." + name + ": expected a Java array (T[]), got "
                    + array.getClass().getName());
        }
        int n = Array.getLength(array);
        if (n == 0) {
            throw SparkErrors.emptyList(name);
        }
        List<T> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            @SuppressWarnings("unchecked")
            T v = (T) Array.get(array, i);
            requireNonNull(v, name);
            values.add(v);
        }
        return values;
    }

    /** The {@link ListState} a processor gets from {@code getListState} in {@code init}. */
    ListState<T> view() {
        return new ListState<>() {
            @Override
            public boolean exists() {
                return !ListVariable.this.get(scope.requireKey(name)).isEmpty();
            }

            @Override
            public scala.collection.Iterator<T> get() {
                return CollectionConverters.asScala(ListVariable.this.get(scope.requireKey(name)).iterator());
            }

            @Override
            public void put(Object newState) {
                List<T> values = validated(newState);
                ListVariable.this.put(scope.requireKey(name), values);
                if (ttlMs == 0) {
                    metrics().reset(Metric.UPDATED_STATE_ROWS); // as Spark's ListStateImpl.put does
                }
                metrics().add(Metric.UPDATED_STATE_ROWS, values.size());
            }

            @Override
            public void appendValue(T newState) {
                requireNonNull(newState, name);
                append(scope.requireKey(name), List.of(newState));
                metrics().add(Metric.UPDATED_STATE_ROWS, 1);
            }

            @Override
            public void appendList(Object newState) {
                List<T> values = validated(newState);
                append(scope.requireKey(name), values);
                metrics().add(Metric.UPDATED_STATE_ROWS, values.size());
            }

            @Override
            public void clear() {
                Bytes key = scope.requireKey(name);
                metrics().add(Metric.REMOVED_STATE_ROWS, lists.getOrDefault(key, List.of()).size());
                clearKey(key);
            }
        };
    }
}
