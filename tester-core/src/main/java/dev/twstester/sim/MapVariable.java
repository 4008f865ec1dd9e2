package dev.twstester.sim;

import dev.twstester.internal.RowCodec;
import java.util.HashMap;
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
    private record Entry(byte[] key, byte[] value, long expiry) {}

    private final RowCodec<MK> keyCodec;
    private final RowCodec<MV> valueCodec;
    private final Map<Bytes, TreeMap<Bytes, Entry>> maps = new HashMap<>();

    MapVariable(String name, RowCodec<MK> keyCodec, RowCodec<MV> valueCodec, long ttlMs, Scope scope) {
        super(name, ttlMs, scope);
        this.keyCodec = keyCodec;
        this.valueCodec = valueCodec;
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
                out.put(keyCodec.decode(e.key), valueCodec.decode(e.value));
            }
        }
        return out;
    }

    MV getValue(Bytes key, MK mapKey) {
        TreeMap<Bytes, Entry> map = maps.get(key);
        Entry e = map == null ? null : map.get(sortKey(keyCodec.encode(mapKey)));
        return e == null || !visible(e.expiry) ? null : valueCodec.decode(e.value);
    }

    void put(Bytes key, MK mapKey, MV value) {
        byte[] k = keyCodec.encode(mapKey);
        byte[] v = valueCodec.encode(value);
        remember(key);
        maps.computeIfAbsent(key, x -> new TreeMap<>()).put(sortKey(k), new Entry(k, v, expiryForWrite()));
    }

    void remove(Bytes key, MK mapKey) {
        byte[] k = keyCodec.encode(mapKey);
        remember(key);
        TreeMap<Bytes, Entry> map = maps.get(key);
        if (map != null) {
            map.remove(sortKey(k));
            if (map.isEmpty()) {
                maps.remove(key);
            }
        }
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

    private Bytes sortKey(byte[] encodedMapKey) {
        return new Bytes(keyCodec.nestedBytes(encodedMapKey));
    }

    private void remember(Bytes key) {
        TreeMap<Bytes, Entry> before = maps.containsKey(key) ? new TreeMap<>(maps.get(key)) : null;
        scope.journal.remember(this, key, () -> {
            if (before == null) {
                maps.remove(key);
            } else {
                maps.put(key, before);
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
                return !get(key()).isEmpty();
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
                put(key(), mapKey, value);
            }

            @Override
            public scala.collection.Iterator<Tuple2<MK, MV>> iterator() {
                return CollectionConverters.asScala(get(key()).entrySet().stream()
                        .map(e -> new Tuple2<>(e.getKey(), e.getValue())).iterator());
            }

            @Override
            public scala.collection.Iterator<MK> keys() {
                return CollectionConverters.asScala(get(key()).keySet().iterator());
            }

            @Override
            public scala.collection.Iterator<MV> values() {
                return CollectionConverters.asScala(get(key()).values().iterator());
            }

            @Override
            public void removeKey(MK mapKey) {
                requireNonNull(mapKey, name);
                remove(key(), mapKey);
            }

            @Override
            public void clear() {
                clearKey(key());
            }
        };
    }
}
