package dev.twstester.sim;

import java.util.Set;

/** The stored data of one state variable across all keys, as the state store keeps it. */
abstract class StateVariable {
    static final long NO_EXPIRY = Long.MAX_VALUE;

    final String name;
    final long ttlMs;
    final Scope scope;

    StateVariable(String name, long ttlMs, Scope scope) {
        this.name = name;
        this.ttlMs = ttlMs;
        this.scope = scope;
    }

    /** "value", "list" or "map": the kind as users name it. */
    abstract String kind();

    /** Keys that have any stored entry (expired ones included until cleanup). */
    abstract Set<Bytes> keys();

    /** Removes entries with expiration at or before {@code batchTimestampMs}; returns how many. */
    abstract int removeExpired(long batchTimestampMs);

    /** Removes everything stored under {@code key}. */
    abstract void clearKey(Bytes key);

    /** The expiration a write at the current batch gets. */
    long expiryForWrite() {
        return ttlMs > 0 ? scope.batchTimestampMs + ttlMs : NO_EXPIRY;
    }

    /** Spark's {@code StateTTL.isExpired}: expired once the batch timestamp reaches the expiration. */
    boolean visible(long expiry) {
        return !(scope.batchTimestampMs >= expiry);
    }

    static void requireNonNull(Object value, String stateName) {
        if (value == null) {
            throw SparkErrors.nullValue(stateName);
        }
    }
}
