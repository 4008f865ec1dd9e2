package dev.twstester.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.spark.sql.Encoder;


import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.internal.RowCodec;

/**
 * Runs a {@link TwsQuery} in memory, micro-batch by micro-batch, as Spark 4.2.0's
 * {@code transformWithState} with the RocksDB state store would, with the query's shuffle
 * partitions. No SparkSession is started.
 *
 * <h2>Setup</h2>
 * <pre>{@code
 * TwsSimulator<String, CartEvent, CartAlert> sim = new TwsSimulator<>(query);
 * }</pre>
 * The constructor runs the driver-side {@code init}/{@code close} pass Spark runs when a query
 * starts, so errors Spark raises while planning the first batch (a duplicate state variable, state
 * used in {@code init}) are thrown here.
 *
 * <h2>Sending input and batches</h2>
 * {@link #runBatch(List)} is one micro-batch across keys: late rows dropped against the previous
 * batch's watermark, keys in Spark's ascending key order with all of a key's rows in one
 * {@code handleInputRows} call, then due timers, then TTL cleanup, then {@code close()}. When
 * the batch moved the watermark (EventTime or None mode with Append or Update output), the no-data
 * batch Spark runs next follows at once, at the same processing time. {@link #test} is a one-key
 * batch, like Spark's {@code TwsTester.test}.
 *
 * <h2>Time and timers</h2>
 * Processing time is a manual clock starting at the epoch: {@link #advanceProcessingTime} and
 * {@link #setProcessingTime} move it. In ProcessingTime mode each move is one trigger tick and runs
 * a (no-data) batch, as Spark does once a batch has run. The watermark comes from the input's
 * event-time column; {@link #advanceWatermarkTo} forces it, a test convenience Spark does not have.
 *
 * <h2>State</h2>
 * {@link #state()} reads and writes state and timers of any key between batches.
 *
 * <h2>Encoders</h2>
 * Values go through the query's and the state variables' Spark encoders. Beans, tuples, primitives
 * and boxes, strings, {@code byte[]}, dates and times, decimals, enums, arrays, lists and maps are
 * encoded natively (Spark's exact bytes, no Catalyst start-up); other encoders run through Spark's
 * own encoder. {@link #encoderPaths()} says which path each encoder took.
 *
 * <h2>Faults</h2>
 * {@link #restart()} restarts from the checkpoint, {@link #snapshot()} and {@link #restore} keep
 * one, {@link #restartWith} deploys a new version of the query on the state (with Spark's checks),
 * {@link #builder} adds {@code checkRetries()} (every batch run twice, as a retried task) and
 * {@code realTimeMode()}.
 *
 * <h2>Limitations</h2>
 * One source; partitions run one after another; the follow-up no-data batch runs at the data
 * batch's processing time (Spark's runs at the next trigger). A failing batch leaves everything as
 * it was before the batch and rethrows.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public final class TwsSimulator<K, I, O> {
    final Engine<K, I, O> engine;
    private final MicroBatchLoop<I, BatchResult<K, I, O>> loop;
    private final List<BatchResult<K, I, O>> history = new ArrayList<>();

    /** A simulator for {@code query} at {@link Fidelity#FULL}, with processing time and watermark at the epoch. */
    public TwsSimulator(TwsQuery<K, I, O> query) {
        this(query, Fidelity.FULL);
    }

    /** A simulator for {@code query} at the given fidelity ({@link Fidelity#FAST} keeps objects by reference). */
    public TwsSimulator(TwsQuery<K, I, O> query, Fidelity fidelity) {
        this(builder(query).fidelity(fidelity));
    }

    /** False when built with {@code keepHistory(false)}: batches are returned, not kept. */
    private final boolean keepHistory;

    /** The options this simulator was built with, for {@link #restartWith}. */
    private final Builder<K, I, O> options;

    private TwsSimulator(Builder<K, I, O> b) {
        this.options = b;
        this.engine = new Engine<>(b.query, b.fidelity, b.checkRetries, b.realTimeMode, b.faults, b.sparkLine);
        this.loop = new MicroBatchLoop<>(MicroBatchLoop.single(engine));
        this.keepHistory = b.keepHistory;
    }

    /**
     * A simulator with options beyond the fidelity:
     * <pre>{@code
     * TwsSimulator<String, Event, Alert> sim = TwsSimulator.builder(query)
     *         .fidelity(Fidelity.FULL)   // the default
     *         .checkRetries()            // run every batch twice, fail if the runs differ
     *         .realTimeMode()            // one handleInputRows call per input row
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
        private Fidelity fidelity = Fidelity.FULL;
        private boolean checkRetries;
        private boolean realTimeMode;
        private boolean keepHistory = true;
        private SparkLine sparkLine = SparkLine.onClassPath();
        /** Not an option: only {@link Fault#inject} sets it, for twstester's own tests. */
        Set<Fault> faults = Set.of();

        private Builder(TwsQuery<K, I, O> query) {
            this.query = query;
        }

        /** {@link Fidelity#FULL} (the default) or {@link Fidelity#FAST}. */
        public Builder<K, I, O> fidelity(Fidelity fidelity) {
            this.fidelity = Objects.requireNonNull(fidelity, "fidelity must not be null");
            return this;
        }

        /**
         * Runs every batch twice, the second time from the state committed before it, as Spark
         * does when it retries a failed task, and throws {@link NondeterministicBatchException}
         * naming the batch and key when the two runs emit different rows or leave different state
         * or timers. The processor's handlers run twice per batch.
         */
        public Builder<K, I, O> checkRetries() {
            this.checkRetries = true;
            return this;
        }

        /**
         * Real-time mode: every input row gets its own {@code handleInputRows} call (with a
         * one-row iterator), as in the mode Databricks runs row-based processors in. Keys are still
         * visited in order and timers still fire after the input.
         */
        public Builder<K, I, O> realTimeMode() {
            this.realTimeMode = true;
            return this;
        }

        /**
         * Whether {@link TwsSimulator#history()} keeps every batch (the default). A long replay keeps
         * memory bounded by the state and one batch with {@code keepHistory(false)}: each call still
         * returns its batches, and {@code history()} is then always empty.
         */
        public Builder<K, I, O> keepHistory(boolean keep) {
            this.keepHistory = keep;
            return this;
        }

        /**
         * Whose rules to follow where Spark's lines differ (see {@link SparkLine}); by default the
         * line of the Spark on the class path. Another line's rules with this Spark's encoders:
         * {@code TwsSimulator.builder(query).sparkLine(SparkLine.V4_0).build()}.
         */
        public Builder<K, I, O> sparkLine(SparkLine line) {
            this.sparkLine = Objects.requireNonNull(line, "line must not be null");
            return this;
        }

        /** These options for another query (a new version of it). */
        private Builder<K, I, O> forQuery(TwsQuery<K, I, O> next) {
            Builder<K, I, O> b = new Builder<>(next);
            b.fidelity = fidelity;
            b.checkRetries = checkRetries;
            b.realTimeMode = realTimeMode;
            b.keepHistory = keepHistory;
            b.sparkLine = sparkLine;
            b.faults = faults;
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
    public RunResult<K, I, O> addData(List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return record(loop.addData(rows));
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
    public RunResult<K, I, O> runBatch(List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return record(loop.runNextTrigger(rows, null, null));
    }

    /**
     * The trigger at processing time {@code time} finds {@code rows} waiting: the clock moves to
     * {@code time} and one micro-batch runs there with the rows (with a zero interval, outside
     * ProcessingTime mode, the no-data batch a watermark advance asks for follows at once). With an
     * interval, {@code time} must be a time at which a trigger runs: at or after
     * {@link #nextTriggerTime()}.
     */
    public RunResult<K, I, O> runBatchAt(Instant time, List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return record(loop.runTriggerAt(checkClockMove(time), rows));
    }

    /**
     * Several batches of input that arrive back to back: each is already waiting when the batch
     * before it ends, so it takes the place of the no-data batch a watermark advance would have
     * caused: its rows are filtered with the previous batch's watermark while timers fire up to the
     * new one. With the default zero interval they all run now and the no-data batch, if due, runs
     * after the last; with an interval each runs at the next trigger time.
     */
    public RunResult<K, I, O> runBackToBack(List<List<I>> batches) {
        Objects.requireNonNull(batches, "batches must not be null");
        return record(loop.runBackToBack(batches));
    }

    /** Replays every step of {@code scenario}; returns all batches that ran, in order. */
    public RunResult<K, I, O> run(Scenario<I> scenario) {
        List<BatchResult<K, I, O>> ran = new ArrayList<>();
        for (Scenario.Step<I> step : scenario.steps()) {
            ran.addAll(step(step).batches());
        }
        return new RunResult<>(ran);
    }

    private RunResult<K, I, O> step(Scenario.Step<I> step) {
        if (step instanceof Scenario.Input<I> input) {
            return input.at() == null ? runBatch(input.rows()) : runBatchAt(input.at(), input.rows());
        } else if (step instanceof Scenario.AddData<I> add) {
            return addData(add.rows());
        } else if (step instanceof Scenario.Tick<I> tick) {
            return setProcessingTime(tick.to());
        } else if (step instanceof Scenario.Stop<I>) {
            stop();
            return new RunResult<>(List.of());
        }
        return start();
    }

    /** Varargs form of {@link #runBatch(List)}. */
    @SafeVarargs
    public final RunResult<K, I, O> runBatch(I... rows) {
        return runBatch(Arrays.asList(rows));
    }

    /**
     * A micro-batch holding only {@code key}'s rows: the per-key convenience of Spark's
     * {@code TwsTester.test}, run as {@link #runBatch(List)} runs. Every row must belong to
     * {@code key} under the query's key function: at {@link Fidelity#FULL} every row is checked, at
     * {@link Fidelity#FAST} the first and the last. No other rows may be waiting in the source.
     */
    public RunResult<K, I, O> test(K key, List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        byte[] expected = engine.keyCodec.encode(key);
        if (engine.fidelity == Fidelity.FULL) {
            for (I row : rows) {
                checkKey(key, expected, row);
            }
        } else if (!rows.isEmpty()) {
            checkKey(key, expected, rows.get(0));
            checkKey(key, expected, rows.get(rows.size() - 1));
        }
        return record(loop.runNextTrigger(rows, new Bytes(expected), key));
    }

    private void checkKey(K key, byte[] expected, I row) {
        K actual = engine.keyOf(row);
        boolean same = engine.keyCodec.immutable() ? key.equals(actual)
                : Arrays.equals(expected, engine.keyCodec.encode(actual));
        if (!same) {
            throw new IllegalArgumentException("row " + row + " has key " + actual + ", not " + key
                    + "; test(key, rows) takes one key's rows, use runBatch(rows) for several keys");
        }
    }

    /**
     * Stops the query, as {@code StreamingQuery.stop()} does between batches: nothing runs until
     * {@link #start()}. Rows added meanwhile wait in the source, the clock moves freely, and a
     * no-data batch that was due at the next trigger never runs.
     */
    public void stop() {
        loop.stop();
    }

    /**
     * Starts the stopped query again from its checkpoint, as Spark does after a failure or a
     * deploy: state, timers, the watermark, processing time and batch ids carry over; a new
     * processor runs the driver-side {@code init}/{@code close} pass (errors it raises are thrown
     * here); initial state is not applied again. The first trigger runs at once: rows waiting in the
     * source make a data batch (returned), whose late-row filter uses the last batch's watermark and
     * whose timers fire up to the current one. Without waiting rows no batch runs, so timers that
     * are already due fire only with new data, after its rows.
     */
    public RunResult<K, I, O> start() {
        return record(loop.start());
    }

    /** {@link #stop()} then {@link #start()}: what a restart of the query from its checkpoint runs. */
    public RunResult<K, I, O> restart() {
        loop.stop();
        return start();
    }

    /**
     * Everything a checkpoint would hold now: state, timers, watermarks, clock and next batch id.
     * Take it between batches. Rows waiting in the source are not part of it.
     */
    public StateSnapshot snapshot() {
        return engine.snapshot();
    }

    /**
     * Replaces all state, timers, watermarks, the clock and the batch id with {@code snapshot} and
     * then starts the query again (see {@link #start()}), as a query restarted from a checkpoint.
     * The history is kept. The snapshot must come from a simulator of the same query (same key
     * encoder); one that does not throws {@link IllegalArgumentException} and leaves this simulator
     * as it was.
     */
    public RunResult<K, I, O> restore(StateSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot must not be null");
        return record(loop.restore(List.of(snapshot), List.of("the snapshot"),
                "restore it into the query it was taken from, then deploy a new version with restartWith(next)"));
    }

    /**
     * Deploys a new version of the query on this one's state, as stopping the query and starting
     * {@code next} on the same checkpoint does: returns a simulator of {@code next} with everything
     * a checkpoint holds (state, timers, watermarks, clock, batch ids), the rows waiting in the
     * source, the history, and this simulator's options; this one stays stopped. The new version's
     * driver-side {@code init} pass runs first, then Spark's checks of it against the checkpoint,
     * which throw Spark's error for a change Spark refuses (this simulator then stays stopped:
     * {@link #start()} it to go on with the old version, as Spark would):
     * <ul>
     *   <li>a state variable kept by name may not change kind: {@code STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE};</li>
     *   <li>the time mode and the output mode may not change: {@code STATE_STORE_INVALID_CONFIG_AFTER_RESTART};</li>
     *   <li>key schemas (the grouping key, map keys) may change only in field names and nullability:
     *       {@code STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE};</li>
     *   <li>a value schema (TTL included: adding or removing it changes the schema): with the default
     *       {@link dev.twstester.StateEncoding#UNSAFE_ROW} encoding only in field names and nullability
     *       ({@code STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE}); with {@link dev.twstester.StateEncoding#AVRO} as
     *       Avro's schema resolution allows: fields added or removed, {@code int} widened to {@code long}, ...
     *       ({@code STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION}).</li>
     * </ul>
     * Variables added start empty; variables dropped are hidden but their rows stay, as in Spark's
     * store, and a later version that asks for the name again reads them. Values are read as Spark
     * reads them: by position with {@code unsaferow}, by field name with {@code avro} (a field the old value
     * lacks is null). A TTL change applies to new writes; stored values keep their expiration.
     * The state encoding and the number of shuffle partitions stay the checkpoint's, as Spark
     * keeps them in the checkpoint ({@link #query()} of the returned simulator has the partitions
     * of this one). Spark itself runs these checks when the new run
     * plans its first batch (its first trigger with data); here they run at once. The first
     * trigger of the new run (a data batch if rows wait) runs before this returns: see
     * {@link #history()}.
     * <pre>{@code
     * TwsSimulator<String, Event, Alert> v2 = sim.restartWith(AlertsV2.query()); // the new processor's query
     * v2.runBatch(rows);                                                        // reads v1's state
     * }</pre>
     */
    public TwsSimulator<K, I, O> restartWith(TwsQuery<K, I, O> next) {
        Objects.requireNonNull(next, "next must not be null");
        if (loop.running()) {
            loop.stop();
        }
        StateSnapshot checkpoint = engine.snapshot();
        // Spark keeps the checkpoint's number of shuffle partitions (its offset log's setting)
        TwsQuery<K, I, O> version = next.shufflePartitions() == engine.query.shufflePartitions() ? next
                : next.withShufflePartitions(engine.query.shufflePartitions());
        TwsSimulator<K, I, O> deployed = options.forQuery(version).build();
        deployed.loop.stop();
        deployed.engine.restoreEvolved(checkpoint);
        if (deployed.keepHistory) {
            deployed.history.addAll(history);
        }
        List<I> waiting = loop.waiting();
        if (!waiting.isEmpty()) {
            deployed.loop.addData(waiting);
        }
        deployed.record(deployed.loop.start());
        return deployed;
    }

    /**
     * Moves processing time forward by {@code duration}; see {@link #setProcessingTime}.
     */
    public RunResult<K, I, O> advanceProcessingTime(Duration duration) {
        Objects.requireNonNull(duration, "duration must not be null");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("advanceProcessingTime(" + duration + "): processing time never moves backwards");
        }
        return setProcessingTime(processingTime().plus(duration));
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
    public RunResult<K, I, O> setProcessingTime(Instant time) {
        return record(loop.moveClock(checkClockMove(time)));
    }

    /**
     * Forces the watermark up to {@code watermark} as if input had moved it there; the next batch
     * uses it as its eviction watermark. The no-data batch Spark would run after such an advance
     * (EventTime or None mode, Append or Update output, after the first batch of the run) runs at
     * the next trigger: at once with the default zero interval. A test convenience: Spark itself only
     * moves the watermark from event times.
     */
    public RunResult<K, I, O> advanceWatermarkTo(Instant watermark) {
        Objects.requireNonNull(watermark, "watermark must not be null");
        long ms = watermark.toEpochMilli();
        if (ms < engine.watermarkMs()) {
            throw new IllegalArgumentException("advanceWatermarkTo(" + watermark + ") is before the current watermark "
                    + watermark() + "; watermarks never move backwards");
        }
        engine.forceWatermark(ms);
        return record(loop.watermarkForced());
    }

    /** When the next trigger runs if the clock gets there (now, with a zero interval outside ProcessingTime mode). */
    public Instant nextTriggerTime() {
        return loop.nextTriggerTime();
    }

    /** The rows added to the source that no batch has read yet, in arrival order. */
    public List<I> waitingRows() {
        return loop.waiting();
    }

    /**
     * Whether a batch of this run asked for a no-data batch that has not run yet: the next trigger
     * ({@link #nextTriggerTime()}) runs it unless rows are waiting then, and a stop skips it. In
     * ProcessingTime mode true after the run's first batch (every trigger runs a batch).
     * <pre>{@code
     * if (sim.noDataBatchPending()) sim.setProcessingTime(sim.nextTriggerTime()); // let it run
     * }</pre>
     */
    public boolean noDataBatchPending() {
        return loop.noDataBatchPending();
    }

    /** False between {@link #stop()} and {@link #start()}. */
    public boolean isRunning() {
        return loop.running();
    }

    /** The current processing time (the next batch's timestamp). */
    public Instant processingTime() {
        return Instant.ofEpochMilli(engine.processingTimeMs());
    }

    /** The current watermark: the next batch's eviction watermark. */
    public Instant watermark() {
        return Instant.ofEpochMilli(engine.watermarkMs());
    }

    /** The id the next micro-batch will get. */
    public long nextBatchId() {
        return engine.nextBatchId();
    }

    /** Every batch run so far (none when built with {@code keepHistory(false)}). */
    public RunResult<K, I, O> history() {
        return new RunResult<>(history);
    }

    /**
     * How each encoder runs: {@code "native"} (twstester writes Spark's bytes itself) or
     * {@code "Catalyst (Spark's encoder): "} and the part of the encoder the native path does not
     * cover, which costs Catalyst's start-up (seconds in a fresh JVM) the first time. Keys, in order:
     * {@code "key"}, {@code "input"}, {@code "output"}, {@code "initial state"} (when the query has
     * one), then per state variable obtained so far {@code "state NAME"} (value and list state) or
     * {@code "state NAME key"} and {@code "state NAME value"} (map state).
     * <pre>{@code
     * sim.encoderPaths().forEach((what, path) -> System.out.println(what + ": " + path));
     * }</pre>
     */
    public Map<String, String> encoderPaths() {
        Map<String, String> paths = new LinkedHashMap<>();
        TwsQuery<K, I, O> query = engine.query;
        paths.put("key", path(query.keyEncoder()));
        paths.put("input", path(query.inputEncoder()));
        paths.put("output", path(query.outputEncoder()));
        query.initialState().ifPresent(initial -> paths.put("initial state", path(initial.encoder())));
        engine.store.variables().forEach((name, variable) -> {
            Encoder<?>[] encoders = variable.encoders;
            if (encoders == null) {
                return;
            }
            if (encoders.length == 1) {
                paths.put("state " + name, path(encoders[0]));
            } else {
                paths.put("state " + name + " key", path(encoders[0]));
                paths.put("state " + name + " value", path(encoders[1]));
            }
        });
        return paths;
    }

    private static String path(Encoder<?> encoder) {
        return RowCodec.of(encoder).path();
    }

    /** Reads and writes state and timers between batches. */
    public StateView<K> state() {
        return new StateView<>(engine);
    }

    /** The query this simulator runs. */
    public TwsQuery<K, I, O> query() {
        return engine.query;
    }

    /** {@code time} in epoch ms, checked not to be before the clock. */
    private long checkClockMove(Instant time) {
        Objects.requireNonNull(time, "time must not be null");
        long ms = time.toEpochMilli();
        if (ms < engine.processingTimeMs()) {
            throw new IllegalArgumentException("processing time " + time + " is before the current processing time "
                    + processingTime() + "; processing time never moves backwards");
        }
        return ms;
    }

    private RunResult<K, I, O> record(List<BatchResult<K, I, O>> ran) {
        if (keepHistory) {
            for (int i = 0; i < ran.size(); i++) { // not addAll: it copies the list to an array first
                history.add(ran.get(i));
            }
        }
        return new RunResult<>(ran);
    }
}
