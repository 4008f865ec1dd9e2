package dev.twstester.sim;

import java.util.List;
import java.util.Map;

import org.apache.spark.sql.streaming.StatefulProcessor;

import dev.twstester.TwsQuery;

/**
 * What differs between the two kinds of stateful operator the simulator runs, behind one
 * {@link Operator} and {@link Task}: {@code transformWithState} ({@link TransformWithStateKind}) and
 * the legacy {@code mapGroupsWithState} / {@code flatMapGroupsWithState} ({@link GroupsWithStateKind},
 * whose function runs behind a processor adapter).
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
interface OperatorKind<K, I, O> {
    /** The kind of {@code operator}'s definition, with {@code watermarkPresent} the query's watermark. */
    static <K, I, O> OperatorKind<K, I, O> of(TwsQuery<K, I, O> operator, boolean watermarkPresent) {
        return operator.groupsWithState().isPresent() ? new GroupsWithStateKind<>(operator, watermarkPresent)
                : new TransformWithStateKind<>(operator);
    }

    /** A new instance of what the tasks run: the user's processor, or the adapter of the legacy function. */
    StatefulProcessor<K, I, O> newProcessor();

    /**
     * Whether a new instance from {@link #newProcessor()} may stand in for a deserialized copy of
     * the driver's instance when it is provably the same ({@link ProcessorCopies}).
     */
    boolean supplierMayStandIn();

    /** Declares what exists before any batch (the legacy state variable), so state can be read and written at once. */
    void declareState(StateStore store);

    /**
     * Whether state is reached only through Spark's implicit key object, so that a null grouping
     * key has no state ({@code transformWithState}: every access fails).
     */
    boolean implicitKeyOnly();

    /** Whether an exception from a handler passes as it is (the legacy adapter wraps the function's errors itself). */
    boolean passesHandlerErrors();

    /** Batch 0's initial-state rows by encoded key, as the handlers receive them. */
    Map<Bytes, List<Object>> initialRows(Operator<K, I, O> operator);

    /** {@code init}'s values by encoded key, in the order given, each as {@code value} makes it. */
    static <K, S> Map<Bytes, List<Object>> byKey(Operator<K, ?, ?> operator, TwsQuery.InitialState<K, S> init,
            java.util.function.Function<S, Object> value) {
        Map<Bytes, List<Object>> byKey = new java.util.LinkedHashMap<>();
        for (Map.Entry<K, S> e : init.rows()) {
            byKey.computeIfAbsent(new Bytes(operator.keyCodec().encode(e.getKey())), k -> new java.util.ArrayList<>())
                    .add(value.apply(e.getValue()));
        }
        return byKey;
    }

    /** One task's keys: initial state (batch 0) and each key's input, in Spark's order. */
    void processKeys(Task<K, I, O> task);

    /** The timers due at {@code threshold}, in firing order. */
    List<TimerStore.Timer> dueTimers(TimerStore timers, long threshold);

    /** The metrics this kind of operator reports, from all of a batch's counters. */
    Map<String, Long> reported(Map<String, Long> all);

    /** Whether the operator asks for a no-data batch after a batch; {@code watermarkAdvanced} says if the watermark moved. */
    boolean asksForNoDataBatch(boolean watermarkAdvanced);
}
