package dev.twstester.sim;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.GroupsWithState;
import dev.twstester.TwsQuery;

/**
 * A legacy {@code mapGroupsWithState} / {@code flatMapGroupsWithState} operator
 * ({@code FlatMapGroupsWithStateExec}), its function run by {@link GroupStateProcessor}: one value
 * variable and at most one timer per key, batch 0's initial state merged into the key's call, keys
 * whose timeout is strictly before the threshold, the three metrics its progress reports, and no
 * no-data batch without a timeout.
 */
final class GroupsWithStateKind<K, I, O> implements OperatorKind<K, I, O> {
    /** The metrics of {@code BatchResult.METRIC_NAMES} a flatMapGroupsWithState operator's progress has. */
    static final List<String> METRICS = List.of("numRemovedStateRows", "numRowsDroppedByWatermark", "numUpdatedStateRows");

    private final TwsQuery<K, I, O> operator;
    private final GroupsWithState<K, I, ?, O> function;
    private final boolean watermarkPresent;

    GroupsWithStateKind(TwsQuery<K, I, O> operator, boolean watermarkPresent) {
        this.operator = operator;
        this.function = operator.groupsWithState().orElseThrow();
        this.watermarkPresent = watermarkPresent;
    }

    @Override
    public StatefulProcessor<K, I, O> newProcessor() {
        return new GroupStateProcessor<>(function, watermarkPresent);
    }

    @Override
    public boolean supplierMayStandIn() {
        // deserialized per task too: an adapter from the supplier would share the query's function instance
        return false;
    }

    @Override
    public void declareState(StateStore store) {
        store.value(GroupStateProcessor.STATE_VARIABLE, function.stateEncoder(), 0);
    }

    @Override
    public boolean implicitKeyOnly() {
        return false;
    }

    @Override
    public boolean passesHandlerErrors() {
        return true;
    }

    /**
     * Each value written with the initial state's encoder and read with the state encoder, as
     * Spark's deserializer reads it (the schemas are the same, {@code GroupsWithState#checkQuery});
     * by reference at {@code Fidelity.FAST} when the encoders are equal.
     */
    @Override
    public Map<Bytes, List<Object>> initialRows(Operator<K, I, O> op) {
        return operator.initialState().map(init -> rows(op, init, function.stateEncoder())).orElse(Map.of());
    }

    private static <K, S> Map<Bytes, List<Object>> rows(Operator<K, ?, ?> op, TwsQuery.InitialState<K, S> init,
            Encoder<?> stateEncoder) {
        boolean byReference = op.fidelity() == Fidelity.FAST && init.encoder().equals(stateEncoder);
        KeyCodec<S> from = byReference ? null : KeyCodec.of(init.encoder());
        KeyCodec<?> to = byReference ? null : KeyCodec.of(stateEncoder);
        return OperatorKind.byKey(op, init, value -> value == null || byReference ? value : to.decode(from.encode(value)));
    }

    /**
     * Batch 0 with initial state is Spark's {@code processNewDataWithInitialState}: for each key of
     * the partition that has initial state or rows, in key order, its initial value becomes its
     * state with no timeout (a second value for the key fails the batch), then the function is
     * called with the key's rows, none for a key with initial state only.
     */
    @Override
    public void processKeys(Task<K, I, O> task) {
        if (task.initialKeys().isEmpty()) {
            task.inputKeys().forEach(task::input);
            return;
        }
        for (Bytes key : task.keysWithInitialStateOrInput()) {
            List<Object> values = task.initialValues(key);
            task.enter(key);
            if (values != null) {
                ((GroupStateProcessor<?, ?, ?, ?>) task.processor()).putInitialState(values);
            }
            task.input(key);
        }
    }

    @Override
    public List<TimerStore.Timer> dueTimers(TimerStore timers, long threshold) {
        // the state rows whose timeout is strictly before the threshold, in the state store's key order
        return timers.timedOut(threshold);
    }

    @Override
    public Map<String, Long> reported(Map<String, Long> all) {
        Map<String, Long> legacy = new TreeMap<>();
        for (String name : METRICS) {
            legacy.put(name, all.get(name));
        }
        return Collections.unmodifiableMap(legacy);
    }

    @Override
    public boolean asksForNoDataBatch(boolean watermarkAdvanced) {
        if (operator.timeMode().equals(TimeMode.None())) {
            return false; // FlatMapGroupsWithStateExecBase.shouldRunAnotherBatch: NoTimeout never asks
        }
        return operator.timeMode().equals(TimeMode.ProcessingTime()) || watermarkAdvanced;
    }
}
