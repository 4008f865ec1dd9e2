package dev.twstester.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Undo log of one micro-batch. A failing batch commits nothing in Spark, so before the first
 * change of each (store, key) in a batch the store records how to put that key back:
 * <pre>{@code
 * if (journal.firstWrite(this, key)) {
 *     Entry before = entries.get(key);
 *     journal.push(() -> entries.put(key, before));
 * }
 * }</pre>
 */
final class Journal {
    /** The first few (store, key) pairs saved in this batch, searched in order: most batches save few. */
    private static final int FEW = 4;
    private final Object[] fewStores = new Object[FEW];
    private final Bytes[] fewKeys = new Bytes[FEW];
    private int few;
    /** Per store (by identity), the keys saved in this batch past the first few; the sets are reused. */
    private final Map<Object, Set<Bytes>> saved = new IdentityHashMap<>();
    /** The stores that saved a key in {@link #saved} in this batch, whose sets the commit clears. */
    private final List<Object> written = new ArrayList<>();
    private final List<Runnable> undo = new ArrayList<>();

    /** Records {@code restore} unless this store already saved {@code key} in this batch. */
    void remember(Object store, Bytes key, Runnable restore) {
        if (firstWrite(store, key)) {
            push(restore);
        }
    }

    /**
     * Whether this is {@code store}'s first change of {@code key} in this batch; when it is, the
     * caller must {@link #push} how to put the key back.
     */
    boolean firstWrite(Object store, Bytes key) {
        for (int i = 0; i < few; i++) {
            if (fewStores[i] == store && fewKeys[i].equals(key)) {
                return false;
            }
        }
        if (few < FEW) {
            fewStores[few] = store;
            fewKeys[few++] = key;
            return true;
        }
        Set<Bytes> keys = saved.computeIfAbsent(store, s -> new HashSet<>());
        if (!keys.add(key)) {
            return false;
        }
        if (keys.size() == 1) {
            written.add(store);
        }
        return true;
    }

    /** Records how to undo a first write ({@link #firstWrite}). */
    void push(Runnable restore) {
        undo.add(restore);
    }

    void rollback() {
        for (int i = undo.size() - 1; i >= 0; i--) {
            undo.get(i).run();
        }
        commit();
    }

    void commit() {
        undo.clear();
        Arrays.fill(fewStores, 0, few, null);
        Arrays.fill(fewKeys, 0, few, null);
        few = 0;
        for (Object store : written) {
            Set<Bytes> keys = saved.get(store);
            if (keys.size() > 64) {
                saved.put(store, new HashSet<>()); // a large set is dropped, so its table is not swept every batch
            } else {
                keys.clear();
            }
        }
        written.clear();
    }
}
