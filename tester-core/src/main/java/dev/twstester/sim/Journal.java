package dev.twstester.sim;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Undo log of one micro-batch. A failing batch commits nothing in Spark, so before the first
 * change of each (store, key) in a batch the store records how to put that key back.
 */
final class Journal {
    /** Per store (by identity), the keys already saved in this batch; the sets are reused. */
    private final Map<Object, Set<Bytes>> saved = new IdentityHashMap<>();
    private final Deque<Runnable> undo = new ArrayDeque<>();

    /** Records {@code restore} unless this store already saved {@code key} in this batch. */
    void remember(Object store, Bytes key, Runnable restore) {
        if (saved.computeIfAbsent(store, s -> new HashSet<>()).add(key)) {
            undo.push(restore);
        }
    }

    void rollback() {
        if (undo.isEmpty()) {
            return; // nothing saved: every set is empty
        }
        while (!undo.isEmpty()) {
            undo.pop().run();
        }
        clearSaved();
    }

    void commit() {
        if (undo.isEmpty()) {
            return; // nothing saved: every set is empty
        }
        undo.clear();
        clearSaved();
    }

    /** Small sets are cleared for reuse; a large one is dropped, so its table is not swept every batch. */
    private void clearSaved() {
        for (Map.Entry<Object, Set<Bytes>> e : saved.entrySet()) {
            if (e.getValue().size() > 64) {
                e.setValue(new HashSet<>());
            } else {
                e.getValue().clear();
            }
        }
    }
}
