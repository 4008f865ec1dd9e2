package dev.twstester;

import java.io.Serializable;
import java.util.Iterator;
import java.util.Objects;

import org.apache.spark.api.java.function.FlatMapGroupsWithStateFunction;
import org.apache.spark.api.java.function.MapGroupsWithStateFunction;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.streaming.GroupState;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

import dev.twstester.internal.RowCodec;

/**
 * The legacy operator a {@link TwsQuery} runs instead of a {@code StatefulProcessor}: a
 * {@code mapGroupsWithState} or {@code flatMapGroupsWithState} function with its state encoder,
 * {@link GroupStateTimeout} and operator output mode, as passed to Spark's
 * {@code KeyValueGroupedDataset}. Made by {@link TwsQuery#mapGroupsWithState} and
 * {@link TwsQuery#flatMapGroupsWithState}; read with {@link TwsQuery#groupsWithState()}.
 *
 * <p>The query's {@link TwsQuery#timeMode()} follows the timeout: {@code ProcessingTimeTimeout}
 * runs as {@code TimeMode.ProcessingTime()} (a batch at every trigger), {@code EventTimeTimeout} as
 * {@code TimeMode.EventTime()} (late rows dropped, a no-data batch after a watermark advance) and
 * {@code NoTimeout} as {@code TimeMode.None()} (no no-data batches at all, unlike transformWithState).
 *
 * <p>In the simulator each key's state value is the value state {@value #STATE_VARIABLE} and its
 * timeout the key's one timer; a key times out when its timeout is strictly before the batch
 * timestamp (ProcessingTimeTimeout) or the batch's watermark (EventTimeTimeout), after every key
 * with data, in the state store's key order, and its call gets no rows and {@code hasTimedOut()}.
 *
 * <p>Spark's {@code initialState} argument is {@link TwsQuery.Builder#initialState(java.util.List, Encoder)}
 * with the state's encoder:
 * <pre>{@code
 * TwsQuery.mapGroupsWithState(new FraudStateMachine(), Encoders.bean(CardState.class), timeout)
 *         ...
 *         .initialState(List.of(Map.entry("card-1", suspicious)), Encoders.bean(CardState.class))
 *         .build();
 * }</pre>
 * As Spark 4.x runs it: in batch 0 only (a restart from a checkpoint with batch 0 committed does not
 * apply it again), each key's value becomes its state with no timeout (not counted as an updated
 * row), then the function is called once for each key with initial state or rows, in key order, a
 * key with initial state only getting no rows (and {@code hasTimedOut()} false); timed-out keys
 * follow as in any batch. A key given twice fails batch 0 with Spark's
 * {@code IllegalArgumentException} ("The initial state provided contained multiple rows(state) with
 * the same key. ..."). The initial state's encoder must have the state encoder's schema; for a type
 * Spark cannot read as the state, {@code build()} fails with the error of Spark's call
 * ({@code CANNOT_UP_CAST_DATATYPE}, {@code UNSUPPORTED_DESERIALIZER.FIELD_NUMBER_MISMATCH}).
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <S> state type
 * @param <O> output row type
 */
public final class GroupsWithState<K, I, S, O> implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The name under which the simulator keeps each key's state value: read and write it with
     * {@code TwsSimulator.state().value(GroupsWithState.STATE_VARIABLE, key)} and
     * {@code setValue(...)}; the key's timeout, when set, is its one timer ({@code state().timers(key)}).
     */
    public static final String STATE_VARIABLE = "groupState";

    private final MapGroupsWithStateFunction<K, I, S, O> mapFunction;
    private final FlatMapGroupsWithStateFunction<K, I, S, O> flatMapFunction;
    private final Encoder<S> stateEncoder;
    private final GroupStateTimeout timeout;
    private final OutputMode outputMode;

    private GroupsWithState(MapGroupsWithStateFunction<K, I, S, O> mapFunction,
            FlatMapGroupsWithStateFunction<K, I, S, O> flatMapFunction, Encoder<S> stateEncoder,
            GroupStateTimeout timeout, OutputMode outputMode) {
        this.mapFunction = mapFunction;
        this.flatMapFunction = flatMapFunction;
        this.stateEncoder = Objects.requireNonNull(stateEncoder, "stateEncoder must not be null");
        this.timeout = Objects.requireNonNull(timeout, "timeout must not be null: GroupStateTimeout.NoTimeout(), "
                + "ProcessingTimeTimeout() or EventTimeTimeout()");
        this.outputMode = outputMode;
    }

    static <K, I, S, O> GroupsWithState<K, I, S, O> map(MapGroupsWithStateFunction<K, I, S, O> function,
            Encoder<S> stateEncoder, GroupStateTimeout timeout) {
        Objects.requireNonNull(function, "function must not be null");
        return new GroupsWithState<>(function, null, stateEncoder, timeout, OutputMode.Update());
    }

    static <K, I, S, O> GroupsWithState<K, I, S, O> flatMap(FlatMapGroupsWithStateFunction<K, I, S, O> function,
            OutputMode outputMode, Encoder<S> stateEncoder, GroupStateTimeout timeout) {
        Objects.requireNonNull(function, "function must not be null");
        Objects.requireNonNull(outputMode, "outputMode must not be null");
        if (!outputMode.equals(OutputMode.Append()) && !outputMode.equals(OutputMode.Update())) {
            // KeyValueGroupedDataset.flatMapGroupsWithState's own check
            throw new IllegalArgumentException("The output mode of function should be append or update; "
                    + "flatMapGroupsWithState takes OutputMode.Append() or OutputMode.Update(), not " + outputMode);
        }
        return new GroupsWithState<>(null, function, stateEncoder, timeout, outputMode);
    }

    /** True for {@code mapGroupsWithState} (one output row per call, Update output mode only). */
    public boolean isMapGroupsWithState() {
        return mapFunction != null;
    }

    /** {@code "mapGroupsWithState"} or {@code "flatMapGroupsWithState"}. */
    public String operatorName() {
        return isMapGroupsWithState() ? "mapGroupsWithState" : "flatMapGroupsWithState";
    }

    /** The user's function: a {@code MapGroupsWithStateFunction} or a {@code FlatMapGroupsWithStateFunction}. */
    public Serializable function() {
        return isMapGroupsWithState() ? mapFunction : flatMapFunction;
    }

    /** The {@code MapGroupsWithStateFunction}, or null for flatMapGroupsWithState. */
    public MapGroupsWithStateFunction<K, I, S, O> mapFunction() {
        return mapFunction;
    }

    /** The {@code FlatMapGroupsWithStateFunction}, or null for mapGroupsWithState. */
    public FlatMapGroupsWithStateFunction<K, I, S, O> flatMapFunction() {
        return flatMapFunction;
    }

    /** The encoder of the state values ({@code stateEncoder} of Spark's call). */
    public Encoder<S> stateEncoder() {
        return stateEncoder;
    }

    /** The group state timeout ({@code timeoutConf} of Spark's call). */
    public GroupStateTimeout timeout() {
        return timeout;
    }

    /**
     * The operator's output mode: the {@code outputMode} argument of flatMapGroupsWithState, or
     * {@code Update()} for mapGroupsWithState. Spark requires the query's output mode to be the same.
     */
    public OutputMode outputMode() {
        return outputMode;
    }

    /** The time mode the simulator runs the timeout with (see the class comment). */
    public TimeMode timeMode() {
        if (timeout.equals(GroupStateTimeout.ProcessingTimeTimeout())) {
            return TimeMode.ProcessingTime();
        }
        if (timeout.equals(GroupStateTimeout.EventTimeTimeout())) {
            return TimeMode.EventTime();
        }
        return TimeMode.None();
    }

    /**
     * Calls the function as Spark's Java API does: flatMapGroupsWithState's iterator as it is,
     * mapGroupsWithState's result (called now) as a one-row iterator. Exceptions are the function's own.
     */
    public Iterator<O> call(K key, Iterator<I> values, GroupState<S> state) throws Exception {
        if (mapFunction != null) {
            O row = mapFunction.call(key, values, state);
            return java.util.Collections.singletonList(row).iterator();
        }
        return flatMapFunction.call(key, values, state);
    }

    /**
     * The checks Spark makes when such a query starts ({@code UnsupportedOperationChecker}), with
     * its messages, plus what twstester does not model. {@code queryTimeMode} and
     * {@code queryOutputMode} are null when not set on the builder.
     */
    void checkQuery(TimeMode queryTimeMode, OutputMode queryOutputMode, String watermarkColumn,
            TwsQuery.InitialState<K, ?> initialState, String outputEventTimeColumn) {
        if (queryTimeMode != null && !queryTimeMode.equals(timeMode())) {
            throw new IllegalArgumentException(operatorName() + " has no time mode: its " + timeoutName(timeout)
                    + " decides when batches run; remove timeMode(" + queryTimeMode + ")");
        }
        if (queryOutputMode != null && !queryOutputMode.equals(outputMode)) {
            if (queryOutputMode.equals(OutputMode.Complete())) {
                throw analysisError(queryOutputMode + " output mode not supported when there are no streaming "
                        + "aggregations on streaming DataFrames/Datasets");
            }
            if (isMapGroupsWithState()) {
                throw analysisError("mapGroupsWithState is not supported with " + queryOutputMode
                        + " output mode on a streaming DataFrame/Dataset");
            }
            throw analysisError("flatMapGroupsWithState in " + (outputMode.equals(OutputMode.Append()) ? "append" : "update")
                    + " mode is not supported with " + queryOutputMode + " output mode on a streaming DataFrame/Dataset");
        }
        if (timeout.equals(GroupStateTimeout.EventTimeTimeout()) && watermarkColumn == null) {
            throw analysisError("Watermark must be specified in the query using '[Dataset/DataFrame].withWatermark()' "
                    + "for using event-time timeout in a [map|flatMap]GroupsWithState. Event-time timeout not supported "
                    + "without watermark.", "add watermark(column, delay) to the query, or, after a transformWithState, "
                    + "give that operator outputEventTimeColumn(column) (a legacy function passes no event-time column on)");
        }
        if (initialState != null) {
            checkInitialState(initialState.encoder());
        }
        if (outputEventTimeColumn != null) {
            throw new IllegalArgumentException("outputEventTimeColumn(...) is transformWithState's; " + operatorName()
                    + " has no event-time output column (Spark forwards no watermark from it)");
        }
    }

    /**
     * Spark reads the initial state's rows with the <em>state</em> encoder's deserializer (the
     * {@code KeyValueGroupedDataset<K, S>}'s own value encoder only writes them), resolved when
     * {@code mapGroupsWithState(...)} / {@code flatMapGroupsWithState(...)} is called. The same
     * schema (nullability aside) is modelled: the rows' bytes are read as state values. Spark's
     * analysis errors for the shapes it cannot read are thrown with its error class and message;
     * what Spark reads with an up-cast or by column name from a different type is refused as not
     * modelled.
     */
    private void checkInitialState(Encoder<?> initialEncoder) {
        StructType state = stateEncoder.schema();
        StructType initial = initialEncoder.schema();
        if (DataType.equalsIgnoreNullability(state, initial)) {
            return;
        }
        boolean stateStruct = RowCodec.of(stateEncoder).isSerializedAsStruct();
        boolean initialStruct = RowCodec.of(initialEncoder).isSerializedAsStruct();
        String call = " (Spark's " + operatorName() + "(...) call with this initialState fails with this AnalysisException)";
        if (!stateStruct && initialStruct && initial.fields().length != 1) {
            throw new IllegalArgumentException("[UNSUPPORTED_DESERIALIZER.FIELD_NUMBER_MISMATCH] The deserializer is not "
                    + "supported: try to map \"" + initial.sql() + "\" to Tuple1, but failed as the number of fields does "
                    + "not line up." + call + "; give initialState(...) the state encoder " + stateEncoder);
        }
        if (!stateStruct && !initialStruct) {
            DataType from = initial.fields()[0].dataType();
            DataType to = state.fields()[0].dataType();
            if (!Cast.canUpCast(from, to)) {
                throw new IllegalArgumentException("[CANNOT_UP_CAST_DATATYPE] Cannot up cast value from \"" + from.sql()
                        + "\" to \"" + to.sql() + "\"." + call + "; give initialState(...) the state encoder "
                        + stateEncoder);
            }
        }
        throw new IllegalArgumentException("initialState(...) of " + operatorName() + " with encoder " + initialEncoder
                + " (" + initial.sql() + ") for the state encoder " + stateEncoder + " (" + state.sql() + ") is not "
                + "modelled: Spark reads the initial state's rows with the state encoder, up-casting a value it can "
                + "(e.g. INT to BIGINT) and resolving a bean's fields by name, or fails the " + operatorName()
                + "(...) call with an AnalysisException (CANNOT_UP_CAST_DATATYPE, UNRESOLVED_COLUMN...); give "
                + "initialState(...) the state encoder and values of the state type");
    }

    /** Spark's {@code UnsupportedOperationChecker} error, thrown by {@code writeStream.start()}. */
    private static IllegalArgumentException analysisError(String message) {
        return analysisError(message, null);
    }

    /** {@link #analysisError(String)}, then what to change ({@code whatToDo}, when not null). */
    static IllegalArgumentException analysisError(String message, String whatToDo) {
        return new IllegalArgumentException("[_LEGACY_ERROR_TEMP_3102] " + message
                + " (Spark fails writeStream().start() with this AnalysisException)"
                + (whatToDo == null ? "" : "; " + whatToDo));
    }

    @Override
    public String toString() {
        return operatorName() + "(" + function().getClass().getName() + ", timeout " + timeoutName(timeout)
                + ", " + outputMode + ")";
    }

    /** {@code "NoTimeout"}, {@code "ProcessingTimeTimeout"} or {@code "EventTimeTimeout"}. */
    private static String timeoutName(GroupStateTimeout timeout) {
        if (timeout.equals(GroupStateTimeout.ProcessingTimeTimeout())) {
            return "ProcessingTimeTimeout";
        }
        if (timeout.equals(GroupStateTimeout.EventTimeTimeout())) {
            return "EventTimeTimeout";
        }
        return "NoTimeout";
    }
}
