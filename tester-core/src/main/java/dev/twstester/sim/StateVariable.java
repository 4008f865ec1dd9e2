package dev.twstester.sim;

import java.util.Set;

/** The stored data of one state variable across all keys, as the state store keeps it. */
abstract class StateVariable {
    static final long NO_EXPIRY = Long.MAX_VALUE;

    final String name;
    final long ttlMs;
    final Scope scope;

    StateVariable(String name, long ttlMs, Scope scope, org.apache.spark.sql.Encoder<?>... encoders) {
        this.name = name;
        this.ttlMs = ttlMs;
        this.scope = scope;
        this.encoders = encoders;
    }

    /** "value", "list" or "map": the kind as users name it. */
    abstract String kind();

    /** Keys that have any stored entry (expired ones included until cleanup). */
    abstract Set<Bytes> keys();

    /** Removes entries with expiration at or before {@code batchTimestampMs}; returns how many. */
    abstract int removeExpired(long batchTimestampMs);

    /** Removes everything stored under {@code key}. */
    abstract void clearKey(Bytes key);

    /** The encoders the variable was obtained with (value; or map key and value). */
    final org.apache.spark.sql.Encoder<?>[] encoders;

    /** A copy of all stored data by grouping key (stored forms, with expirations), for snapshots. */
    abstract java.util.Map<Bytes, Object> copyData();

    /** Replaces all stored data with a copy taken by {@link #copyData()}. */
    abstract void restoreData(java.util.Map<Bytes, Object> data);

    /**
     * {@code data} (as {@link #copyData()} returns it, from a variable of the same kind) with every
     * stored value replaced by {@code value.apply(it)} and, for map state, every stored map key by
     * {@code mapKey.apply(it)}; expirations and order stay. For a restart with a new version whose
     * encoders read the old values differently.
     */
    final java.util.Map<Bytes, Object> convertData(java.util.Map<Bytes, Object> data,
            java.util.function.UnaryOperator<Object> value, java.util.function.UnaryOperator<Object> mapKey) {
        java.util.Map<Bytes, Object> out = new java.util.HashMap<>();
        data.forEach((k, v) -> out.put(k, convertKeyData(v, value, mapKey)));
        return out;
    }

    /** One key's data of {@link #convertData}, converted the same way. */
    abstract Object convertKeyData(Object keyData, java.util.function.UnaryOperator<Object> value,
            java.util.function.UnaryOperator<Object> mapKey);

    /** Whether two copies of one key's data are the same stored bytes (or equal objects) and expirations. */
    abstract boolean sameKeyData(Object a, Object b);

    /** The running task's metrics (Spark's {@code TWSMetricsUtils} counters). */
    Metrics metrics() {
        return scope.metrics();
    }

    /** The expiration a write at the current batch gets. */
    long expiryForWrite() {
        return ttlMs > 0 ? scope.batchTimestampMs() + ttlMs : NO_EXPIRY;
    }

    /** Spark's {@code StateTTL.isExpired}: expired once the batch timestamp reaches the expiration. */
    boolean visible(long expiry) {
        return !(scope.batchTimestampMs() >= expiry);
    }

    /** Whether two stored forms are the same: equal bytes when encoded, equal objects when by reference. */
    static boolean sameStored(Object a, Object b) {
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return java.util.Arrays.equals(x, y);
        }
        return java.util.Objects.equals(a, b);
    }

    static void requireNonNull(Object value, String stateName) {
        if (value == null) {
            throw SparkErrors.nullValue(stateName);
        }
    }
}
