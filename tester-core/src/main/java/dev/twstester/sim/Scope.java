package dev.twstester.sim;

import dev.twstester.internal.Sneaky;

/**
 * What the running micro-batch exposes to state variables: the implicit grouping key (Spark
 * keeps it in a thread local), the batch timestamp that TTL reads and writes use, the running
 * task's metrics and the undo journal. Outside a batch the key is null and the timestamp is the
 * simulator's clock. One per operator's state store; only the store's owner moves it
 * ({@link OperatorStore}), everything else reads it.
 */
final class Scope {
    private final Journal journal = new Journal();
    private Bytes key;
    /** The implicit key is a null grouping key: Spark keeps none, so every state access fails. */
    private boolean nullKey;
    private long batchTimestampMs;
    /** The running task's metrics; {@link Metrics#DISCARD} outside a batch. */
    private Metrics metrics = Metrics.DISCARD;
    /** Keys are ordered as Spark's Avro state encoding orders them in RocksDB ({@link AvroKeyOrder}). */
    private boolean avroKeyOrder;

    Journal journal() {
        return journal;
    }

    /** The implicit key, or null outside a key's handler call. */
    Bytes key() {
        return key;
    }

    /**
     * The implicit key for an access to {@code stateName}; Spark's {@code implicitKeyNotFound} with no
     * key, and with a null grouping key (Spark's tracker holds {@code Option(key)}, empty for null).
     */
    Bytes requireKey(String stateName) {
        if (key == null || nullKey) {
            // Spark's StateStoreErrors.implicitKeyNotFound
            throw Sneaky.raise(org.apache.spark.SparkException.internalError(
                    "Implicit key not found in state store for stateName=" + stateName, "TWS"));
        }
        return key;
    }

    long batchTimestampMs() {
        return batchTimestampMs;
    }

    Metrics metrics() {
        return metrics;
    }

    boolean avroKeyOrder() {
        return avroKeyOrder;
    }

    /** Sets the implicit key (null: none). */
    void enter(Bytes key) {
        this.key = key;
        this.nullKey = false;
    }

    /**
     * Sets the implicit key of a handler call whose grouping key object is null: the call runs, and
     * any state or timer access in it fails as Spark's does.
     */
    void enterNullKey(Bytes key) {
        this.key = key;
        this.nullKey = true;
    }

    void batchTimestamp(long ms) {
        this.batchTimestampMs = ms;
    }

    /** The counters the next state operations add to ({@link Metrics#DISCARD}: none). */
    void countInto(Metrics task) {
        this.metrics = task;
    }

    void orderKeysAsAvro(boolean avro) {
        this.avroKeyOrder = avro;
    }
}
