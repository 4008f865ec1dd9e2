package dev.twstester.sim;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.streaming.ValueState;

/** A ValueState variable: one encoded value (and expiration) per grouping key. */
final class ValueVariable<T> extends StateVariable {
    private record Entry(Object value, long expiry) implements java.io.Serializable {}

    private final Codec<T> codec;
    private final Map<Bytes, Entry> entries = new HashMap<>();

    ValueVariable(String name, Codec<T> codec, long ttlMs, Scope scope, org.apache.spark.sql.Encoder<T> encoder) {
        super(name, ttlMs, scope, encoder);
        this.codec = codec;
    }

    @Override
    String kind() {
        return "value";
    }

    @Override
    Set<Bytes> keys() {
        return entries.keySet();
    }

    T get(Bytes key) {
        Entry e = entries.get(key);
        return e == null || !visible(e.expiry) ? null : codec.load(e.value);
    }

    void put(Bytes key, T value) {
        write(key, new Entry(codec.store(value), expiryForWrite()));
    }

    /** Stores {@code after} for {@code key}, journaled; returns the entry it replaced, or null. */
    private Entry write(Bytes key, Entry after) {
        Entry before = entries.put(key, after);
        remember(key, before);
        return before;
    }

    /** Stores {@code value} for {@code key} with the expiration a checkpoint gave it (no journal: for {@link SnapshotBuilder}). */
    void putRestored(Bytes key, T value, long expiry) {
        entries.put(key, new Entry(codec.store(value), expiry));
    }

    /** A snapshot's stored form of one key's value (visible or not) and its expiration, for {@link SnapshotBuilder}. */
    static Object[] stored(Object keyData) {
        return keyData instanceof Entry e ? new Object[] {e.value, e.expiry} : null;
    }

    /** One key's data from a snapshot file: the stored form and its expiration, for {@link SnapshotReader}. */
    static Object keyData(Object stored, long expiry) {
        return new Entry(stored, expiry);
    }

    @Override
    void clearKey(Bytes key) {
        remember(key, entries.remove(key));
    }

    @Override
    int removeExpired(long batchTimestampMs) {
        if (ttlMs == 0) {
            return 0;
        }
        int[] removed = {0};
        entries.entrySet().removeIf(e -> {
            boolean expired = batchTimestampMs >= e.getValue().expiry;
            removed[0] += expired ? 1 : 0;
            return expired;
        });
        return removed[0];
    }

    @Override
    Map<Bytes, Object> copyData() {
        return new HashMap<>(entries);
    }

    @Override
    void restoreData(Map<Bytes, Object> data) {
        entries.clear();
        data.forEach((k, v) -> entries.put(k, (Entry) v));
    }

    @Override
    Object convertKeyData(Object keyData, java.util.function.UnaryOperator<Object> value,
            java.util.function.UnaryOperator<Object> mapKey) {
        Entry e = (Entry) keyData;
        return new Entry(value.apply(e.value), e.expiry);
    }

    @Override
    boolean sameKeyData(Object a, Object b) {
        return a instanceof Entry x && b instanceof Entry y && x.expiry == y.expiry && sameStored(x.value, y.value);
    }

    /** Journals {@code key}'s entry before this batch's first change of it ({@code before}: what the change replaced). */
    private void remember(Bytes key, Entry before) {
        if (!scope.journal().firstWrite(this, key)) {
            return;
        }
        scope.journal().push(() -> {
            if (before == null) {
                entries.remove(key);
            } else {
                entries.put(key, before);
            }
        });
    }

    /** The {@link ValueState} a processor gets from {@code getValueState} in {@code init}. */
    ValueState<T> view() {
        return new ValueState<>() {
            @Override
            public boolean exists() {
                return get() != null;
            }

            @Override
            public T get() {
                return ValueVariable.this.get(scope.requireKey(name));
            }

            @Override
            public void update(T newState) {
                Bytes key = scope.requireKey(name);
                Entry after = new Entry(codec.store(newState), expiryForWrite());
                Entry before = write(key, after);
                // with TTL Spark rewrites (and counts) only a changed value or expiration
                if (ttlMs == 0 || before == null || before.expiry != after.expiry || !sameStored(before.value, after.value)) {
                    metrics().add(Metric.UPDATED_STATE_ROWS, 1);
                }
            }

            @Override
            public void clear() {
                Bytes key = scope.requireKey(name);
                if (ttlMs == 0 || entries.containsKey(key)) {
                    metrics().add(Metric.REMOVED_STATE_ROWS, 1);
                }
                clearKey(key);
            }
        };
    }
}
