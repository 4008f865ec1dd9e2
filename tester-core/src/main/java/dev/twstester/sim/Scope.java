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

    Bytes requireKey(String stateName) {
        if (key == null) {
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
