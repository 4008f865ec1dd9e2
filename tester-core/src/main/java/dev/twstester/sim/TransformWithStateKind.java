package dev.twstester.sim;

import java.util.List;
import java.util.Map;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.TwsQuery;

/**
 * A {@code transformWithState} operator ({@code TransformWithStateExec}): the user's processor,
 * {@code handleInitialState} per initial-state row in batch 0, then {@code handleInputRows} per
 * key, timers that expired at or before the threshold, and every custom metric.
 */
final class TransformWithStateKind<K, I, O> implements OperatorKind<K, I, O> {
    private final TwsQuery<K, I, O> operator;

    TransformWithStateKind(TwsQuery<K, I, O> operator) {
        this.operator = operator;
    }

    @Override
    public StatefulProcessor<K, I, O> newProcessor() {
        return operator.newProcessor();
    }

    @Override
    public boolean supplierMayStandIn() {
        return true;
    }

    @Override
    public void declareState(StateStore store) {
        // the processor's init declares every variable
    }

    @Override
    public boolean implicitKeyOnly() {
        return true;
    }

    @Override
    public boolean passesHandlerErrors() {
        return false;
    }

    @Override
    public Map<Bytes, List<Object>> initialRows(Operator<K, I, O> op) {
        return operator.initialState().map(init -> rows(op, init)).orElse(Map.of());
    }

    private static <K, S> Map<Bytes, List<Object>> rows(Operator<K, ?, ?> op, TwsQuery.InitialState<K, S> init) {
        Codec<S> valueCodec = op.store().store().values(init.encoder());
        return OperatorKind.byKey(op, init, value -> valueCodec.load(valueCodec.store(value)));
    }

    @Override
    public void processKeys(Task<K, I, O> task) {
        List<Bytes> initialKeys = task.initialKeys();
        for (int i = 0; i < initialKeys.size(); i++) {
            task.initialState(initialKeys.get(i));
        }
        List<Bytes> inputKeys = task.inputKeys();
        for (int i = 0; i < inputKeys.size(); i++) {
            task.input(inputKeys.get(i));
        }
    }

    @Override
    public List<TimerStore.Timer> dueTimers(TimerStore timers, long threshold) {
        return timers.expired(threshold);
    }

    @Override
    public Map<String, Long> reported(Map<String, Long> all) {
        return all;
    }

    @Override
    public boolean asksForNoDataBatch(boolean watermarkAdvanced) {
        // Spark's shouldRunAnotherBatch: always in ProcessingTime mode, else on a watermark advance
        // with Append or Update output
        if (operator.timeMode().equals(TimeMode.ProcessingTime())) {
            return true;
        }
        OutputMode mode = operator.outputMode();
        return watermarkAdvanced && (mode.equals(OutputMode.Append()) || mode.equals(OutputMode.Update()));
    }
}
