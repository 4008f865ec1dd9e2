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

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.internal.Fault;
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
 * one, {@link #builder} adds {@code checkRetries()} (every batch run twice, as a retried task) and
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

    private TwsSimulator(Builder<K, I, O> b) {
        this.engine = new Engine<>(b.query, b.fidelity, b.checkRetries, b.realTimeMode, b.faults);
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
        /** Not an option: only {@link Fault#inject} sets it, for twstester's own tests. */
        private Set<Fault> faults = Set.of();

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

        /** The simulator; runs the driver-side init/close pass as the constructor does. */
        public TwsSimulator<K, I, O> build() {
            return new TwsSimulator<>(this);
        }
    }

    /** One micro-batch with {@code rows} (possibly none), then the no-data batch Spark would run next. */
    public RunResult<K, I, O> runBatch(List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        List<BatchResult<K, I, O>> ran = new ArrayList<>();
        ran.add(record(engine.runBatch(rows, true)));
        if (!isProcessingTime() && engine.wantsNoDataBatch()) {
            ran.add(record(engine.runBatch(List.of(), false)));
        }
        return new RunResult<>(ran);
    }

    /**
     * The trigger at processing time {@code time} finds {@code rows} waiting: the clock moves to
     * {@code time} (without a tick of its own) and one micro-batch runs there with the rows. This is
     * how input arrives in ProcessingTime mode, where every tick runs a batch.
     */
    public RunResult<K, I, O> runBatchAt(Instant time, List<I> rows) {
        moveClock(time);
        return runBatch(rows);
    }

    /**
     * Several batches of input that arrive back to back: each is already waiting when the batch
     * before it ends, so it takes the place of the no-data batch a watermark advance would have
     * caused (spec 15.3): its rows are filtered with the previous batch's watermark while timers
     * fire up to the new one. The no-data batch runs, if due, only after the last.
     */
    public RunResult<K, I, O> runBackToBack(List<List<I>> batches) {
        List<BatchResult<K, I, O>> ran = new ArrayList<>();
        for (List<I> rows : batches) {
            ran.add(record(engine.runBatch(rows, true)));
        }
        if (!batches.isEmpty() && !isProcessingTime() && engine.wantsNoDataBatch()) {
            ran.add(record(engine.runBatch(List.of(), false)));
        }
        return new RunResult<>(ran);
    }

    /** Replays every step of {@code scenario}; returns all batches that ran, in order. */
    public RunResult<K, I, O> run(Scenario<I> scenario) {
        List<BatchResult<K, I, O>> ran = new ArrayList<>();
        for (Scenario.Step<I> step : scenario.steps()) {
            RunResult<K, I, O> r;
            if (step instanceof Scenario.Input<I> input) {
                r = input.at() == null ? runBatch(input.rows()) : runBatchAt(input.at(), input.rows());
            } else if (step instanceof Scenario.Tick<I> tick) {
                r = setProcessingTime(tick.to());
            } else {
                restart();
                r = new RunResult<>(List.of());
            }
            ran.addAll(r.batches());
        }
        return new RunResult<>(ran);
    }

    /** Varargs form of {@link #runBatch(List)}. */
    @SafeVarargs
    public final RunResult<K, I, O> runBatch(I... rows) {
        return runBatch(Arrays.asList(rows));
    }

    /**
     * A micro-batch holding only {@code key}'s rows: the per-key convenience of Spark's
     * {@code TwsTester.test}. Every row must belong to {@code key} under the query's key function:
     * at {@link Fidelity#FULL} every row is checked, at {@link Fidelity#FAST} the first and the last.
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
        List<BatchResult<K, I, O>> ran = new ArrayList<>();
        ran.add(record(engine.runBatch(rows, true, new Bytes(expected), key)));
        if (!isProcessingTime() && engine.wantsNoDataBatch()) {
            ran.add(record(engine.runBatch(List.of(), false)));
        }
        return new RunResult<>(ran);
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
     * Stops the query and starts it again from its checkpoint, as Spark does after a failure or a
     * deploy: state, timers, the watermark, processing time and batch ids carry over; a new
     * processor runs the driver-side {@code init}/{@code close} pass (errors it raises are thrown
     * here); initial state is not applied again. No batch runs until the next input, so timers
     * that are already due fire only with new data, after its rows.
     */
    public void restart() {
        engine.restart();
    }

    /**
     * Everything a checkpoint would hold now: state, timers, watermarks, clock and next batch id.
     * Take it between batches.
     */
    public StateSnapshot snapshot() {
        return engine.snapshot();
    }

    /**
     * Replaces all state, timers, watermarks, the clock and the batch id with {@code snapshot} and
     * then restarts (see {@link #restart()}), as a query restarted from a checkpoint. The history is
     * kept. The snapshot must come from a simulator of the same query (same key encoder).
     */
    public void restore(StateSnapshot snapshot) {
        engine.restore(Objects.requireNonNull(snapshot, "snapshot must not be null"));
    }

    /** Moves processing time forward by {@code duration}; in ProcessingTime mode that tick runs a batch. */
    public RunResult<K, I, O> advanceProcessingTime(Duration duration) {
        Objects.requireNonNull(duration, "duration must not be null");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("advanceProcessingTime(" + duration + "): processing time never moves backwards");
        }
        return setProcessingTime(processingTime().plus(duration));
    }

    /**
     * Sets processing time to {@code time}, which must not be before the current one. In
     * ProcessingTime mode, once a batch has run, a change is one trigger tick and runs a no-data
     * batch (timers up to {@code time} fire, TTL up to it expires).
     */
    public RunResult<K, I, O> setProcessingTime(Instant time) {
        boolean tick = moveClock(time);
        List<BatchResult<K, I, O>> ran = new ArrayList<>();
        if (tick && isProcessingTime() && engine.wantsNoDataBatch()) {
            ran.add(record(engine.runBatch(List.of(), false)));
        }
        return new RunResult<>(ran);
    }

    /**
     * Forces the watermark up to {@code watermark} as if input had moved it there; the next batch
     * uses it as its eviction watermark. Runs the no-data batch Spark would run after such an
     * advance (EventTime or None mode, Append or Update output, after the first batch). A test
     * convenience: Spark itself only moves the watermark from event times.
     */
    public RunResult<K, I, O> advanceWatermarkTo(Instant watermark) {
        Objects.requireNonNull(watermark, "watermark must not be null");
        long ms = watermark.toEpochMilli();
        if (ms < engine.watermarkMs) {
            throw new IllegalArgumentException("advanceWatermarkTo(" + watermark + ") is before the current watermark "
                    + watermark() + "; watermarks never move backwards");
        }
        engine.watermarkMs = ms;
        List<BatchResult<K, I, O>> ran = new ArrayList<>();
        if (!isProcessingTime() && engine.wantsNoDataBatch()) {
            ran.add(record(engine.runBatch(List.of(), false)));
        }
        return new RunResult<>(ran);
    }

    /** The current processing time (the next batch's timestamp). */
    public Instant processingTime() {
        return Instant.ofEpochMilli(engine.processingTimeMs);
    }

    /** The current watermark: the next batch's eviction watermark. */
    public Instant watermark() {
        return Instant.ofEpochMilli(engine.watermarkMs);
    }

    /** The id the next micro-batch will get. */
    public long nextBatchId() {
        return engine.nextBatchId;
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

    /** Moves the clock, never backwards; true if it moved. */
    private boolean moveClock(Instant time) {
        Objects.requireNonNull(time, "time must not be null");
        long ms = time.toEpochMilli();
        if (ms < engine.processingTimeMs) {
            throw new IllegalArgumentException("processing time " + time + " is before the current processing time "
                    + processingTime() + "; processing time never moves backwards");
        }
        boolean moved = ms > engine.processingTimeMs;
        engine.processingTimeMs = ms;
        engine.store.scope().batchTimestampMs = ms;
        return moved;
    }

    private boolean isProcessingTime() {
        return engine.query.timeMode().equals(TimeMode.ProcessingTime());
    }

    private BatchResult<K, I, O> record(BatchResult<K, I, O> result) {
        if (keepHistory) {
            history.add(result);
        }
        return result;
    }
}
