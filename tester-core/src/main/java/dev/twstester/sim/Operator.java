package dev.twstester.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.ProcessorException;
import dev.twstester.TwsQuery;
import dev.twstester.internal.Sneaky;

/**
 * One stateful operator of a simulated query: its definition, its codecs, its state store, the
 * processor instances its tasks get, and one micro-batch of its tasks ({@link #runBatch}), whose
 * state changes stay pending until the whole query's batch commits ({@link BatchExecution}).
 * What {@code transformWithState} and the legacy functions do differently is its
 * {@link OperatorKind}.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
final class Operator<K, I, O> {
    private final int index;
    private final boolean onlyOperator;
    private final TwsQuery<K, I, O> query;
    private final OperatorKind<K, I, O> kind;
    private final KeyCodec<K> keyCodec;
    private final KeyCodec<I> inputCodec;
    private final KeyCodec<O> outputCodec;
    private final SimulatorOptions options;
    private final OperatorStore<K> store;
    /** The late filter's event-time column: the input's {@code withWatermark} column, or the previous operator's output column. */
    private final EventTimeColumn<I> lateFilter;
    /** The {@code eventTimeColumnName} overload's column, checked against the late watermark; null without it. */
    private final EventTimeColumn<O> outputEventTime;
    /**
     * Whether the query's watermark reaches this operator: Spark's {@code PropagateWatermarkSimulator}
     * gives an operator after a ProcessingTime-mode {@code transformWithState} or a legacy function
     * (whose {@code produceOutputWatermark} is None) no watermark, which it reads as 0.
     */
    private final boolean queryWatermark;
    private final Listeners<?, ?, ?> listeners;
    private final UUID queryId;
    private UUID runId = SimHandle.randomId();
    private ProcessorCopies<StatefulProcessor<K, I, O>> processors;
    /** What this run's driver-side pass threw (it fails every batch of the run); null when it passed. */
    private Exception driverFailure;
    /** The last batch's metrics, shared by the next batch when its figures are the same. */
    private final Metrics.Last lastMetrics = new Metrics.Last();
    /** The tasks' counters, reused by each batch: a batch's figures are summed before the next one runs. */
    private final List<Metrics> taskMetrics = new ArrayList<>();
    /** The last batch's {@code TimerValues}. */
    private OperatorBatch.Timers lastTimers;
    /** Which partition each key is in, when there is one partition (more need a cache per batch). */
    private final OperatorBatch.Partitions onePartition;

    /**
     * Operator {@code index} of a query of {@code count} operators; {@code lateFilterColumn} is the
     * event-time column of its input, which its late-row filter reads (null: none), {@code queryWatermark}
     * whether the query's watermark reaches it. Runs the driver-side {@code init}/{@code close} pass
     * (a failure of it fails the run's first batch).
     */
    Operator(int index, int count, TwsQuery<K, I, O> query, String lateFilterColumn, boolean queryWatermark,
            SimulatorOptions options, Listeners<?, ?, ?> listeners, UUID queryId) {
        this.index = index;
        this.queryWatermark = queryWatermark;
        this.onlyOperator = count == 1;
        this.query = query;
        this.options = options;
        this.listeners = listeners;
        this.queryId = queryId;
        this.kind = OperatorKind.of(query, lateFilterColumn != null);
        this.keyCodec = KeyCodec.of(query.keyEncoder());
        this.onePartition = query.shufflePartitions() == 1 ? new OperatorBatch.Partitions(1, keyCodec) : null;
        this.inputCodec = KeyCodec.of(query.inputEncoder());
        this.outputCodec = KeyCodec.of(query.outputEncoder());
        this.store = new OperatorStore<>(query, keyCodec, options.fidelity());
        this.lateFilter = lateFilterColumn == null ? null : new EventTimeColumn<>(query.inputEncoder(), lateFilterColumn,
                index == 0 ? "watermark" : "outputEventTimeColumn");
        this.outputEventTime = query.outputEventTimeColumn()
                .map(c -> new EventTimeColumn<>(query.outputEncoder(), c, "outputEventTimeColumn")).orElse(null);
        kind.declareState(store.store()); // there from the start, so that state() reads and writes it before batch 0
        startRun();
    }

    TwsQuery<K, I, O> query() {
        return query;
    }

    int index() {
        return index;
    }

    OperatorKind<K, I, O> kind() {
        return kind;
    }

    OperatorStore<K> store() {
        return store;
    }

    KeyCodec<K> keyCodec() {
        return keyCodec;
    }

    KeyCodec<I> inputCodec() {
        return inputCodec;
    }

    KeyCodec<O> outputCodec() {
        return outputCodec;
    }

    Fidelity fidelity() {
        return options.fidelity();
    }

    boolean realTime() {
        return options.realTimeMode();
    }

    EventTimeColumn<I> lateFilterColumn() {
        return lateFilter;
    }

    /**
     * Whether the next operator gets the watermark this one gets: Spark's {@code produceOutputWatermark}
     * is the input watermark for a {@code transformWithState} in EventTime or None mode, None (no
     * watermark) in ProcessingTime mode and for a legacy function.
     */
    boolean passesWatermarkOn() {
        return queryWatermark && query.groupsWithState().isEmpty() && !query.timeMode().equals(TimeMode.ProcessingTime());
    }

    /** The watermark this operator filters late rows with in {@code planned}: the previous batch's, or 0. */
    long lateWatermarkMs(Checkpoint.PlannedBatch planned) {
        return !queryWatermark ? 0 : options.hasFault(Fault.LATE_FILTER_USES_CURRENT_WATERMARK)
                ? planned.evictionWatermarkMs() : planned.lateWatermarkMs();
    }

    /** The watermark this operator's timers, {@code TimerValues} and eviction use in {@code planned}, or 0. */
    long evictionWatermarkMs(Checkpoint.PlannedBatch planned) {
        return queryWatermark ? planned.evictionWatermarkMs() : 0;
    }

    /**
     * Late rows are dropped in EventTime mode only (Spark plans the filter only there), and not after
     * {@code mapValues}, which projects the event-time column away.
     */
    boolean filtersLateRows() {
        return query.timeMode().equals(TimeMode.EventTime()) && query.valueMapping().isEmpty();
    }

    /** How errors name this operator: "query" for a query of one operator. */
    String describe() {
        return onlyOperator ? "query" : "operator " + index + " (" + query.userClass().getSimpleName() + ")";
    }

    /** A restart from the checkpoint: a new run id and processor, driver pass included. */
    void restart() {
        startRun();
        runId = SimHandle.randomId();
    }

    /**
     * A run of the query starts: the driver-side pass. Spark runs it when the run plans its first
     * batch, so its failure fails that batch ({@link #throwDriverFailure}), not the start.
     */
    private void startRun() {
        try {
            processors = copies(driverPass());
            driverFailure = null;
        } catch (Exception e) { // Spark's checked SparkException too (Spark 4.0's planning error)
            processors = null;
            driverFailure = e;
        }
    }

    /** Throws what this run's driver-side pass threw, if it threw: the batch being planned fails with it. */
    void throwDriverFailure() {
        if (driverFailure != null) {
            throw Sneaky.raise(driverFailure);
        }
    }

    /**
     * Runs this operator's tasks for {@code planned} on {@code rows}, filtering late rows with its
     * {@link #lateWatermarkMs}; the state changes stay pending in the store. {@code knownKey}, when not
     * null, is the encoded key every row is known to have, and {@code keyObject} that key as an
     * object (handed to the processor when a copy is indistinguishable).
     */
    OperatorBatch<K, I, O> runBatch(Checkpoint.PlannedBatch planned, List<I> rows, Bytes knownKey, K keyObject,
            int attempt, boolean recordCalls) {
        BatchInput<K, I> input = BatchInput.of(this, rows, knownKey, lateWatermarkMs(planned), planned.id());
        OperatorBatch<K, I, O> batch = new OperatorBatch<>(planned, queryWatermark ? planned.lateWatermarkMs() : 0,
                timerValues(planned), input, recordCalls, query.shufflePartitions(), taskMetrics);
        Scope scope = store.scope();
        scope.batchTimestamp(planned.timestampMs());
        try {
            OperatorBatch.Partitions partitions = onePartition != null ? onePartition
                    : new OperatorBatch.Partitions(query.shufflePartitions(), keyCodec);
            List<List<Bytes>> keys = partitions.split(knownKey != null && input.byKey.size() == 1 ? List.of(knownKey)
                    : sortedKeys(input.byKey));
            Map<Bytes, List<Object>> initial = planned.id() == 0 ? kind.initialRows(this) : Map.of();
            List<List<Bytes>> initialKeys = partitions.split(sortedKeys(initial));
            for (int p = 0; p < partitions.count; p++) {
                scope.countInto(batch.metricsOfTask());
                new Task<>(this, batch, p, partitions, initial, initialKeys.get(p), keys.get(p), knownKey, keyObject,
                        attempt).run();
            }
            scope.countInto(batch.metricsOfTask());
            int expired = store.store().removeExpired(planned.timestampMs());
            scope.metrics().add(Metric.VALUES_REMOVED_DUE_TO_TTL_EXPIRY, expired);
            scope.metrics().add(Metric.REMOVED_STATE_ROWS, expired);
            scope.metrics().add(Metric.ROWS_DROPPED_BY_WATERMARK, input.dropped.size());
            return batch;
        } finally {
            scope.enter(null);
            scope.countInto(Metrics.DISCARD);
        }
    }

    /** The {@code TimerValues} of {@code planned}: the last batch's when they are the same (they are immutable). */
    private OperatorBatch.Timers timerValues(Checkpoint.PlannedBatch planned) {
        long eviction = evictionWatermarkMs(planned);
        if (lastTimers == null || lastTimers.processingTimeMs() != planned.timestampMs()
                || lastTimers.watermarkMs() != eviction) {
            lastTimers = new OperatorBatch.Timers(planned.timestampMs(), eviction);
        }
        return lastTimers;
    }

    /** The batch's metrics as this kind of operator reports them. */
    Map<String, Long> metrics(OperatorBatch<K, I, O> batch) {
        return kind.reported(batch.summedMetrics(lastMetrics));
    }

    /**
     * Whether this operator asks for a no-data batch after the last one, {@code watermarkAdvanced}
     * saying whether the query's watermark moved (an operator it does not reach sees none move).
     */
    boolean asksForNoDataBatch(boolean watermarkAdvanced) {
        return kind.asksForNoDataBatch(queryWatermark && watermarkAdvanced);
    }

    /** A task's processor: at FULL a serialized copy of the driver's instance, at FAST a new one. */
    StatefulProcessor<K, I, O> freshProcessor() {
        return options.fidelity() == Fidelity.FULL ? processors.fresh() : kind.newProcessor();
    }

    /** The executor-side handle of a task of batch {@code batchId}. */
    SimHandle taskHandle(long batchId) {
        return new SimHandle(store.store(), queryId, runId, batchId);
    }

    /** {@code row}'s encoded grouping key. */
    Bytes keyOf(I row) {
        return new Bytes(keyCodec.encode(keyObjectOf(row)));
    }

    /** {@code row}'s grouping key, from the operator's key function. */
    K keyObjectOf(I row) {
        try {
            return query.keyFunction().call(row);
        } catch (Exception e) {
            throw new IllegalArgumentException("the key function threw for input row " + row + ": " + e, e);
        }
    }

    /**
     * {@code key} encoded, once every row is checked to have it: at FULL every row, at FAST the
     * first and the last ({@code test(key, rows)}).
     */
    byte[] requireKey(K key, List<I> rows) {
        byte[] expected = keyCodec.encode(key);
        if (options.fidelity() == Fidelity.FULL) {
            for (I row : rows) {
                requireKey(key, expected, row);
            }
        } else if (!rows.isEmpty()) {
            requireKey(key, expected, rows.get(0));
            requireKey(key, expected, rows.get(rows.size() - 1));
        }
        return expected;
    }

    private void requireKey(K key, byte[] expected, I row) {
        K actual = keyObjectOf(row);
        boolean same = keyCodec.immutable() ? key.equals(actual) : java.util.Arrays.equals(expected, keyCodec.encode(actual));
        if (!same) {
            throw new IllegalArgumentException("row " + row + " has key " + actual + ", not " + key
                    + "; test(key, rows) takes one key's rows, use runBatch(rows) for several keys");
        }
    }

    /** The keys in Spark's key order. */
    List<Bytes> sortedKeys(Map<Bytes, ?> byKey) {
        if (byKey.isEmpty()) {
            return List.of();
        }
        if (byKey.size() == 1) {
            return List.copyOf(byKey.keySet());
        }
        List<Bytes> keys = new ArrayList<>(byKey.keySet());
        keys.sort((a, b) -> keyCodec.compareNatural(a.array(), b.array()));
        return keys;
    }

    /** An output row as the next operator or the sink gets it: through the output encoder at FULL, errors included. */
    O delivered(O row) {
        if (options.fidelity() == Fidelity.FULL && (!outputCodec.immutable() || !outputCodec.acceptsAsIs(row))) {
            return outputCodec.decode(outputCodec.encode(row));
        }
        return row;
    }

    /** Whether two output rows are the same: their encoded bytes at FULL for types without a reliable equals. */
    boolean sameOutput(Object a, Object b) {
        if (options.fidelity() == Fidelity.FULL && !outputCodec.immutable()) {
            @SuppressWarnings("unchecked")
            O x = (O) a;
            @SuppressWarnings("unchecked")
            O y = (O) b;
            return java.util.Arrays.equals(outputCodec.encode(x), outputCodec.encode(y));
        }
        return java.util.Objects.equals(a, b);
    }

    /**
     * The {@code eventTimeColumnName} overload's check ({@code UpdateEventTimeColumnExec}): an output
     * row at or before the batch's late-event watermark fails the query.
     */
    void checkEventTime(O row, long lateWatermarkMs) {
        if (outputEventTime == null) {
            return;
        }
        Long micros = outputEventTime.fromObject(row);
        if (micros != null && micros <= lateWatermarkMs * 1000L) {
            throw SparkErrors.emittedRowOlderThanWatermark(lateWatermarkMs, micros);
        }
    }

    /** Tells the listeners a handler is called; the call, or null when nobody listens. */
    HandlerCall handlerStarting(String handler, Object key, long batchId, int attempt, int partition, Object instance) {
        if (listeners.isEmpty()) {
            return null;
        }
        HandlerCall call = new HandlerCall(index, batchId, attempt, partition, handler, key, instance);
        listeners.handlerStarting(call);
        return call;
    }

    void handlerEnded(HandlerCall call, List<Object> emitted) {
        listeners.handlerEnded(call, emitted);
    }

    /** FULL: serialized copies of the driver's instance, as tasks get them; FAST uses the supplier. */
    private ProcessorCopies<StatefulProcessor<K, I, O>> copies(StatefulProcessor<K, I, O> driver) {
        if (options.fidelity() != Fidelity.FULL) {
            return null;
        }
        return new ProcessorCopies<>(driver, kind.supplierMayStandIn() ? kind::newProcessor : () -> null);
    }

    /** The driver-side init/close pass Spark runs twice when a query run starts. */
    private StatefulProcessor<K, I, O> driverPass() {
        StatefulProcessor<K, I, O> driver = kind.newProcessor();
        for (int pass = 0; pass < 2; pass++) {
            driver.setHandle(new DriverHandle(store.store(), options.sparkLine()));
            run("init", null, -1, () -> driver.init(query.outputMode(), query.timeMode()));
            run("close", null, -1, driver::close);
            driver.setHandle(null);
        }
        return driver;
    }

    /** Calls a user function that returns a value; its exception as {@link #userFailure} says. */
    <R> R callSync(String function, Object key, long batchId, Supplier<R> call) {
        try {
            return call.get();
        } catch (Exception e) {
            throw userFailure(function, key, batchId, e);
        }
    }

    /** Calls a user function that returns nothing; its exception as {@link #userFailure} says. */
    void run(String function, Object key, long batchId, Runnable call) {
        try {
            call.run();
        } catch (Exception e) {
            throw userFailure(function, key, batchId, e);
        }
    }

    /**
     * Spark's {@code withStatefulProcessorErrorHandling} (4.1 on): Spark errors as they are, the
     * user's exceptions wrapped (checked ones thrown without being declared, e.g. by Lombok's
     * {@code @SneakyThrows} or Kotlin, too), {@link Error}s not (they are never caught). Spark 4.0
     * wraps nothing: see {@link #unwrapped}.
     */
    RuntimeException userFailure(String function, Object key, long batchId, Exception e) {
        if (kind.passesHandlerErrors() || e instanceof SparkThrowable st && st.getCondition() != null) {
            return Sneaky.raise(e);
        }
        if (!options.sparkLine().wrapsUserFunctionErrors()) {
            return unwrapped(function, key, batchId, e);
        }
        return ProcessorException.userFunction(function, key, batchId, e);
    }

    /**
     * Spark 4.0: a task's exception fails the stage with the user's exception as the cause; the
     * driver-side pass runs while the query is planned, which turns a {@code NullPointerException}
     * (such as using a state variable Spark 4.0's driver handle returned as null) into Spark's
     * {@code INTERNAL_ERROR} and lets any other exception through as it is.
     */
    private static RuntimeException unwrapped(String function, Object key, long batchId, Exception e) {
        if (batchId >= 0) {
            return ProcessorException.taskFailure(function, key, batchId, e);
        }
        if (e instanceof NullPointerException) {
            return SparkErrors.planningInternalError(e);
        }
        return Sneaky.raise(e);
    }

    /** The deliberate deviations this simulator was built with (see {@link Fault}). */
    Set<Fault> faults() {
        return options.faults();
    }
}
