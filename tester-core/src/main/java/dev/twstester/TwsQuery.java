package dev.twstester;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.spark.api.java.function.FlatMapGroupsWithStateFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.api.java.function.MapGroupsWithStateFunction;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;

import dev.twstester.internal.Triggers;

/**
 * One {@code transformWithState} query, defined once and run by either engine: the in-memory
 * simulator ({@code dev.twstester.sim.TwsSimulator}) or live Spark. Immutable; built fluently.
 *
 * <pre>{@code
 * TwsQuery<String, CartEvent, CartAlert> query = TwsQuery.builder(CartWatch::new)
 *         .keyBy(CartEvent::getUserId, Encoders.STRING())      // groupByKey(...)
 *         .input(Encoders.bean(CartEvent.class))
 *         .output(Encoders.bean(CartAlert.class))
 *         .timeMode(TimeMode.EventTime())
 *         .outputMode(OutputMode.Update())
 *         .watermark("ts", Duration.ofMinutes(10))               // withWatermark("ts", "10 minutes")
 *         .build();
 * }</pre>
 *
 * <p>A legacy {@code mapGroupsWithState} / {@code flatMapGroupsWithState} function is a query too,
 * run by the same simulator and live runner ({@link #mapGroupsWithState}, {@link #flatMapGroupsWithState}).
 *
 * <p>A query may apply several stateful operators one after another, as Spark plans
 * {@code ...transformWithState(...).groupByKey(...).transformWithState(...)}: {@link #then} appends
 * one. The query's key type {@code K} is then the first operator's, {@code O} the last one's output;
 * {@link #operators()} lists each operator as a one-operator query.
 * <pre>{@code
 * TwsQuery<String, Click, PageAlert> query = sessions          // a query with outputEventTimeColumn("end")
 *         .then(TwsQuery.builder(PageAlerts::new)
 *                 .keyBy(Session::getPage, Encoders.STRING())  // groupByKey(...) on the sessions
 *                 .input(Encoders.bean(Session.class))
 *                 .output(Encoders.bean(PageAlert.class))
 *                 .timeMode(TimeMode.EventTime()));
 * }</pre>
 *
 * <p>The event time is read from the named column of the input encoder's row (a {@code timestamp}
 * column: {@code java.sql.Timestamp} or {@code java.time.Instant} fields), exactly as
 * {@code withWatermark} reads it, in microseconds.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public final class TwsQuery<K, I, O> {
    private final Supplier<? extends StatefulProcessor<K, I, O>> processor;
    private final MapFunction<I, K> keyFunction;
    private final Encoder<K> keyEncoder;
    private final Encoder<I> inputEncoder;
    private final Encoder<O> outputEncoder;
    private final TimeMode timeMode;
    private final OutputMode outputMode;
    private final String eventTimeColumn;
    private final Duration watermarkDelay;
    private final InitialState<K, ?> initialState;
    private final String outputEventTimeColumn;
    private final int shufflePartitions;
    private final Trigger trigger;
    private final StateEncoding stateEncoding;
    /** The legacy function this query runs instead of a processor; null for transformWithState. */
    private final GroupsWithState<K, I, ?, O> groupsWithState;
    /** The {@code mapValues} between {@code groupByKey} and the processor; null without one. */
    private final ValueMapping<K, I, ?, O> valueMapping;
    /**
     * Every stateful operator, in plan order, each a one-operator query: null for a query of one
     * operator (which is its own only operator). The fields above are the first operator's, but
     * for {@link #outputEncoder}, the last one's.
     */
    private final List<TwsQuery<?, ?, ?>> operators;

    private TwsQuery(TwsQuery<K, I, O> q, int shufflePartitions, Trigger trigger, StateEncoding stateEncoding) {
        this(q, q.outputEncoder, q.operators == null ? null
                : q.operators.stream().<TwsQuery<?, ?, ?>>map(op -> op.with(shufflePartitions, trigger, stateEncoding))
                        .toList(), shufflePartitions, trigger, stateEncoding);
    }

    /** {@code q}'s first operator with another output encoder and operator list (see {@link #then}). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private TwsQuery(TwsQuery<K, I, ?> q, Encoder<O> outputEncoder, List<TwsQuery<?, ?, ?>> operators,
            int shufflePartitions, Trigger trigger, StateEncoding stateEncoding) {
        this.operators = operators;
        this.processor = (Supplier) q.processor;
        this.groupsWithState = (GroupsWithState) q.groupsWithState;
        this.valueMapping = (ValueMapping) q.valueMapping;
        this.keyFunction = q.keyFunction;
        this.keyEncoder = q.keyEncoder;
        this.inputEncoder = q.inputEncoder;
        this.outputEncoder = outputEncoder;
        this.timeMode = q.timeMode;
        this.outputMode = q.outputMode;
        this.eventTimeColumn = q.eventTimeColumn;
        this.watermarkDelay = q.watermarkDelay;
        this.initialState = q.initialState;
        this.outputEventTimeColumn = q.outputEventTimeColumn;
        this.shufflePartitions = shufflePartitions;
        this.trigger = trigger;
        this.stateEncoding = stateEncoding;
    }

    private TwsQuery(Builder<K, I, O> b) {
        this.operators = null;
        this.processor = b.processor;
        this.groupsWithState = b.groupsWithState;
        this.valueMapping = b.valueMapping;
        this.keyFunction = Objects.requireNonNull(b.keyFunction, "keyBy(...) must be set: the groupByKey function and key encoder");
        this.keyEncoder = b.keyEncoder;
        this.inputEncoder = Objects.requireNonNull(b.inputEncoder, "input(...) must be set: the encoder of the input rows");
        this.outputEncoder = Objects.requireNonNull(b.outputEncoder, "output(...) must be set: the encoder of the output rows");
        this.timeMode = b.timeMode;
        this.outputMode = b.outputMode;
        this.eventTimeColumn = b.eventTimeColumn;
        this.watermarkDelay = b.watermarkDelay;
        this.initialState = b.initialState;
        this.outputEventTimeColumn = b.outputEventTimeColumn;
        this.shufflePartitions = b.shufflePartitions;
        this.trigger = b.trigger;
        this.stateEncoding = b.stateEncoding;
    }

    /** Starts a query definition for processors made by {@code processor} (called once per query run). */
    public static <K, I, O> Builder<K, I, O> builder(Supplier<? extends StatefulProcessor<K, I, O>> processor) {
        return new Builder<>(Objects.requireNonNull(processor, "processor must not be null"));
    }

    /**
     * Starts a query that runs a {@code mapGroupsWithState} function, as
     * {@code groupByKey(...).mapGroupsWithState(function, stateEncoder, outputEncoder, timeout)}
     * does: one output row per call, the query in Update output mode. The simulator calls the
     * function with Spark's own {@code GroupState} implementation and Spark's rules for timeouts
     * (see {@link GroupsWithState}); the live runner runs the real operator.
     *
     * <pre>{@code
     * TwsQuery<String, Payment, CardStatus> query = TwsQuery.mapGroupsWithState(
     *                 new FraudStateMachine(),                         // MapGroupsWithStateFunction<String, Payment, CardState, CardStatus>
     *                 Encoders.bean(CardState.class),
     *                 GroupStateTimeout.ProcessingTimeTimeout())
     *         .keyBy(Payment::getCardId, Encoders.STRING())             // groupByKey(...)
     *         .input(Encoders.bean(Payment.class))
     *         .output(Encoders.bean(CardStatus.class))
     *         .build();
     * }</pre>
     *
     * With {@code GroupStateTimeout.EventTimeTimeout()} add {@code .watermark(column, delay)}, as
     * Spark requires a watermark for it.
     */
    public static <K, I, S, O> Builder<K, I, O> mapGroupsWithState(MapGroupsWithStateFunction<K, I, S, O> function,
            Encoder<S> stateEncoder, GroupStateTimeout timeout) {
        return new Builder<>(GroupsWithState.map(function, stateEncoder, timeout));
    }

    /**
     * Starts a query that runs a {@code flatMapGroupsWithState} function, as
     * {@code groupByKey(...).flatMapGroupsWithState(function, outputMode, stateEncoder, outputEncoder, timeout)}
     * does: {@code outputMode} ({@code Append()} or {@code Update()}) is the operator's and the query's.
     *
     * <pre>{@code
     * TwsQuery<String, Click, SessionEnd> query = TwsQuery.flatMapGroupsWithState(
     *                 new SessionEnds(),                        // FlatMapGroupsWithStateFunction<String, Click, Long, SessionEnd>
     *                 OutputMode.Append(), Encoders.LONG(), GroupStateTimeout.EventTimeTimeout())
     *         .keyBy(Click::getUser, Encoders.STRING())
     *         .input(Encoders.bean(Click.class))
     *         .output(Encoders.bean(SessionEnd.class))
     *         .watermark("ts", Duration.ofSeconds(10))
     *         .build();
     * }</pre>
     */
    public static <K, I, S, O> Builder<K, I, O> flatMapGroupsWithState(
            FlatMapGroupsWithStateFunction<K, I, S, O> function, OutputMode outputMode, Encoder<S> stateEncoder,
            GroupStateTimeout timeout) {
        return new Builder<>(GroupsWithState.flatMap(function, outputMode, stateEncoder, timeout));
    }

    /**
     * The legacy {@code mapGroupsWithState} / {@code flatMapGroupsWithState} function this query
     * runs; empty for a {@code transformWithState} query.
     */
    public Optional<GroupsWithState<K, I, ?, O>> groupsWithState() {
        return Optional.ofNullable(groupsWithState);
    }

    /**
     * The class of the user's code this query runs: the processor's, or the legacy function's
     * (for names in reports).
     */
    public Class<?> userClass() {
        return valueMapping != null ? valueMapping.newProcessor().getClass()
                : groupsWithState != null ? groupsWithState.function().getClass() : newProcessor().getClass();
    }

    /** The {@code mapValues} before the processor ({@link Builder#mapValues}); {@link #newProcessor()} is then its adapter. */
    public Optional<ValueMapping<K, I, ?, O>> valueMapping() {
        return Optional.ofNullable(valueMapping);
    }

    /**
     * A new processor instance, as the driver would deserialize it for a query run.
     *
     * @throws IllegalStateException for a {@link #groupsWithState() mapGroupsWithState or flatMapGroupsWithState} query,
     *                               which has a function instead
     */
    public StatefulProcessor<K, I, O> newProcessor() {
        if (groupsWithState != null) {
            throw new IllegalStateException("this query runs a " + groupsWithState.operatorName() + " function ("
                    + groupsWithState.function().getClass().getName() + "), not a StatefulProcessor: read it with "
                    + "groupsWithState()");
        }
        StatefulProcessor<K, I, O> p = processor.get();
        if (p == null) {
            throw new IllegalStateException("the processor supplier returned null; pass e.g. MyProcessor::new");
        }
        return p;
    }

    public MapFunction<I, K> keyFunction() {
        return keyFunction;
    }

    public Encoder<K> keyEncoder() {
        return keyEncoder;
    }

    public Encoder<I> inputEncoder() {
        return inputEncoder;
    }

    public Encoder<O> outputEncoder() {
        return outputEncoder;
    }

    public TimeMode timeMode() {
        return timeMode;
    }

    public OutputMode outputMode() {
        return outputMode;
    }

    /** The input column {@code withWatermark} is applied to, if any. */
    public Optional<String> eventTimeColumn() {
        return Optional.ofNullable(eventTimeColumn);
    }

    /** The watermark delay ({@link Duration#ZERO} when there is no watermark). */
    public Duration watermarkDelay() {
        return watermarkDelay;
    }

    /**
     * The initial state, for processors extending {@code StatefulProcessorWithInitialState} or a
     * legacy function ({@link GroupsWithState}): applied in batch 0 only.
     */
    public Optional<InitialState<K, ?>> initialState() {
        return Optional.ofNullable(initialState);
    }

    /**
     * The output column named by the {@code transformWithState(processor, eventTimeColumnName, ...)}
     * overload, if used: it carries the watermark downstream, and an output row whose event time is
     * at or before the batch's late-event watermark fails the query with
     * {@code EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED}.
     */
    public Optional<String> outputEventTimeColumn() {
        return Optional.ofNullable(outputEventTimeColumn);
    }

    /**
     * {@code spark.sql.shuffle.partitions}: how many state partitions the keys are hashed into
     * (default 1). It decides which keys share a processor instance and the order of a batch's output.
     */
    public int shufflePartitions() {
        return shufflePartitions;
    }

    /**
     * The query's trigger, {@code Trigger.ProcessingTime(0)} (Spark's default) unless set: when
     * micro-batches run (see {@link Builder#trigger}).
     */
    public Trigger trigger() {
        return trigger == null ? Trigger.ProcessingTime(0L) : trigger;
    }

    /**
     * The trigger's interval in milliseconds; 0 runs the next batch as soon as the last one ends
     * (also for {@code Trigger.AvailableNow()}).
     */
    public long triggerIntervalMs() {
        return trigger == null ? 0 : Triggers.intervalMs(trigger);
    }

    /**
     * The state store's encoding format, {@code spark.sql.streaming.stateStore.encodingFormat}
     * (default {@link StateEncoding#UNSAFE_ROW}, as Spark's).
     */
    public StateEncoding stateEncoding() {
        return stateEncoding;
    }

    /** The same query with another state encoding format (see {@link Builder#stateEncoding}). */
    public TwsQuery<K, I, O> withStateEncoding(StateEncoding encoding) {
        return with(shufflePartitions, trigger, Objects.requireNonNull(encoding, "encoding must not be null"));
    }

    /** The same query with {@code spark.sql.shuffle.partitions} set to {@code partitions}. */
    public TwsQuery<K, I, O> withShufflePartitions(int partitions) {
        return with(PlanRules.requirePartitions(partitions), trigger, stateEncoding);
    }

    /** The same query with another trigger (see {@link Builder#trigger}). */
    public TwsQuery<K, I, O> withTrigger(Trigger trigger) {
        Objects.requireNonNull(trigger, "trigger must not be null");
        Triggers.intervalMs(trigger); // fails for a trigger that is not modelled
        return with(shufflePartitions, trigger, stateEncoding);
    }

    /** This query with the query-level settings given, in every operator. */
    private TwsQuery<K, I, O> with(int partitions, Trigger trigger, StateEncoding encoding) {
        return new TwsQuery<>(this, partitions, trigger, encoding);
    }

    /**
     * The query's stateful operators in plan order (the source's first, the sink's last), each as a
     * query of one operator with this query's shuffle partitions, trigger and state encoding. A
     * query of one operator is its own only operator. Only the first has {@link #eventTimeColumn()}
     * and {@link #initialState()}.
     */
    public List<TwsQuery<?, ?, ?>> operators() {
        return operators == null ? List.of(this) : operators;
    }

    /**
     * This query, then {@code next} applied to its output: {@code next}'s key function regroups this
     * query's output rows, as {@code .groupByKey(...).transformWithState(...)} after a
     * {@code transformWithState} does in Spark. The query keeps this one's source, watermark, initial
     * state, shuffle partitions, trigger and state encoding; {@code next} runs with them. It accepts
     * what Spark 4.x accepts: any {@code transformWithState} after a {@code transformWithState} (the
     * next gets the previous one's {@link Builder#outputEventTimeColumn} as its event-time column
     * when it has one, else no late-row filter; no watermark after a ProcessingTime-mode operator),
     * and a legacy operator ({@link #flatMapGroupsWithState}, {@link #mapGroupsWithState}, as an
     * unbuilt {@link Builder}) anywhere but after one with {@code EventTimeTimeout}. {@code next}
     * has this query's output encoder as input encoder and no {@code watermark(...)}, initial state
     * or trigger of its own.
     *
     * @throws IllegalArgumentException naming Spark's error class and what to change, when Spark
     *                                  would not run the plan (or twstester does not model it)
     */
    public <K2, O2> TwsQuery<K, I, O2> then(TwsQuery<K2, O, O2> next) {
        Objects.requireNonNull(next, "next must not be null");
        PlanRules.requireDownstream(this, next);
        List<TwsQuery<?, ?, ?>> all = new ArrayList<>(operators());
        for (TwsQuery<?, ?, ?> op : next.operators()) {
            all.add(op.with(shufflePartitions, trigger, stateEncoding));
        }
        return new TwsQuery<>(this, next.outputEncoder, List.copyOf(all), shufflePartitions, trigger, stateEncoding);
    }

    /**
     * {@link #then(TwsQuery)} with the next operator's builder, built here as an operator that reads
     * this query's output and watermark (a legacy {@code EventTimeTimeout()} needs no watermark of its own).
     * <pre>{@code
     * TwsQuery<String, Click, SessionEnd> query = sessions.then(TwsQuery.flatMapGroupsWithState(
     *                 new SessionEnds(), OutputMode.Append(), Encoders.LONG(), GroupStateTimeout.EventTimeTimeout())
     *         .keyBy(Session::getUser, Encoders.STRING())
     *         .input(Encoders.bean(Session.class))
     *         .output(Encoders.bean(SessionEnd.class)));
     * }</pre>
     */
    public <K2, O2> TwsQuery<K, I, O2> then(Builder<K2, O, O2> next) {
        Objects.requireNonNull(next, "next must not be null");
        return then(next.buildDownstreamOf(this));
    }

    /**
     * Initial-state rows and their encoder: the {@code KeyValueGroupedDataset<K, S>} passed to
     * {@code transformWithState} (duplicate keys are allowed, as in Spark: each row is one
     * {@code handleInitialState} call) or to a legacy {@code mapGroupsWithState} /
     * {@code flatMapGroupsWithState} (one row per key; see {@link Builder#initialState}).
     *
     * @param rows    key/value pairs in the order given
     * @param encoder the encoder of the state values
     * @param <K>     grouping key type
     * @param <S>     initial state value type
     */
    public record InitialState<K, S>(List<Map.Entry<K, S>> rows, Encoder<S> encoder) {
        public InitialState {
            rows = List.copyOf(rows);
            Objects.requireNonNull(encoder, "encoder must not be null");
        }
    }

    /** Fluent builder; every setter returns this builder. */
    public static final class Builder<K, I, O> {
        private Supplier<? extends StatefulProcessor<K, I, O>> processor;
        private final GroupsWithState<K, I, ?, O> groupsWithState;
        private ValueMapping<K, I, ?, O> valueMapping;
        private boolean outputModeSet;
        private MapFunction<I, K> keyFunction;
        private Encoder<K> keyEncoder;
        private Encoder<I> inputEncoder;
        private Encoder<O> outputEncoder;
        private TimeMode timeMode = TimeMode.None();
        private OutputMode outputMode = OutputMode.Update();
        private String eventTimeColumn;
        private Duration watermarkDelay = Duration.ZERO;
        private InitialState<K, ?> initialState;
        private boolean timeModeSet;
        private String outputEventTimeColumn;
        private int shufflePartitions = 1;
        /** Null for Spark's default, {@code ProcessingTime(0)} (made only when asked for). */
        private Trigger trigger;
        private StateEncoding stateEncoding = StateEncoding.UNSAFE_ROW;

        private Builder(Supplier<? extends StatefulProcessor<K, I, O>> processor) {
            this.processor = processor;
            this.groupsWithState = null;
        }

        private Builder(GroupsWithState<K, I, ?, O> groupsWithState) {
            this.processor = null;
            this.groupsWithState = groupsWithState;
            this.timeMode = groupsWithState.timeMode();
            this.outputMode = groupsWithState.outputMode();
        }

        /**
         * {@code groupByKey(...).mapValues(function, encoder)}, as Spark's: the processor reads the mapped
         * values; {@link #keyBy} and {@link #input} read the source rows. Call it right after
         * {@code builder(...)}. Rules and example: {@link ValueMapping}.
         */
        @SuppressWarnings({"unchecked", "rawtypes"})
        public <S> Builder<K, S, O> mapValues(MapFunction<S, I> function, Encoder<I> encoder) {
            PlanRules.requireMapValuesFirst(groupsWithState, valueMapping != null || keyFunction != null || inputEncoder != null);
            ValueMapping<K, S, I, O> mapping = new ValueMapping<>(function, encoder, processor);
            Builder<K, S, O> retyped = (Builder) this; // nothing set so far reads the rows' type
            retyped.valueMapping = mapping;
            retyped.processor = mapping::newAdapter;
            return retyped;
        }

        /** The {@code groupByKey} function and the key's encoder. */
        public Builder<K, I, O> keyBy(MapFunction<I, K> keyFunction, Encoder<K> keyEncoder) {
            this.keyFunction = Objects.requireNonNull(keyFunction, "keyFunction must not be null");
            this.keyEncoder = Objects.requireNonNull(keyEncoder, "keyEncoder must not be null");
            return this;
        }

        /** The encoder of the input rows (the Dataset's encoder). */
        public Builder<K, I, O> input(Encoder<I> inputEncoder) {
            this.inputEncoder = Objects.requireNonNull(inputEncoder, "inputEncoder must not be null");
            return this;
        }

        /** The output encoder passed to {@code transformWithState}. */
        public Builder<K, I, O> output(Encoder<O> outputEncoder) {
            this.outputEncoder = Objects.requireNonNull(outputEncoder, "outputEncoder must not be null");
            return this;
        }

        /** {@code TimeMode.None()} (the default), {@code ProcessingTime()} or {@code EventTime()}. */
        public Builder<K, I, O> timeMode(TimeMode timeMode) {
            this.timeMode = Objects.requireNonNull(timeMode, "timeMode must not be null");
            this.timeModeSet = true;
            return this;
        }

        /** The output mode passed to {@code transformWithState} (default {@code Update()}). */
        public Builder<K, I, O> outputMode(OutputMode outputMode) {
            this.outputMode = Objects.requireNonNull(outputMode, "outputMode must not be null");
            this.outputModeSet = true;
            return this;
        }

        /** {@code withWatermark(column, delay)} on the input: late-row filter and watermark source. */
        public Builder<K, I, O> watermark(String eventTimeColumn, Duration delay) {
            this.eventTimeColumn = Objects.requireNonNull(eventTimeColumn, "eventTimeColumn must not be null");
            Objects.requireNonNull(delay, "delay must not be null");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("watermark delay must not be negative: " + delay);
            }
            this.watermarkDelay = delay;
            return this;
        }

        /**
         * Initial state rows (key, value) and the value encoder: the {@code KeyValueGroupedDataset<K, S>}
         * passed as {@code initialState}. Applied in batch 0 only (not after a restart from a
         * checkpoint that has committed batch 0).
         * <ul>
         * <li>A {@code transformWithState} processor must extend {@code StatefulProcessorWithInitialState};
         * each row is one {@code handleInitialState} call (duplicate keys allowed).</li>
         * <li>A legacy {@code mapGroupsWithState} / {@code flatMapGroupsWithState} function
         * ({@link TwsQuery#mapGroupsWithState}): {@code encoder} must have the schema of the query's
         * state encoder, else {@code build()} fails with Spark's error; each key's value becomes its
         * state with no timeout, a key given twice fails batch 0 (see {@link GroupsWithState}).</li>
         * </ul>
         */
        public <S> Builder<K, I, O> initialState(List<? extends Map.Entry<K, S>> rows, Encoder<S> encoder) {
            Objects.requireNonNull(rows, "rows must not be null");
            this.initialState = new InitialState<>(new ArrayList<>(rows), encoder);
            return this;
        }

        /**
         * Uses the {@code transformWithState(processor, eventTimeColumnName, outputMode, ...)} overload:
         * {@code column} (a timestamp column of the output encoder) becomes the output's event-time
         * column. That overload runs in {@code TimeMode.EventTime()} and needs a {@link #watermark}.
         */
        public Builder<K, I, O> outputEventTimeColumn(String column) {
            this.outputEventTimeColumn = Objects.requireNonNull(column, "column must not be null");
            return this;
        }

        /** {@code spark.sql.shuffle.partitions} (default 1); see {@link TwsQuery#shufflePartitions()}. */
        public Builder<K, I, O> shufflePartitions(int partitions) {
            this.shufflePartitions = PlanRules.requirePartitions(partitions);
            return this;
        }

        /**
         * The trigger of {@code writeStream().trigger(...)}: {@code Trigger.ProcessingTime(interval)}
         * with any interval (default 0, Spark's default) or {@code Trigger.AvailableNow()}. With an
         * interval, a micro-batch runs only when the processing-time clock reaches a trigger time
         * (multiples of the interval): rows added in between wait for it, and the no-data batch after
         * a watermark advance runs at the next trigger time, or is replaced by a data batch when rows
         * are waiting then. With {@code AvailableNow} every start of the query is a run that reads
         * the rows waiting then and ends by itself.
         * <pre>{@code
         * .trigger(Trigger.ProcessingTime("1 minute"))
         * }</pre>
         */
        public Builder<K, I, O> trigger(Trigger trigger) {
            Objects.requireNonNull(trigger, "trigger must not be null");
            Triggers.intervalMs(trigger); // fails for a trigger that is not modelled
            this.trigger = trigger;
            return this;
        }

        /**
         * The state store's encoding format (default {@link StateEncoding#UNSAFE_ROW}): which value
         * schema changes a restart with a new processor version accepts. The live runner sets
         * {@code spark.sql.streaming.stateStore.encodingFormat} to it.
         */
        public Builder<K, I, O> stateEncoding(StateEncoding encoding) {
            this.stateEncoding = Objects.requireNonNull(encoding, "encoding must not be null");
            return this;
        }

        /** The immutable query; fails if a required part is missing. */
        public TwsQuery<K, I, O> build() {
            return build(eventTimeColumn);
        }

        /**
         * The operator after {@code upstream}'s: a legacy {@code EventTimeTimeout} reads the event-time
         * column of its input (the last operator's output event-time column), the
         * {@code eventTimeColumnName} overload any watermark upstream (the first operator's).
         */
        TwsQuery<K, I, O> buildDownstreamOf(TwsQuery<?, ?, ?> upstream) {
            // with a watermark of its own, the check of TwsQuery#then says what to do
            return eventTimeColumn != null ? build() : build(PlanRules.watermarkColumnAfter(upstream, groupsWithState != null));
        }

        /** The query, checked with {@code watermarkColumn} as its input's event-time column. */
        private TwsQuery<K, I, O> build(String watermarkColumn) {
            if (groupsWithState != null) {
                groupsWithState.checkQuery(timeModeSet ? timeMode : null, outputModeSet ? outputMode : null,
                        watermarkColumn, initialState, outputEventTimeColumn);
                return new TwsQuery<>(this);
            }
            if (outputEventTimeColumn != null) {
                PlanRules.requireEventTimeOverload(outputEventTimeColumn, timeModeSet ? timeMode : null, watermarkColumn);
                timeMode = TimeMode.EventTime();
            }
            TwsQuery<K, I, O> query = new TwsQuery<>(this);
            if (initialState != null && !(query.newProcessor() instanceof StatefulProcessorWithInitialState)) {
                throw new IllegalArgumentException("initialState(...) needs a processor extending "
                        + "StatefulProcessorWithInitialState<K, I, O, S>; this one does not");
            }
            return query;
        }
    }
}
