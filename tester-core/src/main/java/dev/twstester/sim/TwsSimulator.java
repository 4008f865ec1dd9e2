package dev.twstester.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/**
 * Runs a {@link TwsQuery} in memory, micro-batch by micro-batch, as Spark 4.2.0 with the RocksDB
 * state store would, with the query's shuffle partitions and every stateful operator it has. No
 * SparkSession is started.
 *
 * <pre>{@code
 * TwsSimulator<String, CartEvent, CartAlert> sim = new TwsSimulator<>(query);   // runs the driver-side init pass
 * RunResult<String, CartEvent, CartAlert> run = sim.runBatch(events);           // a batch, and the no-data batch it asks for
 * sim.state().timers("ana");                                                    // state and timers between batches
 * sim.advanceWatermarkTo(Instant.parse("2024-05-01T10:31:00Z"));               // a test convenience Spark has not
 * }</pre>
 *
 * <p>{@link #runBatch(List)} is one micro-batch across keys: late rows dropped against the previous
 * batch's watermark, keys in Spark's ascending key order with all of a key's rows in one
 * {@code handleInputRows} call, then due timers, then TTL cleanup, then {@code close()}. When the
 * batch moved the watermark (EventTime or None mode with Append or Update output), the no-data
 * batch Spark runs next follows at the next trigger: at once with the default zero interval.
 * {@link #test} is a one-key batch, like Spark's {@code TwsTester.test}. Processing time is a
 * manual clock starting at the epoch ({@link #setProcessingTime}); the trigger decides when
 * batches run (see {@code TwsQuery.Builder#trigger}).
 *
 * <p>A query of several operators ({@link TwsQuery#then}) runs each batch through all of them in
 * plan order, each on the previous one's outputs, and commits in all or none; each
 * {@link BatchResult} has every operator's view ({@link BatchResult#operators()}), and
 * {@link #state(int)} reads and writes each operator's state.
 *
 * <p>Values go through the query's and the state variables' Spark encoders, natively where
 * twstester writes Spark's bytes itself ({@link #encoderPaths()}). {@link #restart()},
 * {@link #snapshot()}, {@link #restore} and {@link #restartWith} model the checkpoint;
 * {@link #builder} adds {@code checkRetries()}, {@code realTimeMode()}, {@code keepHistory(false)}
 * and {@link SimulatorListener}s, which see every call, handler call and committed batch.
 *
 * <p>One source; partitions run one after another. A failing batch rethrows and stops the query,
 * as in Spark: its state changes are rolled back, and it stays in the offset log, so the next
 * {@link #start()}, {@link #restart()} or {@link #restartWith} runs it again first, with the same
 * id, rows, timestamp and watermarks (see docs/faults.md). A subclass (the JUnit extension's {@code TestSimulator}) may add
 * methods; every method here is final.
 *
 * @param <K> grouping key type (the first operator's)
 * @param <I> input row type
 * @param <O> output row type
 */
public class TwsSimulator<K, I, O> {
    private final Builder<K, I, O> options;
    private final SimulatorOptions settings;
    private final TwsQuery<K, I, O> query;
    private final Checkpoint checkpoint = new Checkpoint();
    private final List<Operator<?, ?, ?>> operators;
    private final BatchExecution<K, I, O> execution;
    private final MicroBatchLoop<K, I, O> loop;
    private final Calls<K, I, O> calls;

    /** A simulator for {@code query} at {@link Fidelity#FULL}, with processing time and watermark at the epoch. */
    public TwsSimulator(TwsQuery<K, I, O> query) {
        this(builder(query));
    }

    /** A simulator for {@code query} at the given fidelity ({@link Fidelity#FAST} keeps objects by reference). */
    public TwsSimulator(TwsQuery<K, I, O> query, Fidelity fidelity) {
        this(builder(query).fidelity(fidelity));
    }

    /**
     * A simulator with {@code builder}'s query and options, for a subclass; others call
     * {@link Builder#build()}.
     */
    protected TwsSimulator(Builder<K, I, O> builder) {
        this.options = builder.forQuery(builder.query);
        this.query = builder.query;
        Listeners<K, I, O> listeners = new Listeners<>(builder.listeners);
        this.settings = builder.options;
        this.calls = new Calls<>(listeners, settings.keepHistory());
        UUID queryId = SimHandle.randomId();
        List<TwsQuery<?, ?, ?>> defined = query.operators();
        List<Operator<?, ?, ?>> ops = new ArrayList<>(defined.size());
        String lateFilter = query.eventTimeColumn().orElse(null);
        boolean queryWatermark = true;
        for (TwsQuery<?, ?, ?> op : defined) {
            Operator<?, ?, ?> operator = new Operator<>(ops.size(), defined.size(), op, lateFilter, queryWatermark,
                    settings, listeners, queryId);
            ops.add(operator);
            lateFilter = op.outputEventTimeColumn().orElse(null);
            queryWatermark = operator.passesWatermarkOn();
        }
        this.operators = List.copyOf(ops);
        this.execution = new BatchExecution<>(operators, checkpoint, settings, query.watermarkDelay().toMillis());
        this.loop = new MicroBatchLoop<>(query, execution, checkpoint, batch -> calls.committed(batch, this),
                failed -> calls.failed(failed, this));
    }

    /**
     * A simulator with options beyond the fidelity:
     * <pre>{@code
     * TwsSimulator<String, Event, Alert> sim = TwsSimulator.builder(query)
     *         .fidelity(Fidelity.FULL)   // the default
     *         .checkRetries()            // run every batch twice, fail if the runs differ
     *         .realTimeMode()            // one handleInputRows call per input row
     *         .keepHistory(false)        // history() keeps nothing: memory bounded by the state
     *         .listener(myListener)      // sees every call, handler call and committed batch
     *         .build();
     * }</pre>
     * The shuffle partitions are part of the query ({@code TwsQuery.Builder#shufflePartitions}).
     */
    public static <K, I, O> Builder<K, I, O> builder(TwsQuery<K, I, O> query) {
        return new Builder<>(Objects.requireNonNull(query, "query must not be null"));
    }

    /** Options of a {@link TwsSimulator}; each setter returns this builder. */
    public static final class Builder<K, I, O> {
        private final TwsQuery<K, I, O> query;
        private SimulatorOptions options = SimulatorOptions.DEFAULTS;
        private final List<SimulatorListener<K, I, O>> listeners = new ArrayList<>();

        private Builder(TwsQuery<K, I, O> query) {
            this.query = query;
        }

        /** {@link Fidelity#FULL} (the default) or {@link Fidelity#FAST}. */
        public Builder<K, I, O> fidelity(Fidelity fidelity) {
            options = options.withFidelity(Objects.requireNonNull(fidelity, "fidelity must not be null"));
            return this;
        }

        /**
         * Runs every batch twice, the second time from the state committed before it, as Spark does
         * when it retries a failed task, and throws {@link NondeterministicBatchException} naming the
         * batch and key when the two runs emit different rows or leave different state or timers.
         */
        public Builder<K, I, O> checkRetries() {
            options = options.withCheckRetries();
            return this;
        }

        /**
         * Real-time mode: every input row gets its own {@code handleInputRows} call (with a one-row
         * iterator), as in the mode Databricks runs row-based processors in.
         */
        public Builder<K, I, O> realTimeMode() {
            options = options.withRealTimeMode();
            return this;
        }

        /**
         * Whether {@link TwsSimulator#history()} keeps every batch (the default). With {@code false}
         * each call still returns its batches, and memory is bounded by the state and one batch.
         */
        public Builder<K, I, O> keepHistory(boolean keep) {
            options = options.withKeepHistory(keep);
            return this;
        }

        /**
         * Whose rules to follow where Spark's lines differ (see {@link SparkLine}); by default the
         * line of the Spark on the class path: {@code .sparkLine(SparkLine.V4_0)}.
         */
        public Builder<K, I, O> sparkLine(SparkLine line) {
            options = options.withSparkLine(Objects.requireNonNull(line, "line must not be null"));
            return this;
        }

        /** Adds a listener, told after the ones added before it (see {@link SimulatorListener}). */
        public Builder<K, I, O> listener(SimulatorListener<K, I, O> listener) {
            listeners.add(Objects.requireNonNull(listener, "listener must not be null"));
            return this;
        }

        /** The query these options are for. */
        public TwsQuery<K, I, O> query() {
            return query;
        }

        /** Only {@link Fault#inject} calls it, for twstester's own tests. */
        void faults(Set<Fault> faults) {
            options = options.withFaults(faults);
        }

        /** These options for another query (a new version of it). */
        Builder<K, I, O> forQuery(TwsQuery<K, I, O> next) {
            Builder<K, I, O> b = new Builder<>(next);
            b.options = options;
            b.listeners.addAll(listeners);
            return b;
        }

        /** The simulator; runs the driver-side init/close pass as the constructor does. */
        public TwsSimulator<K, I, O> build() {
            return new TwsSimulator<>(this);
        }
    }

    /**
     * Rows reach the source, as {@code MemoryStream.addData} does; the trigger that reads them runs
     * the data batch. With the default zero trigger interval (outside ProcessingTime mode) that is at
     * once: the batch runs now, followed by the no-data batch a watermark advance asks for, and both
     * are returned. With an interval, or in ProcessingTime mode, or while the query is stopped, the
     * rows wait (see {@link #waitingRows()}) and nothing is returned; rows added before the next
     * trigger all go into one batch.
     */
    public final RunResult<K, I, O> addData(List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return calls.run(() -> new SimulatorCall<>(
                "addData(" + count(rows) + ")", List.of(new Scenario.AddData<>(rows)), null),
                () -> loop.addData(rows));
    }

    /** Varargs form of {@link #addData(List)}. */
    @SafeVarargs
    public final RunResult<K, I, O> addData(I... rows) {
        return addData(Arrays.asList(rows));
    }

    /**
     * One micro-batch with {@code rows} (possibly none): they are added and the next trigger runs
     * them. With the default zero interval that is now, and the no-data batch Spark runs next (if the
     * batch moved the watermark) follows at once. With an interval the clock first moves to the next
     * trigger time ({@link #nextTriggerTime()}), and a no-data batch waits for the trigger after.
     * In ProcessingTime mode with a zero interval the batch runs at the current time (live Spark
     * needs a clock move there: use {@link #runBatchAt}).
     */
    public final RunResult<K, I, O> runBatch(List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return calls.run(() -> new SimulatorCall<>(
                "runBatch(" + count(rows) + ")", List.of(new Scenario.Input<>(rows, null)), null),
                () -> loop.runNextTrigger(rows, null, null));
    }

    /** Varargs form of {@link #runBatch(List)}. */
    @SafeVarargs
    public final RunResult<K, I, O> runBatch(I... rows) {
        return runBatch(Arrays.asList(rows));
    }

    /**
     * The trigger at processing time {@code time} finds {@code rows} waiting: the clock moves to
     * {@code time} and one micro-batch runs there with the rows (with a zero interval, outside
     * ProcessingTime mode, the no-data batch a watermark advance asks for follows at once). With an
     * interval, {@code time} must be a time at which a trigger runs: at or after
     * {@link #nextTriggerTime()}.
     */
    public final RunResult<K, I, O> runBatchAt(Instant time, List<I> rows) {
        Objects.requireNonNull(time, "time must not be null");
        Objects.requireNonNull(rows, "rows must not be null");
        return calls.run(() -> new SimulatorCall<>(
                "runBatchAt(" + time + ", " + count(rows) + ")", List.of(new Scenario.Input<>(rows, time)), null),
                () -> loop.runTriggerAt(checkClockMove(time), rows));
    }

    /**
     * Batches of input that arrive back to back: each waits when the batch before it ends, so it
     * takes the place of the no-data batch a watermark advance would have caused (its rows filtered
     * with the previous batch's watermark, timers fired up to the new one). With an interval each
     * runs at the next trigger time.
     */
    public final RunResult<K, I, O> runBackToBack(List<List<I>> batches) {
        Objects.requireNonNull(batches, "batches must not be null");
        boolean interval = query.triggerIntervalMs() > 0;
        List<Scenario.Step<I>> steps = !interval ? List.of()
                : batches.stream().<Scenario.Step<I>>map(rows -> new Scenario.Input<>(rows, null)).toList();
        String sizes = batches.stream().map(b -> String.valueOf(b.size())).reduce((a, b) -> a + ", " + b).orElse("");
        return calls.run(() -> new SimulatorCall<>(
                "runBackToBack(" + batches.size() + " batches of " + sizes + " rows)", steps,
                interval ? null : SimulatorCall.BACK_TO_BACK_NOT_REPLAYABLE),
                () -> loop.runBackToBack(batches));
    }

    /**
     * Replays every step of {@code scenario}; returns all batches that ran, in order. A step whose
     * batch fails stops the query and the steps after it run on: a later start runs the batch again
     * (the failures are in {@link RunResult#failures()}); a run that ends with the query still
     * stopped by a failed batch throws its exception ({@link #history()} has the failures). After a
     * {@link Scenario.Deploy} step the steps run on the new version, as {@link #restartWith} (a listener's
     * {@code restartedWith} gets its simulator); this one stays stopped, its history holds them all.
     */
    public final RunResult<K, I, O> run(Scenario<I> scenario) {
        Objects.requireNonNull(scenario, "scenario must not be null");
        return calls.run(() -> new SimulatorCall<>("run(scenario of " + scenario.steps().size() + " steps)",
                scenario.steps(), null), () -> new ScenarioSteps<>(this).run(scenario.steps()));
    }

    /**
     * A micro-batch holding only {@code key}'s rows: the per-key convenience of Spark's
     * {@code TwsTester.test}, run as {@link #runBatch(List)} runs. Every row must belong to
     * {@code key} under the key function of the query's first operator: at {@link Fidelity#FULL}
     * every row is checked, at {@link Fidelity#FAST} the first and the last. No other rows may be
     * waiting in the source.
     */
    public final RunResult<K, I, O> test(K key, List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        byte[] expected = firstOperator().requireKey(key, rows);
        return calls.run(() -> new SimulatorCall<>(
                "test(" + key + ", " + count(rows) + ")", List.of(new Scenario.Input<>(rows, null)), null),
                () -> loop.runNextTrigger(rows, new Bytes(expected), key));
    }

    /**
     * Stops the query, as {@code StreamingQuery.stop()} does between batches: nothing runs until
     * {@link #start()}. Rows added meanwhile wait in the source, the clock moves freely, and a
     * no-data batch that was due at the next trigger never runs.
     */
    public final void stop() {
        calls.run(() -> new SimulatorCall<>("stop()", List.of(new Scenario.Stop<>()), null), () -> {
            loop.stop();
            return List.of();
        });
    }

    /**
     * Starts the stopped query again from its checkpoint, as Spark does after a failure or a
     * deploy: state, timers, the watermark, processing time and batch ids carry over; a new
     * processor runs the driver-side {@code init}/{@code close} pass (an error it raises fails the
     * run's first batch, as in Spark); initial state is not applied again. The first trigger runs at once: rows waiting in the
     * source make a data batch (returned), whose late-row filter uses the last batch's watermark and
     * whose timers fire up to the current one. Without waiting rows no batch runs, so timers that
     * are already due fire only with new data, after its rows. After a failed batch the first
     * trigger runs that batch again instead, as planned (its id, rows, timestamp and watermarks);
     * the rows added since wait for the next trigger:
     * <pre>{@code
     * assertThatThrownBy(() -> sim.runBatch(poison)).hasRootCauseMessage("bad row");  // batch 3 fails, the query stops
     * sim.addData(more);                                                              // waits for batch 4
     * assertThatThrownBy(sim::start).hasRootCauseMessage("bad row");                  // batch 3 again: a crash loop
     * TwsSimulator<String, Event, Alert> fixed = sim.restartWith(fixedQuery);         // batch 3, then 4, with the fix
     * }</pre>
     */
    public final RunResult<K, I, O> start() {
        return calls.run(() -> new SimulatorCall<>("start()", List.of(new Scenario.Start<>()), null),
                loop::start);
    }

    /** {@link #stop()} then {@link #start()}: what a restart of the query from its checkpoint runs. */
    public final RunResult<K, I, O> restart() {
        return calls.run(() -> new SimulatorCall<>(
                "restart()", List.of(new Scenario.Stop<>(), new Scenario.Start<>()), null), () -> {
                    loop.stop();
                    return loop.start();
                });
    }

    /**
     * Everything a checkpoint would hold now: every operator's state and timers, the watermarks,
     * the clock and the next batch id. Take it between batches. Rows waiting in the source are not
     * part of it.
     */
    public final StateSnapshot snapshot() {
        List<StateSnapshot.OperatorData> data = execution.refusedCheckpoint();
        if (data == null) {
            data = operators.stream().map(op -> op.store().snapshot()).toList();
        }
        return new StateSnapshot(data, checkpoint.processingTimeMs(), checkpoint.watermarkMs(),
                checkpoint.lastBatchWatermarkMs(), checkpoint.nextBatchId(), operators.get(0).fidelity(), false);
    }

    /**
     * Replaces all state, timers, watermarks, the clock and the batch id with {@code snapshot} and
     * then starts the query again (see {@link #start()}), as a query restarted from a checkpoint.
     * The history is kept. The snapshot must come from a simulator of the same query (the same
     * operators, each with the same key encoder), or from the query's checkpoint
     * ({@code dev.twstester.spark.CheckpointState}); one that does not throws
     * {@link IllegalArgumentException} and leaves this simulator as it was.
     */
    public final RunResult<K, I, O> restore(StateSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot must not be null");
        return calls.run(() -> new SimulatorCall<>(
                "restore(snapshot)", List.of(), SimulatorCall.RESTORE_NOT_REPLAYABLE),
                () -> {
                    Restarts.checkRestore(operators, snapshot);
                    if (loop.running()) {
                        loop.stop();
                    }
                    Restarts.restore(operators, snapshot);
                    position(snapshot.position());
                    return loop.start();
                });
    }

    final void position(StateSnapshot.Position p) {
        position(p.processingTimeMs(), p.lastBatchWatermarkMs(), p.watermarkMs(), p.nextBatchId());
    }

    /** Where the query stands (a restored or built checkpoint's position). */
    final void position(long processingTimeMs, long lastBatchWatermarkMs, long watermarkMs, long nextBatchId) {
        checkpoint.position(processingTimeMs, lastBatchWatermarkMs, watermarkMs, nextBatchId);
    }

    /** The query's stateful operators, in plan order. */
    final List<Operator<?, ?, ?>> operators() {
        return operators;
    }

    /**
     * Deploys a new version of the query on this one's state, as stopping the query and starting
     * {@code next} on the same checkpoint does: returns a simulator of {@code next} (the same number
     * of operators, any of them a new version) with everything a checkpoint holds (a failed batch
     * too, which it runs first), the rows waiting in the source, the history, and this simulator's
     * options and listeners; this one stays stopped. The new version's driver-side {@code init} pass
     * runs first. A change Spark refuses ({@code STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE},
     * {@code STATE_STORE_INVALID_CONFIG_AFTER_RESTART} for another time or output mode,
     * {@code STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE}, {@code STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE}
     * with {@code unsaferow}, {@code STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION} with {@code avro}) is
     * deployed all the same, as Spark accepts the restart: its first batch fails with Spark's error,
     * and the query stops with that batch in the offset log, so rolling back
     * ({@code restartWith(oldVersion)}) runs it at its original timestamp (docs/faults.md).
     * Variables added start empty; variables dropped keep their rows for a later version that asks
     * for them again; values are read as Spark reads them (by position with {@code unsaferow}, by
     * field name with {@code avro}); a TTL change applies to new writes. The state encoding and the
     * shuffle partitions stay the checkpoint's. The first trigger of the new run runs before this
     * returns.
     * <pre>{@code
     * TwsSimulator<String, Event, Alert> v2 = sim.restartWith(AlertsV2.query()); // the new processor's query
     * v2.runBatch(rows);                                                        // reads v1's state
     * }</pre>
     */
    public final TwsSimulator<K, I, O> restartWith(TwsQuery<K, I, O> next) {
        Objects.requireNonNull(next, "next must not be null");
        return calls.value(() -> new SimulatorCall<>(
                "restartWith(next)", List.of(), SimulatorCall.RESTART_WITH_NOT_REPLAYABLE),
                () -> Restarts.deploy(this, next));
    }

    /** Parts of a simulator {@link Restarts#deploy} moves to the next version's. */
    final MicroBatchLoop<K, I, O> loop() { return loop; }
    final Checkpoint checkpoint() { return checkpoint; }
    final Calls<K, I, O> calls() { return calls; }
    final BatchExecution<K, I, O> execution() { return execution; }
    final Builder<K, I, O> options() { return options; }

    /** Moves processing time forward by {@code duration}; see {@link #setProcessingTime}. */
    public final RunResult<K, I, O> advanceProcessingTime(Duration duration) {
        Objects.requireNonNull(duration, "duration must not be null");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("advanceProcessingTime(" + duration
                    + "): processing time never moves backwards");
        }
        Instant to = processingTime().plus(duration);
        return calls.run(() -> new SimulatorCall<>(
                "advanceProcessingTime(" + duration + ") to " + to, List.of(new Scenario.Tick<>(to)), null),
                () -> loop.moveClock(checkClockMove(to)));
    }

    /**
     * Moves the processing-time clock to {@code time}, which must not be before the current one. If
     * a trigger comes due by then, it runs at {@code time} and runs what Spark's would: a data batch
     * when rows are waiting, else the no-data batch the last batch asked for (in ProcessingTime mode
     * every trigger after the query's first batch has one: timers up to {@code time} fire, TTL up to
     * it expires), else nothing. A move past several trigger times runs one trigger, at the new time,
     * as Spark's trigger does with a manual clock or when it falls behind. With the default zero
     * interval, outside ProcessingTime mode, nothing is ever left waiting for the clock.
     */
    public final RunResult<K, I, O> setProcessingTime(Instant time) {
        Objects.requireNonNull(time, "time must not be null");
        return calls.run(() -> new SimulatorCall<>(
                "setProcessingTime(" + time + ")", List.of(new Scenario.Tick<>(time)), null),
                () -> loop.moveClock(checkClockMove(time)));
    }

    /**
     * Forces the watermark up to {@code watermark} as if input had moved it there; the next batch
     * uses it as its eviction watermark, in every operator. The no-data batch Spark would run after
     * such an advance (EventTime or None mode, Append or Update output, after the first batch of the
     * run) runs at the next trigger: at once with the default zero interval. A test convenience:
     * Spark itself only moves the watermark from event times.
     */
    public final RunResult<K, I, O> advanceWatermarkTo(Instant watermark) {
        Objects.requireNonNull(watermark, "watermark must not be null");
        return calls.run(() -> new SimulatorCall<>(
                "advanceWatermarkTo(" + watermark + ")", List.of(), SimulatorCall.WATERMARK_NOT_REPLAYABLE),
                () -> {
                    checkpoint.forceWatermark(watermark);
                    return loop.watermarkForced();
                });
    }

    /** When the next trigger runs if the clock gets there (now, with a zero interval outside ProcessingTime mode). */
    public final Instant nextTriggerTime() {
        return loop.nextTriggerTime();
    }

    /** The rows added to the source that no batch has read yet, in arrival order. */
    public final List<I> waitingRows() {
        return loop.waiting();
    }

    /**
     * Whether a batch of this run asked for a no-data batch that has not run yet: the next trigger
     * ({@link #nextTriggerTime()}) runs it unless rows are waiting then, and a stop skips it. In
     * ProcessingTime mode true after the run's first batch (every trigger runs a batch).
     */
    public final boolean noDataBatchPending() {
        return loop.noDataBatchPending();
    }

    /** False between {@link #stop()} and {@link #start()}. */
    public final boolean isRunning() {
        return loop.running();
    }

    /** The current processing time (the next batch's timestamp). */
    public final Instant processingTime() {
        return Instant.ofEpochMilli(checkpoint.processingTimeMs());
    }

    /** The current watermark: the next batch's eviction watermark. */
    public final Instant watermark() {
        return Instant.ofEpochMilli(checkpoint.watermarkMs());
    }

    /** The id the next micro-batch will get. */
    public final long nextBatchId() {
        return checkpoint.nextBatchId();
    }

    /** Every batch run so far (none when built with {@code keepHistory(false)}). */
    public final RunResult<K, I, O> history() {
        return new RunResult<>(calls.history(), calls.failures());
    }

    /**
     * How each encoder runs: {@code "native"} (twstester writes Spark's bytes itself) or
     * {@code "Catalyst (Spark's encoder): "} and the part of the encoder the native path does not
     * cover, which costs Catalyst's start-up (seconds in a fresh JVM) the first time. Keys, in order:
     * {@code "key"}, {@code "input"}, {@code "output"}, {@code "initial state"} (when the query has
     * one), then per state variable obtained so far {@code "state NAME"} (value and list state) or
     * {@code "state NAME key"} and {@code "state NAME value"} (map state); for the operators after
     * the first, the same prefixed with {@code "operator N "}.
     * <pre>{@code
     * sim.encoderPaths().forEach((what, path) -> System.out.println(what + ": " + path));
     * }</pre>
     */
    public final Map<String, String> encoderPaths() {
        return EncoderPaths.of(operators);
    }

    /** Reads and writes the first operator's state and timers between batches. */
    public final StateView<K> state() {
        return view(firstOperator());
    }

    /**
     * Reads and writes operator {@code operator}'s state and timers between batches (0: the first,
     * in plan order), its keys typed as the caller expects:
     * {@code StateView<String> pages = sim.state(1);}
     *
     * @throws IndexOutOfBoundsException when the query has no such operator
     */
    @SuppressWarnings("unchecked")
    public final <K2> StateView<K2> state(int operator) {
        Objects.checkIndex(operator, operators.size());
        return view((Operator<K2, ?, ?>) operators.get(operator));
    }

    private <K2> StateView<K2> view(Operator<K2, ?, ?> op) {
        String viewCall = op == operators.get(0) ? "state()." : "state(" + operators.indexOf(op) + ").";
        return new StateView<>(op.store(), checkpoint::processingTimeMs,
                (description, write) -> stateWrite(viewCall + description, write));
    }

    /** A write through a {@link StateView} ({@code state(1).clear(...)}): a call of its own, not replayable live. */
    private void stateWrite(String description, Runnable write) {
        calls.run(() -> new SimulatorCall<>(description, List.of(), SimulatorCall.STATE_WRITE_NOT_REPLAYABLE),
                () -> {
            write.run();
            return List.of();
        });
    }

    /** The query this simulator runs. */
    public final TwsQuery<K, I, O> query() {
        return query;
    }

    @SuppressWarnings("unchecked")
    private Operator<K, I, ?> firstOperator() {
        return (Operator<K, I, ?>) operators.get(0);
    }

    /** {@code time} in epoch ms, checked not to be before the clock. */
    private long checkClockMove(Instant time) {
        return checkpoint.checkClockMove(time);
    }

    private static String count(List<?> rows) {
        return rows.size() + (rows.size() == 1 ? " row" : " rows");
    }
}
