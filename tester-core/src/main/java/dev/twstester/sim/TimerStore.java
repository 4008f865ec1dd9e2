package dev.twstester.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Registered timers, indexed the two ways Spark's {@code TimerStateImpl} indexes them: per key
 * (listed in the unsigned order of the expiry's little-endian bytes, the order of the UnsafeRow
 * bytes RocksDB scans) and by expiry across keys (ties ordered by the encoded key's bytes).
 */
final class TimerStore {
    /** A timer in the by-expiry index. */
    record Timer(long expiry, Bytes order, Bytes key) {}

    /** {@code listTimers()} order: unsigned comparison of the little-endian bytes. */
    static final Comparator<Long> LIST_ORDER =
            (a, b) -> Long.compareUnsigned(Long.reverseBytes(a), Long.reverseBytes(b));

    /** By expiry, then by the key's order bytes (one comparator: the index compares on every change). */
    private static final Comparator<Timer> FIRE_ORDER = (a, b) -> {
        int byExpiry = Long.compare(a.expiry(), b.expiry());
        return byExpiry != 0 ? byExpiry : a.order().compareTo(b.order());
    };

    private final Map<Bytes, TreeSet<Long>> byKey = new HashMap<>();
    private final TreeSet<Timer> byExpiry = new TreeSet<>(FIRE_ORDER);
    private final Map<Bytes, Bytes> orderOfKey = new HashMap<>();
    private final KeyCodec<?> keyCodec;
    private final Journal journal;
    /** With Spark's Avro state encoding, the grouping key's encoder (keys ordered by {@link AvroKeyOrder}); else null. */
    private org.apache.spark.sql.Encoder<?> avroKeys;

    TimerStore(KeyCodec<?> keyCodec, Journal journal) {
        this.keyCodec = keyCodec;
        this.journal = journal;
    }

    /**
     * Orders timers as RocksDB does with Spark's Avro state encoding ({@code keyEncoder} not null)
     * or with UnsafeRow bytes (null); the timers kept are re-indexed.
     */
    void avroOrder(org.apache.spark.sql.Encoder<?> keyEncoder) {
        if (byExpiry.isEmpty()) { // nothing to re-index (a new store)
            avroKeys = keyEncoder;
            orderOfKey.clear();
            return;
        }
        Map<Bytes, long[]> data = copyData();
        avroKeys = keyEncoder;
        orderOfKey.clear();
        restoreData(data);
    }

    private Comparator<Long> listOrder() {
        return avroKeys != null ? AvroKeyOrder.LIST_ORDER : LIST_ORDER;
    }

    /** Registers; a second registration of the same key and expiry is a no-op, as in Spark. */
    void register(Bytes key, long expiry) {
        if (!byKey.containsKey(key) || !byKey.get(key).contains(expiry)) {
            remember(key);
            byKey.computeIfAbsent(key, k -> new TreeSet<>(listOrder())).add(expiry);
            byExpiry.add(new Timer(expiry, order(key), key));
        }
    }

    /** Deletes; deleting a timer that does not exist is a no-op, as in Spark. */
    void delete(Bytes key, long expiry) {
        TreeSet<Long> timers = byKey.get(key);
        if (timers != null && timers.contains(expiry)) {
            remember(key);
            timers.remove(expiry);
            if (timers.isEmpty()) {
                byKey.remove(key);
            }
            byExpiry.remove(new Timer(expiry, order(key), key));
        }
    }

    /** A key's timers in {@code listTimers()} order. */
    List<Long> list(Bytes key) {
        TreeSet<Long> timers = byKey.get(key);
        return timers == null ? List.of() : new ArrayList<>(timers);
    }

    /** Snapshot of every timer with expiry at or below {@code threshold}, in firing order. */
    List<Timer> expired(long threshold) {
        if (byExpiry.isEmpty() || byExpiry.first().expiry() > threshold) {
            return List.of();
        }
        List<Timer> due = new ArrayList<>();
        for (Timer t : byExpiry) {
            if (t.expiry() > threshold) {
                break;
            }
            due.add(t);
        }
        return due;
    }

    /**
     * The legacy operator's timed-out state rows: every timer with expiry strictly before
     * {@code threshold}, in the order the state store iterates its rows (ascending encoded key
     * bytes, unsigned, as RocksDB keeps them), not by expiry.
     */
    List<Timer> timedOut(long threshold) {
        List<Timer> due = new ArrayList<>();
        for (Timer t : byExpiry) {
            if (t.expiry() >= threshold) {
                break;
            }
            due.add(t);
        }
        due.sort(Comparator.comparing(Timer::key));
        return due;
    }

    Set<Bytes> keys() {
        return byKey.keySet();
    }

    /** Every key's timers, for snapshots. */
    Map<Bytes, long[]> copyData() {
        Map<Bytes, long[]> copy = new HashMap<>();
        byKey.forEach((k, v) -> copy.put(k, v.stream().mapToLong(Long::longValue).toArray()));
        return copy;
    }

    /** Replaces all timers with a copy taken by {@link #copyData()}. */
    void restoreData(Map<Bytes, long[]> data) {
        byKey.clear();
        byExpiry.clear();
        data.forEach((key, expiries) -> {
            for (long t : expiries) {
                byKey.computeIfAbsent(key, k -> new TreeSet<>(listOrder())).add(t);
                byExpiry.add(new Timer(t, order(key), key));
            }
        });
    }

    int size() {
        return byExpiry.size();
    }

    private Bytes order(Bytes key) {
        return orderOfKey.computeIfAbsent(key, k -> new Bytes(avroKeys != null ? AvroKeyOrder.bytes(avroKeys, k.array())
                : keyCodec.nestedBytes(k.array())));
    }

    private void remember(Bytes key) {
        if (!journal.firstWrite(this, key)) {
            return;
        }
        List<Long> before = list(key);
        journal.push(() -> {
            for (Long t : list(key)) {
                byExpiry.remove(new Timer(t, order(key), key));
            }
            byKey.remove(key);
            for (Long t : before) {
                byKey.computeIfAbsent(key, k -> new TreeSet<>(listOrder())).add(t);
                byExpiry.add(new Timer(t, order(key), key));
            }
        });
    }
}
