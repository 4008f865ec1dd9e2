package dev.twstester.sim;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TestGroupState;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.GroupsWithState;
import dev.twstester.ProcessorException;
import dev.twstester.internal.GroupStateTimeouts;

import scala.jdk.javaapi.CollectionConverters;

/**
 * A {@code mapGroupsWithState} / {@code flatMapGroupsWithState} function as the engine runs it:
 * Spark 4.2.0's {@code FlatMapGroupsWithStateExec.callFunctionAndUpdateState} for one key. The
 * state row Spark keeps per key (the state value and one timeout timestamp) is the value variable
 * {@value #STATE_VARIABLE} and at most one timer of the key; the {@code GroupState} the function
 * gets is Spark's own implementation ({@code TestGroupState.create}, i.e. {@code GroupStateImpl}),
 * so its checks and errors are Spark's.
 *
 * <p>Per call: the state is read, the function is called and its iterator drained (the outputs
 * handed to the engine afterwards, so lazily thrown exceptions are wrapped here too), then the row
 * is written as Spark writes it when the iterator completes: removed (with no timeout set) deletes
 * it, else it is written when the value was updated or removed or the timeout changed (a call
 * starts with no timeout: it is reset unless set again). Exceptions that are not Spark's own
 * become {@code FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR}. Which keys time out, when and in
 * which order is the operator's ({@link GroupsWithStateKind}).
 */
final class GroupStateProcessor<K, I, S, O> extends StatefulProcessor<K, I, O> {
    private static final long serialVersionUID = 1L;
    /** The value variable that holds each key's state. */
    static final String STATE_VARIABLE = GroupsWithState.STATE_VARIABLE;

    private final GroupsWithState<K, I, S, O> function;
    /** Whether the input has a watermark: {@code getCurrentWatermarkMs()} throws without one. */
    private final boolean watermarkPresent;

    GroupStateProcessor(GroupsWithState<K, I, S, O> function, boolean watermarkPresent) {
        this.function = function;
        this.watermarkPresent = watermarkPresent;
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        // the legacy operator has no init
    }

    @Override
    public scala.collection.Iterator<O> handleInputRows(K key, scala.collection.Iterator<I> rows, TimerValues timerValues) {
        return call(key, CollectionConverters.asJava(rows), timerValues, false);
    }

    @Override
    public scala.collection.Iterator<O> handleExpiredTimer(K key, TimerValues timerValues, ExpiredTimerInfo info) {
        return call(key, java.util.Collections.emptyIterator(), timerValues, true);
    }

    private scala.collection.Iterator<O> call(K key, Iterator<I> values, TimerValues times, boolean hasTimedOut) {
        SimHandle handle = (SimHandle) getHandle();
        StateStore store = handle.store();
        Scope scope = store.scope();
        Bytes stateKey = scope.requireKey(STATE_VARIABLE);
        ValueVariable<S> state = store.value(STATE_VARIABLE, function.stateEncoder(), 0);
        S stored = state.get(stateKey);
        long storedTimeout = storedTimeout(store, stateKey);
        long batchId = handle.getQueryInfo().getBatchId();

        TestGroupState<S> group = TestGroupState.create(org.apache.spark.api.java.Optional.ofNullable(stored),
                function.timeout(), times.getCurrentProcessingTimeInMs(),
                watermarkPresent ? org.apache.spark.api.java.Optional.of(times.getCurrentWatermarkInMs())
                        : org.apache.spark.api.java.Optional.empty(),
                hasTimedOut);
        List<O> out = new ArrayList<>();
        try {
            Iterator<O> it = function.call(key, values, group);
            while (it.hasNext()) {
                out.add(it.next());
            }
        } catch (Throwable t) {
            throw userError(t, key, batchId);
        }

        // FlatMapGroupsWithStateExec's onIteratorCompletion
        long timeout = GroupStateTimeouts.timeoutOf(group);
        if (group.isRemoved() && timeout == GroupStateTimeouts.NO_TIMESTAMP) {
            state.clearKey(stateKey);
            setTimeout(store, stateKey, storedTimeout, GroupStateTimeouts.NO_TIMESTAMP);
            scope.metrics().add(Metric.REMOVED_STATE_ROWS, 1);
        } else if (group.isUpdated() || group.isRemoved() || timeout != storedTimeout) {
            if (group.exists()) {
                state.put(stateKey, group.get());
            } else {
                state.clearKey(stateKey);
            }
            setTimeout(store, stateKey, storedTimeout, timeout);
            scope.metrics().add(Metric.UPDATED_STATE_ROWS, 1);
        }
        return CollectionConverters.asScala(out.iterator());
    }

    /**
     * Batch 0's initial state for the current key ({@code processNewDataWithInitialState}): the
     * value becomes the key's state with no timeout, written without counting an updated row; a
     * second value for the key fails the batch with Spark's {@code IllegalArgumentException}.
     */
    void putInitialState(List<Object> values) {
        if (values.size() > 1) {
            throw new IllegalArgumentException("The initial state provided contained multiple rows(state) with the same "
                    + "key. Make sure to de-duplicate the initial state before passing it.");
        }
        StateStore store = ((SimHandle) getHandle()).store();
        Bytes stateKey = store.scope().requireKey(STATE_VARIABLE);
        ValueVariable<S> state = store.value(STATE_VARIABLE, function.stateEncoder(), 0);
        @SuppressWarnings("unchecked")
        S value = (S) values.get(0);
        if (value == null) {
            state.clearKey(stateKey);
        } else {
            state.put(stateKey, value);
        }
        setTimeout(store, stateKey, storedTimeout(store, stateKey), GroupStateTimeouts.NO_TIMESTAMP);
    }

    /** The key's timeout as the state row holds it: its one timer, or no timestamp. */
    private static long storedTimeout(StateStore store, Bytes key) {
        List<Long> timers = store.timers().list(key);
        return timers.isEmpty() ? GroupStateTimeouts.NO_TIMESTAMP : timers.get(0);
    }

    private static void setTimeout(StateStore store, Bytes key, long stored, long timeout) {
        if (stored == timeout) {
            return;
        }
        if (stored != GroupStateTimeouts.NO_TIMESTAMP) {
            store.timers().delete(key, stored);
        }
        if (timeout != GroupStateTimeouts.NO_TIMESTAMP) {
            store.timers().register(key, timeout);
        }
    }

    /**
     * Spark's {@code withUserFuncExceptionHandling}: a non-fatal throwable that is not Spark's own
     * becomes {@code FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR}; anything else passes as it is.
     */
    private RuntimeException userError(Throwable t, K key, long batchId) {
        if (scala.util.control.NonFatal.apply(t) && !(t instanceof SparkThrowable)) {
            return ProcessorException.groupsWithStateUserFunction(function.operatorName(), key, batchId, t);
        }
        return dev.twstester.internal.Sneaky.raise(t);
    }
}
