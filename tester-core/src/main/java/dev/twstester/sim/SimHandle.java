package dev.twstester.sim;

import java.time.Duration;
import java.util.UUID;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.QueryInfo;
import org.apache.spark.sql.streaming.StatefulProcessorHandle;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.ValueState;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The executor-side handle of one micro-batch (Spark's {@code StatefulProcessorHandleImpl}):
 * state variables only in {@code init}, timers only between input and close, TTL validated when
 * a variable is obtained, the same error classes as Spark.
 */
final class SimHandle implements StatefulProcessorHandle {
    private final StateStore store;
    private final UUID queryId;
    private final UUID runId;
    private final long batchId;
    /** Made at the first {@link #getQueryInfo()}: most processors never ask. */
    private QueryInfo queryInfo;
    HandleState state = HandleState.CREATED;

    /** The handle of a task of batch {@code batchId} of run {@code runId} of query {@code queryId}. */
    SimHandle(StateStore store, UUID queryId, UUID runId, long batchId) {
        this.store = store;
        this.queryId = queryId;
        this.runId = runId;
        this.batchId = batchId;
    }

    /** The store this handle works on (the legacy functions' adapter keeps its state there directly). */
    StateStore store() {
        return store;
    }

    @Override
    public <T> ValueState<T> getValueState(String name, Encoder<T> encoder, TTLConfig ttl) {
        return obtain("get_value_state", name, ttl, Metric.VALUE_STATE_VARS, Metric.VALUE_STATE_WITH_TTL_VARS,
                ttlMs -> store.readableWithAvro(store.value(name, encoder, ttlMs)).view());
    }

    @Override
    public <T> ValueState<T> getValueState(String name, TTLConfig ttl, Encoder<T> encoder) {
        return getValueState(name, encoder, ttl);
    }

    @Override
    public <T> ListState<T> getListState(String name, Encoder<T> encoder, TTLConfig ttl) {
        return obtain("get_list_state", name, ttl, Metric.LIST_STATE_VARS, Metric.LIST_STATE_WITH_TTL_VARS,
                ttlMs -> store.readableWithAvro(store.list(name, encoder, ttlMs)).view());
    }

    @Override
    public <T> ListState<T> getListState(String name, TTLConfig ttl, Encoder<T> encoder) {
        return getListState(name, encoder, ttl);
    }

    @Override
    public <MK, MV> MapState<MK, MV> getMapState(String name, Encoder<MK> keyEncoder, Encoder<MV> valueEncoder,
            TTLConfig ttl) {
        return obtain("get_map_state", name, ttl, Metric.MAP_STATE_VARS, Metric.MAP_STATE_WITH_TTL_VARS,
                ttlMs -> store.readableWithAvro(store.map(name, keyEncoder, valueEncoder, ttlMs)).view());
    }

    @Override
    public <MK, MV> MapState<MK, MV> getMapState(String name, TTLConfig ttl, Encoder<MK> keyEncoder,
            Encoder<MV> valueEncoder) {
        return getMapState(name, keyEncoder, valueEncoder, ttl);
    }

    /**
     * A state variable obtained through {@code api}: the handle's state checked, TTL validated, the
     * variable made or found, and the task's {@code metric} (or {@code withTtl}) counted.
     */
    private <V> V obtain(String api, String name, TTLConfig ttl, Metric metric, Metric withTtl,
            java.util.function.LongFunction<V> view) {
        verifyState(api);
        long ttlMs = ttlMs(name, ttl);
        V made = view.apply(ttlMs);
        store.scope().metrics().add(ttlMs > 0 ? withTtl : metric, 1);
        return made;
    }

    @Override
    public QueryInfo getQueryInfo() {
        if (queryInfo == null) {
            queryInfo = queryInfo(queryId, runId, batchId);
        }
        return queryInfo;
    }

    @Override
    public void registerTimer(long expiryTimestampMs) {
        verifyTimers(store.timeMode(), state, "register_timer");
        store.timers().register(store.scope().requireKey(timersColumnFamily()), expiryTimestampMs);
        store.scope().metrics().add(Metric.REGISTERED_TIMERS, 1);
    }

    @Override
    public void deleteTimer(long expiryTimestampMs) {
        verifyTimers(store.timeMode(), state, "delete_timer");
        store.timers().delete(store.scope().requireKey(timersColumnFamily()), expiryTimestampMs);
        store.scope().metrics().add(Metric.DELETED_TIMERS, 1);
    }

    @Override
    public scala.collection.Iterator<Object> listTimers() {
        verifyTimers(store.timeMode(), state, "list_timers");
        return CollectionConverters.asScala(
                store.timers().list(store.scope().requireKey(timersColumnFamily())).stream().map(t -> (Object) t).iterator());
    }

    /** The column family Spark names when a timer access has no implicit key: {@code TimerStateUtils}' key-to-timestamp one. */
    private String timersColumnFamily() {
        return (store.timeMode().equals(TimeMode.EventTime()) ? "$eventTimers" : "$procTimers") + "_keyToTimestamp";
    }

    @Override
    public void deleteIfExists(String name) {
        verifyState("delete_if_exists");
        if (store.deleteVariable(name)) {
            store.scope().metrics().add(Metric.DELETED_STATE_VARS, 1);
        }
    }

    private void verifyState(String operation) {
        if (state != HandleState.CREATED) {
            throw SparkErrors.invalidHandleState(operation, state);
        }
    }

    /** Spark's {@code verifyTimerOperations}: time mode first, then INITIALIZED <= state < TIMER_PROCESSED. */
    static void verifyTimers(TimeMode timeMode, HandleState state, String operation) {
        if (timeMode.equals(TimeMode.None())) {
            throw SparkErrors.invalidTimeMode(operation, timeMode);
        }
        if (state.compareTo(HandleState.INITIALIZED) < 0 || state.compareTo(HandleState.TIMER_PROCESSED) >= 0) {
            throw SparkErrors.invalidHandleState(operation, state);
        }
    }

    /** Spark's {@code validateTTLConfig}; 0 means TTL is off. */
    private long ttlMs(String name, TTLConfig ttl) {
        Duration d = ttl == null ? null : ttl.ttlDuration();
        if (d != null && d.isZero()) {
            return 0;
        }
        if (!store.timeMode().equals(TimeMode.ProcessingTime())) {
            throw SparkErrors.ttlInWrongTimeMode(name, store.timeMode());
        }
        if (d == null || d.isNegative()) {
            throw SparkErrors.ttlMustBePositive(name);
        }
        return d.toMillis();
    }

    /**
     * A random (version 4) UUID from a fast generator: query and run ids identify runs and need no
     * cryptographic strength, and {@code UUID.randomUUID()} initialises the JDK's security providers
     * (tens of milliseconds in a fresh JVM).
     */
    static UUID randomId() {
        java.util.concurrent.ThreadLocalRandom r = java.util.concurrent.ThreadLocalRandom.current();
        long most = (r.nextLong() & ~0xF000L) | 0x4000L;
        long least = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(most, least);
    }

    static QueryInfo queryInfo(UUID queryId, UUID runId, long batchId) {
        return new QueryInfo() {
            @Override
            public UUID getQueryId() {
                return queryId;
            }

            @Override
            public UUID getRunId() {
                return runId;
            }

            @Override
            public long getBatchId() {
                return batchId;
            }

            @Override
            public String toString() {
                return "QueryInfo(queryId=" + queryId + ", runId=" + runId + ", batchId=" + batchId + ")";
            }
        };
    }
}
