package dev.twstester.sim;

import java.util.HashSet;
import java.util.Set;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.QueryInfo;
import org.apache.spark.sql.streaming.StatefulProcessorHandle;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.ValueState;

/**
 * Spark's {@code DriverStatefulProcessorHandleImpl}: the handle of the driver-side {@code init}
 * pass at the start of every query run. Its state is PRE_INIT throughout; it only records state
 * variable names (failing on duplicates as Spark does: not for map after map) and hands out state
 * variables that fail on any use.
 */
final class DriverHandle implements StatefulProcessorHandle {
    private final TimeMode timeMode;
    private final StateStore store;
    private final Set<String> names = new HashSet<>();
    /** Spark 4.0's driver handle returns null state variables ({@link SparkLine#driverPassHasStateVariables()}). */
    private final boolean nullVariables;

    /** Variables defined here are also created (empty) in {@code store}, so tests can set state before batch 0. */
    DriverHandle(StateStore store, SparkLine line) {
        this.timeMode = store.timeMode();
        this.store = store;
        this.nullVariables = !line.driverPassHasStateVariables();
    }

    @Override
    public <T> ValueState<T> getValueState(String name, Encoder<T> encoder, TTLConfig ttl) {
        define(name, "get_value_state", true);
        store.value(name, encoder, declaredTtlMs(ttl));
        if (nullVariables) {
            return null;
        }
        return new ValueState<>() {
            @Override
            public boolean exists() {
                throw used(name, "exists");
            }

            @Override
            public T get() {
                throw used(name, "get");
            }

            @Override
            public void update(T newState) {
                throw used(name, "update");
            }

            @Override
            public void clear() {
                throw used(name, "clear");
            }
        };
    }

    @Override
    public <T> ValueState<T> getValueState(String name, TTLConfig ttl, Encoder<T> encoder) {
        return getValueState(name, encoder, ttl);
    }

    @Override
    public <T> ListState<T> getListState(String name, Encoder<T> encoder, TTLConfig ttl) {
        define(name, "get_list_state", true);
        store.list(name, encoder, declaredTtlMs(ttl));
        if (nullVariables) {
            return null;
        }
        return new ListState<>() {
            @Override
            public boolean exists() {
                throw used(name, "exists");
            }

            @Override
            public scala.collection.Iterator<T> get() {
                throw used(name, "get");
            }

            @Override
            public void put(Object newState) {
                throw used(name, "put");
            }

            @Override
            public void appendValue(T newState) {
                throw used(name, "appendValue");
            }

            @Override
            public void appendList(Object newState) {
                throw used(name, "appendList");
            }

            @Override
            public void clear() {
                throw used(name, "clear");
            }
        };
    }

    @Override
    public <T> ListState<T> getListState(String name, TTLConfig ttl, Encoder<T> encoder) {
        return getListState(name, encoder, ttl);
    }

    @Override
    public <MK, MV> MapState<MK, MV> getMapState(String name, Encoder<MK> keyEncoder, Encoder<MV> valueEncoder,
            TTLConfig ttl) {
        define(name, "get_map_state", false);
        store.map(name, keyEncoder, valueEncoder, declaredTtlMs(ttl));
        return nullVariables ? null : new DriverMapState<>(name);
    }

    @Override
    public <MK, MV> MapState<MK, MV> getMapState(String name, TTLConfig ttl, Encoder<MK> keyEncoder,
            Encoder<MV> valueEncoder) {
        return getMapState(name, keyEncoder, valueEncoder, ttl);
    }

    @Override
    public QueryInfo getQueryInfo() {
        return SimHandle.queryInfo(SimHandle.randomId(), SimHandle.randomId(), 0L);
    }

    @Override
    public void registerTimer(long expiryTimestampMs) {
        SimHandle.verifyTimers(timeMode, HandleState.PRE_INIT, "register_timer");
    }

    @Override
    public void deleteTimer(long expiryTimestampMs) {
        SimHandle.verifyTimers(timeMode, HandleState.PRE_INIT, "delete_timer");
    }

    @Override
    public scala.collection.Iterator<Object> listTimers() {
        SimHandle.verifyTimers(timeMode, HandleState.PRE_INIT, "list_timers");
        return scala.collection.Iterator$.MODULE$.empty();
    }

    @Override
    public void deleteIfExists(String name) {
        // PRE_INIT is the state this operation requires on the driver: nothing to do
    }

    private void define(String name, String operation, boolean checkDuplicate) {
        if (checkDuplicate && names.contains(name)) {
            throw SparkErrors.duplicateStateVariable(name);
        }
        names.add(name);
    }

    /** The TTL as declared; invalid ones are rejected later, by the executor's init, as in Spark. */
    private static long declaredTtlMs(TTLConfig ttl) {
        return ttl == null || ttl.ttlDuration() == null || ttl.ttlDuration().isNegative() ? 0 : ttl.ttlDuration().toMillis();
    }

    static RuntimeException used(String name, String operation) {
        return SparkErrors.invalidHandleState(name + "." + operation, HandleState.PRE_INIT);
    }

    /** A map state obtained on the driver: any use fails. */
    private static final class DriverMapState<MK, MV> implements MapState<MK, MV> {
        private final String name;

        DriverMapState(String name) {
            this.name = name;
        }

        @Override
        public boolean exists() {
            throw used(name, "exists");
        }

        @Override
        public MV getValue(MK key) {
            throw used(name, "getValue");
        }

        @Override
        public boolean containsKey(MK key) {
            throw used(name, "containsKey");
        }

        @Override
        public void updateValue(MK key, MV value) {
            throw used(name, "updateValue");
        }

        @Override
        public scala.collection.Iterator<scala.Tuple2<MK, MV>> iterator() {
            throw used(name, "iterator");
        }

        @Override
        public scala.collection.Iterator<MK> keys() {
            throw used(name, "keys");
        }

        @Override
        public scala.collection.Iterator<MV> values() {
            throw used(name, "values");
        }

        @Override
        public void removeKey(MK key) {
            throw used(name, "removeKey");
        }

        @Override
        public void clear() {
            throw used(name, "clear");
        }
    }
}
