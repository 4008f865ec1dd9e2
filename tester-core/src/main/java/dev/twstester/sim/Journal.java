package dev.twstester.sim;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Undo log of one micro-batch. A failing batch commits nothing in Spark, so before the first
 * change of each (store, key) in a batch the store records how to put that key back.
 */
final class Journal {
    private final Set<List<Object>> saved = new HashSet<>();
    private final Deque<Runnable> undo = new ArrayDeque<>();

    /** Records {@code restore} unless this store already saved {@code key} in this batch. */
    void remember(Object store, Bytes key, Runnable restore) {
        if (saved.add(List.of(store, key))) {
            undo.push(restore);
        }
    }

    void rollback() {
        while (!undo.isEmpty()) {
            undo.pop().run();
        }
        saved.clear();
    }

    void commit() {
        undo.clear();
        saved.clear();
    }
}
