package dev.twstester.sim;

import java.util.Map;
import java.util.function.Function;

import org.apache.spark.sql.streaming.TimeMode;

/**
 * The narrow way into one operator's state store from outside a batch, for {@link StateView} and
 * {@link SnapshotBuilder}: its variables and timers, its key encoding, and operations run with a
 * key as the implicit key. Writes are kept by {@link #commit()}.
 *
 * @param <K> the operator's grouping key type
 */
interface StateAccess<K> {
    /** The state variables by name, in definition order (read-only). */
    Map<String, StateVariable> variables();

    TimerStore timers();

    KeyCodec<K> keyCodec();

    /** The operator's time mode: timers exist only in ProcessingTime and EventTime. */
    TimeMode timeMode();

    /**
     * Runs {@code action} with {@code key} as the implicit grouping key and {@code timestampMs} as
     * the batch timestamp (which TTL reads and writes use); {@code action} gets the encoded key.
     */
    <R> R atKey(K key, long timestampMs, Function<Bytes, R> action);

    /** Keeps every change made since the last commit (a write outside a batch is committed at once). */
    void commit();
}
