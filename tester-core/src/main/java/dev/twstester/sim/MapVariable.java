package dev.twstester.sim;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.spark.sql.streaming.MapState;

import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A MapState variable. Entries of one grouping key are kept sorted by the bytes RocksDB orders
 * them by (the map key as a nested row), which is the order {@code iterator()} returns.
 */
final class MapVariable<MK, MV> extends StateVariable {
    private record Entry(Object key, Object value, long expiry) implements java.io.Serializable {}

    private final KeyCodec<MK> keyBytes;
    private final Codec<MK> keyCodec;
    private final Codec<MV> valueCodec;
    private final Map<Bytes, TreeMap<Bytes, Entry>> maps = new HashMap<>();
    /**
     * TTL-index entries that {@code removeKey} leaves behind (Spark's {@code MapStateImplWithTTL.removeKey}
     * deletes only the row): at their expiry they evict whatever row the map key has then, and count.
     */
    private final Map<Bytes, Set<Stale>> stale = new HashMap<>();

    /** A leftover TTL-index entry: the map key's sort bytes and the expiry it was indexed at. */
    private record Stale(Bytes order, long expiry) implements java.io.Serializable {}

    /** One grouping key's data in a snapshot. */
    private record KeyData(TreeMap<Bytes, Entry> entries, Set<Stale> stale) implements java.io.Serializable {}

    /**
     * Obtained with the name of a value or list variable: Spark's {@code getMapState} does not check
     * for duplicates, and the map's column family keeps the first variable's key encoder, which has
     * no prefix. Point operations work on the map's own entries; every operation that scans a key's
     * entries ({@code exists}, {@code iterator}, {@code keys}, {@code values}, {@code clear}) fails
     * with the store's "Prefix scan requires setting prefix key!", even with nothing stored.
     */
    final boolean sharesName;

    MapVariable(String name, KeyCodec<MK> keyBytes, Codec<MK> keyCodec, Codec<MV> valueCodec, long ttlMs, Scope scope,
            org.apache.spark.sql.Encoder<MK> keyEncoder, org.apache.spark.sql.Encoder<MV> valueEncoder,
            boolean sharesName) {
        super(name, ttlMs, scope, keyEncoder, valueEncoder);
        this.keyBytes = keyBytes;
        this.keyCodec = keyCodec;
        this.valueCodec = valueCodec;
        this.sharesName = sharesName;
    }

    /** The scan of a key's entries, which fails as Spark's store fails it for a map that {@link #sharesName}. */
    private Bytes scanKey() {
        Bytes key = scope.requireKey(name);
        if (sharesName) {
            throw new IllegalArgumentException("requirement failed: Prefix scan requires setting prefix key!");
        }
        return key;
    }

    @Override
    String kind() {
        return "map";
    }

    @Override
    Set<Bytes> keys() {
        return maps.keySet();
    }

    /** Visible entries of one grouping key in iteration order. */
    LinkedHashMap<MK, MV> get(Bytes key) {
        LinkedHashMap<MK, MV> out = new LinkedHashMap<>();
        for (Entry e : maps.getOrDefault(key, new TreeMap<>()).values()) {
            if (visible(e.expiry)) {
                out.put(keyCodec.load(e.key), valueCodec.load(e.value));
            }
        }
        return out;
    }

    MV getValue(Bytes key, MK mapKey) {
        TreeMap<Bytes, Entry> map = maps.get(key);
        Entry e = map == null ? null : map.get(sortKey(mapKey));
        return e == null || !visible(e.expiry) ? null : valueCodec.load(e.value);
    }

    void put(Bytes key, MK mapKey, MV value) {
        Bytes order = sortKey(mapKey);
        Entry entry = new Entry(keyCodec.store(mapKey), valueCodec.store(value), expiryForWrite());
        remember(key);
        maps.computeIfAbsent(key, x -> new TreeMap<>()).put(order, entry);
        Set<Stale> left = stale.get(key);
        if (left != null && left.remove(new Stale(order, entry.expiry)) && left.isEmpty()) {
            stale.remove(key); // the same index entry again: the row owns it now
        }
    }

    /** {@code removeKey} from a processor: with TTL, the row's index entry stays behind, as in Spark. */
    void removeLeavingIndex(Bytes key, MK mapKey) {
        Bytes order = sortKey(mapKey);
        TreeMap<Bytes, Entry> map = maps.get(key);
        Entry existing = map == null ? null : map.get(order);
        remove(key, mapKey);
        if (ttlMs > 0 && existing != null) {
            stale.computeIfAbsent(key, k -> new HashSet<>()).add(new Stale(order, existing.expiry));
        }
    }

    void remove(Bytes key, MK mapKey) {
        Bytes order = sortKey(mapKey);
        remember(key);
        TreeMap<Bytes, Entry> map = maps.get(key);
        if (map != null) {
            map.remove(order);
            if (map.isEmpty()) {
                maps.remove(key);
            }
        }
    }

    /** Stores one entry with the expiration a checkpoint gave it (no journal: for {@link SnapshotBuilder}). */
    void putRestored(Bytes key, MK mapKey, MV value, long expiry) {
        maps.computeIfAbsent(key, x -> new TreeMap<>())
                .put(sortKey(mapKey), new Entry(keyCodec.store(mapKey), valueCodec.store(value), expiry));
    }

    /**
     * A snapshot's entries of one key as {@code [stored map key, stored value, expiry]}, in iteration order, for
     * {@link SnapshotBuilder}; TTL-index entries left behind by {@code removeKey} are not state a
     * checkpoint reader sees and are left out.
     */
    static java.util.List<Object[]> stored(Object keyData) {
        java.util.List<Object[]> out = new java.util.ArrayList<>();
        for (Entry e : ((KeyData) keyData).entries().values()) {
            out.add(new Object[] {e.key, e.value, e.expiry});
        }
        return out;
    }

    /** One key's entries as {@code [order bytes, stored map key, stored value, expiry]} in iteration order, for {@link SnapshotWriter}. */
    static java.util.List<Object[]> storedWithOrder(Object keyData) {
        java.util.List<Object[]> out = new java.util.ArrayList<>();
        ((KeyData) keyData).entries().forEach((order, e) -> out.add(new Object[] {order, e.key, e.value, e.expiry}));
        return out;
    }

    /** One key's TTL-index entries left behind by {@code removeKey}, as {@code [order bytes, expiry]}. */
    static java.util.List<Object[]> staleOf(Object keyData) {
        return ((KeyData) keyData).stale().stream().map(s -> new Object[] {s.order(), s.expiry()}).toList();
    }

    /** One key's data from a snapshot file, in the forms {@link #storedWithOrder} and {@link #staleOf} give. */
    static Object keyData(java.util.List<Object[]> entries, java.util.List<Object[]> stale) {
        TreeMap<Bytes, Entry> map = new TreeMap<>();
        entries.forEach(e -> map.put((Bytes) e[0], new Entry(e[1], e[2], (Long) e[3])));
        Set<Stale> left = new HashSet<>();
        stale.forEach(s -> left.add(new Stale((Bytes) s[0], (Long) s[1])));
        return new KeyData(map, left);
    }

    @Override
    void clearKey(Bytes key) {
        remember(key);
        maps.remove(key);
    }

    @Override
    int removeExpired(long batchTimestampMs) {
        if (ttlMs == 0) {
            return 0;
        }
        int removed = 0;
        for (var it = stale.entrySet().iterator(); it.hasNext();) {
            var e = it.next();
            TreeMap<Bytes, Entry> map = maps.get(e.getKey());
            for (var s = e.getValue().iterator(); s.hasNext();) {
                Stale left = s.next();
                if (batchTimestampMs < left.expiry) {
                    continue;
                }
                s.remove();
                removed++; // Spark removes the row and counts, whether or not a row is there
                Entry row = map == null ? null : map.remove(left.order);
                if (row != null && batchTimestampMs >= row.expiry) {
                    removed++; // the row's own index entry is due too and counts again
                }
            }
            if (map != null && map.isEmpty()) {
                maps.remove(e.getKey());
            }
            if (e.getValue().isEmpty()) {
                it.remove();
            }
        }
        for (var it = maps.entrySet().iterator(); it.hasNext();) {
            TreeMap<Bytes, Entry> map = it.next().getValue();
            int before = map.size();
            map.values().removeIf(e -> batchTimestampMs >= e.expiry);
            removed += before - map.size();
            if (map.isEmpty()) {
                it.remove();
            }
        }
        return removed;
    }

    @Override
    Map<Bytes, Object> copyData() {
        Map<Bytes, Object> copy = new HashMap<>();
        Set<Bytes> keys = new HashSet<>(maps.keySet());
        keys.addAll(stale.keySet());
        for (Bytes k : keys) {
            copy.put(k, new KeyData(new TreeMap<>(maps.getOrDefault(k, new TreeMap<>())),
                    new HashSet<>(stale.getOrDefault(k, Set.of()))));
        }
        return copy;
    }

    @Override
    void restoreData(Map<Bytes, Object> data) {
        maps.clear();
        stale.clear();
        data.forEach((k, v) -> {
            KeyData d = (KeyData) v;
            if (!d.entries().isEmpty()) {
                maps.put(k, new TreeMap<>(d.entries()));
            }
            if (!d.stale().isEmpty()) {
                stale.put(k, new HashSet<>(d.stale()));
            }
        });
    }

    @Override
    Object convertKeyData(Object keyData, java.util.function.UnaryOperator<Object> value,
            java.util.function.UnaryOperator<Object> mapKey) {
        KeyData d = (KeyData) keyData;
        TreeMap<Bytes, Entry> entries = new TreeMap<>();
        d.entries().forEach((order, e) -> entries.put(order,
                new Entry(mapKey.apply(e.key), value.apply(e.value), e.expiry)));
        return new KeyData(entries, new HashSet<>(d.stale()));
    }

    @Override
    boolean sameKeyData(Object a, Object b) {
        if (!(a instanceof KeyData p) || !(b instanceof KeyData q) || !p.stale().equals(q.stale())) {
            return false;
        }
        TreeMap<Bytes, Entry> x = p.entries();
        TreeMap<Bytes, Entry> y = q.entries();
        if (!x.keySet().equals(y.keySet())) {
            return false;
        }
        for (Object order : x.keySet()) {
            Entry e = (Entry) x.get(order);
            Entry f = (Entry) y.get(order);
            if (e.expiry != f.expiry || !sameStored(e.value, f.value)) {
                return false;
            }
        }
        return true;
    }

    /** Where RocksDB puts the map key: the bytes of its encoding as a nested row. */
    private Bytes sortKey(MK mapKey) {
        if (scope.avroKeyOrder()) {
            return new Bytes(AvroKeyOrder.bytes(encoders[0], keyBytes.encode(mapKey)));
        }
        return new Bytes(keyBytes.nestedBytes(keyBytes.encode(mapKey)));
    }

    private void remember(Bytes key) {
        if (!scope.journal().firstWrite(this, key)) {
            return;
        }
        TreeMap<Bytes, Entry> before = maps.containsKey(key) ? new TreeMap<>(maps.get(key)) : null;
        Set<Stale> staleBefore = stale.containsKey(key) ? new HashSet<>(stale.get(key)) : null;
        scope.journal().push(() -> {
            if (before == null) {
                maps.remove(key);
            } else {
                maps.put(key, before);
            }
            if (staleBefore == null) {
                stale.remove(key);
            } else {
                stale.put(key, staleBefore);
            }
        });
    }

    /** The {@link MapState} a processor gets from {@code getMapState} in {@code init}. */
    MapState<MK, MV> view() {
        return new MapState<>() {
            private Bytes key() {
                return scope.requireKey(name);
            }

            @Override
            public boolean exists() {
                return !get(scanKey()).isEmpty();
            }

            @Override
            public MV getValue(MK mapKey) {
                requireNonNull(mapKey, name);
                return MapVariable.this.getValue(key(), mapKey);
            }

            @Override
            public boolean containsKey(MK mapKey) {
                return getValue(mapKey) != null;
            }

            @Override
            public void updateValue(MK mapKey, MV value) {
                requireNonNull(mapKey, name);
                requireNonNull(value, name);
                Bytes key = key();
                Bytes order = sortKey(mapKey);
                Entry before = maps.containsKey(key) ? maps.get(key).get(order) : null;
                put(key, mapKey, value);
                Entry after = maps.get(key).get(order);
                // with TTL Spark rewrites (and counts) only a changed value or expiration
                if (ttlMs == 0 || before == null || before.expiry != after.expiry || !sameStored(before.value, after.value)) {
                    metrics().add(Metric.UPDATED_STATE_ROWS, 1);
                }
            }

            @Override
            public scala.collection.Iterator<Tuple2<MK, MV>> iterator() {
                return CollectionConverters.asScala(get(scanKey()).entrySet().stream()
                        .map(e -> new Tuple2<>(e.getKey(), e.getValue())).iterator());
            }

            @Override
            public scala.collection.Iterator<MK> keys() {
                return CollectionConverters.asScala(get(scanKey()).keySet().iterator());
            }

            @Override
            public scala.collection.Iterator<MV> values() {
                return CollectionConverters.asScala(get(scanKey()).values().iterator());
            }

            @Override
            public void removeKey(MK mapKey) {
                requireNonNull(mapKey, name);
                removeLeavingIndex(key(), mapKey);
                metrics().add(Metric.REMOVED_STATE_ROWS, 1);
            }

            @Override
            public void clear() {
                Bytes key = scanKey();
                metrics().add(Metric.REMOVED_STATE_ROWS, maps.containsKey(key) ? maps.get(key).size() : 0);
                clearKey(key);
            }
        };
    }
}
