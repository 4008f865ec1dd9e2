package dev.twstester.sim;

import dev.twstester.internal.Sneaky;

/**
 * What the running micro-batch exposes to state variables: the implicit grouping key (Spark
 * keeps it in a thread local), the batch timestamp that TTL reads and writes use, and the undo
 * journal. Outside a batch the key is null and the timestamp is the simulator's clock.
 */
final class Scope {
    final Journal journal = new Journal();
    Bytes key;
    long batchTimestampMs;
    /** The running task's metrics; {@link Metrics#DISCARD} outside a batch. */
    Metrics metrics = Metrics.DISCARD;
    /** Keys are ordered as Spark's Avro state encoding orders them in RocksDB ({@link AvroKeyOrder}). */
    boolean avroKeyOrder;

    Bytes requireKey(String stateName) {
        if (key == null) {
            // Spark's StateStoreErrors.implicitKeyNotFound
            throw Sneaky.raise(org.apache.spark.SparkException.internalError(
                    "Implicit key not found in state store for stateName=" + stateName, "TWS"));
        }
        return key;
    }
}
