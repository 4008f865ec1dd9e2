package dev.twstester.junit;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.junit.internal.Recorder;
import dev.twstester.junit.internal.Session;
import dev.twstester.junit.internal.Timelines;
import dev.twstester.junit.internal.TraceFiles;
import dev.twstester.sim.Fault;
import dev.twstester.sim.TwsSimulator;

/**
 * A {@link TwsSimulator} as a test drives it: the same calls, each recorded, so that a failing
 * test can show what happened (see {@link #timeline()}), strict mode can find unread outputs, and
 * the calls can be replayed on live Spark. The {@link TwsTest @TwsTest} extension creates, injects
 * and closes it; {@link #of(TwsQuery)} makes one by hand.
 *
 * <pre>{@code
 * @Simulator TestSimulator<String, CartEvent, CartAlert> sim;
 *
 * @Test
 * void flagsTheCart() {
 *     RunResult<String, CartEvent, CartAlert> run = sim.runBatch(CartEvent.add("ana", "boots", at("10:00")));
 *     sim.state().timers("ana");                  // [2024-05-01T10:30:00Z]
 *     sim.advanceWatermarkTo(at("10:31"));
 *     sim.output().readAll();                     // [CartAlert{userId=ana, ...}]
 * }
 * }</pre>
 *
 * <p>It has every public method of {@link TwsSimulator}, with the same parameter types, and each
 * behaves as {@code TwsSimulator}'s of the same name; see it for micro-batch, watermark and timer
 * semantics. The one different return type is {@link #state()}'s {@link TestStateView}, whose
 * writes are recorded. Outputs are returned by each call and also queued on
 * {@link #output()}. Not thread-safe, like the simulator.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public final class TestSimulator<K, I, O> implements AutoCloseable {
    private static final String RESTORE_NOT_LIVE = "a streaming query restarts from its own checkpoint only; restart()"
            + " replays live, restore(snapshot) does not";
    private static final String RESTART_WITH_NOT_LIVE = "restartWith(next) hands over to a simulator this test does"
            + " not record; compare a new version with Spark by LiveRunner.runThenRestartWith";
    private static final String WATERMARK_NOT_LIVE = "Spark moves the watermark only from the event times of input rows;"
            + " drive it with input (runBatch) instead";
    private static final String BACK_TO_BACK_NOT_LIVE = "with a zero trigger interval a Scenario has no back-to-back"
            + " step: live Spark reads each input as soon as it arrives; give the query a trigger interval";
    private static final String STATE_WRITE_NOT_LIVE = "a streaming query's state starts empty (or from the query's"
            + " initial state); write it through input rows or TwsQuery.Builder.initialState instead";

    private final Recorder<K, I, O> recorder;
    private final TestStateView<K> state;
    private final TestOutput<O> output;
    /** True when the extension made it (and may replace it in a field). */
    boolean managed;

    /** {@code faults}: see {@link SimulatorFaults}; none outside twstester's own tests. */
    TestSimulator(String name, TwsQuery<K, I, O> query, Fault... faults) {
        this(name, query, null, faults);
    }

    /** With the options of a {@link Simulator @Simulator} annotation ({@code null}: the defaults). */
    TestSimulator(String name, TwsQuery<K, I, O> query, Simulator options, Fault... faults) {
        this.recorder = new Recorder<>(name, query, b -> options == null ? b : apply(options, b), faults);
        if (options != null && options.checkKeyIsolation()) {
            recorder.checkKeyIsolation();
        }
        this.state = new TestStateView<>(recorder, STATE_WRITE_NOT_LIVE);
        this.output = new TestOutput<>(recorder);
    }

    /**
     * A recorded simulator of {@code query}. Inside a {@link TwsTest @TwsTest} test it takes part in
     * the test's timeline, strict mode and Spark comparison, and is closed when the test ends.
     */
    public static <K, I, O> TestSimulator<K, I, O> of(TwsQuery<K, I, O> query) {
        return of("simulator", query);
    }

    /** {@link #of(TwsQuery)} with a name for the timeline and the trace folder. */
    public static <K, I, O> TestSimulator<K, I, O> of(String name, TwsQuery<K, I, O> query) {
        TestSimulator<K, I, O> sim = new TestSimulator<>(Objects.requireNonNull(name, "name must not be null"),
                Objects.requireNonNull(query, "query must not be null"));
        Session.adopt(sim.recorder);
        return sim;
    }

    /** {@link TwsSimulator#runBatch(List)}: one micro-batch at the next trigger (see there). */
    public RunResult<K, I, O> runBatch(List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return recorder.call("runBatch(" + rows(rows) + ")", List.of(new Scenario.Input<>(rows, null)), null,
                () -> recorder.simulator().runBatch(rows));
    }

    /** Varargs form of {@link #runBatch(List)}. */
    @SafeVarargs
    public final RunResult<K, I, O> runBatch(I... rows) {
        List<I> list = new ArrayList<>(rows.length);
        for (I row : rows) {
            list.add(row);
        }
        return runBatch(list);
    }

    /** {@link TwsSimulator#runBatchAt}: the trigger at processing time {@code time} runs one batch with {@code rows}. */
    public RunResult<K, I, O> runBatchAt(Instant time, List<I> rows) {
        Objects.requireNonNull(time, "time must not be null");
        Objects.requireNonNull(rows, "rows must not be null");
        return recorder.call("runBatchAt(" + time + ", " + rows(rows) + ")", List.of(new Scenario.Input<>(rows, time)),
                null, () -> recorder.simulator().runBatchAt(time, rows));
    }

    /**
     * {@link TwsSimulator#runBackToBack}: batches already waiting when the one before ends. With a trigger
     * interval each is a batch at the next trigger, replayed live as such; with a zero interval there is no
     * live replay.
     */
    public RunResult<K, I, O> runBackToBack(List<List<I>> batches) {
        Objects.requireNonNull(batches, "batches must not be null");
        String sizes = batches.stream().map(b -> String.valueOf(b.size())).reduce((a, b) -> a + ", " + b).orElse("");
        boolean interval = recorder.query().triggerIntervalMs() > 0;
        List<Scenario.Step<I>> steps = new ArrayList<>();
        if (interval) {
            batches.forEach(rows -> steps.add(new Scenario.Input<>(rows, null)));
        }
        return recorder.call("runBackToBack(" + batches.size() + " batches of " + sizes + " rows)", steps,
                interval ? null : BACK_TO_BACK_NOT_LIVE, () -> recorder.simulator().runBackToBack(batches));
    }

    /** {@link TwsSimulator#test}: a micro-batch holding only {@code key}'s rows. */
    public RunResult<K, I, O> test(K key, List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return recorder.call("test(" + key + ", " + rows(rows) + ")", List.of(new Scenario.Input<>(rows, null)), null,
                () -> recorder.simulator().test(key, rows));
    }

    /** {@link TwsSimulator#run(Scenario)}: every step of {@code scenario}. */
    public RunResult<K, I, O> run(Scenario<I> scenario) {
        Objects.requireNonNull(scenario, "scenario must not be null");
        return recorder.call("run(scenario of " + scenario.steps().size() + " steps)", scenario.steps(), null,
                () -> recorder.simulator().run(scenario));
    }

    /** {@link TwsSimulator#advanceProcessingTime}: the clock moves {@code duration} on; a trigger due by then runs. */
    public RunResult<K, I, O> advanceProcessingTime(Duration duration) {
        Objects.requireNonNull(duration, "duration must not be null");
        Instant to = recorder.simulator().processingTime().plus(duration);
        return recorder.call("advanceProcessingTime(" + duration + ") to " + to, List.of(new Scenario.Tick<>(to)), null,
                () -> recorder.simulator().advanceProcessingTime(duration));
    }

    /** {@link TwsSimulator#setProcessingTime}: the clock moves to {@code time}; a trigger due by then runs. */
    public RunResult<K, I, O> setProcessingTime(Instant time) {
        Objects.requireNonNull(time, "time must not be null");
        return recorder.call("setProcessingTime(" + time + ")", List.of(new Scenario.Tick<>(time)), null,
                () -> recorder.simulator().setProcessingTime(time));
    }

    /** {@link TwsSimulator#addData}: rows reach the source; the trigger that reads them runs their batch. */
    public RunResult<K, I, O> addData(List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return recorder.call("addData(" + rows(rows) + ")", List.of(new Scenario.AddData<>(rows)), null,
                () -> recorder.simulator().addData(rows));
    }

    /** Varargs form of {@link #addData(List)}. */
    @SafeVarargs
    public final RunResult<K, I, O> addData(I... rows) {
        List<I> list = new ArrayList<>(rows.length);
        for (I row : rows) {
            list.add(row);
        }
        return addData(list);
    }

    /** {@link TwsSimulator#stop}: the query stops; nothing runs until {@link #start()}. */
    public void stop() {
        recorder.call("stop()", List.of(new Scenario.Stop<>()), null, () -> {
            recorder.simulator().stop();
            return new RunResult<>(List.of());
        });
    }

    /** {@link TwsSimulator#start}: the stopped query starts again from its checkpoint. */
    public RunResult<K, I, O> start() {
        return recorder.call("start()", List.of(new Scenario.Start<>()), null, () -> recorder.simulator().start());
    }

    /** {@link TwsSimulator#restart}: the query stops and starts again from its checkpoint. */
    public RunResult<K, I, O> restart() {
        return recorder.call("restart()", List.of(new Scenario.Stop<>(), new Scenario.Start<>()), null,
                () -> recorder.simulator().restart());
    }

    /** {@link TwsSimulator#nextTriggerTime}: when the next trigger runs if the clock gets there. */
    public Instant nextTriggerTime() {
        return recorder.simulator().nextTriggerTime();
    }

    /** {@link TwsSimulator#waitingRows}: rows added that no batch has read yet. */
    public List<I> waitingRows() {
        return recorder.simulator().waitingRows();
    }

    /** {@link TwsSimulator#advanceWatermarkTo}: forces the watermark up (a test convenience, no live replay). */
    public RunResult<K, I, O> advanceWatermarkTo(Instant watermark) {
        Objects.requireNonNull(watermark, "watermark must not be null");
        return recorder.call("advanceWatermarkTo(" + watermark + ")", List.of(), WATERMARK_NOT_LIVE,
                () -> recorder.simulator().advanceWatermarkTo(watermark));
    }

    /** {@link TwsSimulator#snapshot}: everything a checkpoint would hold now. */
    public dev.twstester.sim.StateSnapshot snapshot() {
        recorder.requireOpen();
        return recorder.simulator().snapshot();
    }

    /** {@link TwsSimulator#restore}: state, timers, watermarks, clock and batch id from {@code snapshot}, then a start. */
    public RunResult<K, I, O> restore(dev.twstester.sim.StateSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot must not be null");
        return recorder.call("restore(snapshot)", List.of(), RESTORE_NOT_LIVE, () -> recorder.simulator().restore(snapshot));
    }

    /**
     * {@link TwsSimulator#restartWith}: a new version of the query on this simulator's state, as a
     * plain {@code TwsSimulator} that this test does not record (its timeline and Spark comparison
     * end with this call); this simulator stays stopped.
     */
    public TwsSimulator<K, I, O> restartWith(dev.twstester.TwsQuery<K, I, O> next) {
        Objects.requireNonNull(next, "next must not be null");
        return recorder.call("restartWith(next)", List.of(), RESTART_WITH_NOT_LIVE, () -> recorder.simulator().restartWith(next));
    }

    /** {@link TwsSimulator#noDataBatchPending}: a batch asked for a no-data batch that has not run yet. */
    public boolean noDataBatchPending() {
        return recorder.simulator().noDataBatchPending();
    }

    /** {@link TwsSimulator#isRunning}: false between {@link #stop()} and {@link #start()}. */
    public boolean isRunning() {
        return recorder.simulator().isRunning();
    }

    /** {@link TwsSimulator#encoderPaths}: how each encoder runs (native or Spark's encoder). */
    public java.util.Map<String, String> encoderPaths() {
        return recorder.simulator().encoderPaths();
    }

    /** The current processing time (the next batch's timestamp). */
    public Instant processingTime() {
        return recorder.simulator().processingTime();
    }

    /** The current watermark: the next batch's eviction watermark. */
    public Instant watermark() {
        return recorder.simulator().watermark();
    }

    /** The id the next micro-batch will get. */
    public long nextBatchId() {
        return recorder.simulator().nextBatchId();
    }

    /** Every batch run so far. */
    public RunResult<K, I, O> history() {
        return recorder.simulator().history();
    }

    /** Reads and writes state and timers between batches; writes are recorded. */
    public TestStateView<K> state() {
        recorder.requireOpen();
        return state;
    }

    /** The output rows of every batch, as a queue to read from. */
    public TestOutput<O> output() {
        recorder.requireOpen();
        return output;
    }

    /** The query this simulator runs. */
    public TwsQuery<K, I, O> query() {
        return recorder.query();
    }

    /** The name shown in the timeline: the field or parameter name, or the one given to {@link #of(String, TwsQuery)}. */
    public String name() {
        return recorder.name();
    }

    /**
     * The underlying simulator, e.g. for code that takes a {@code TwsSimulator}. Calls made on it
     * directly are not recorded: the timeline shows their batches without state changes, and a
     * Spark comparison refuses them.
     */
    public TwsSimulator<K, I, O> simulator() {
        return recorder.simulator();
    }

    /**
     * What this simulator did so far, call by call: the batches each call ran (input count, late
     * rows, watermarks, batch timestamp, outputs, fired timers) and the state changes per key after
     * it. The extension attaches it to a failing test.
     */
    public String timeline() {
        recorder.requireOpen();
        return Timelines.render(recorder, Integer.MAX_VALUE);
    }

    /**
     * Writes the replayable trace into {@code dir}: one {@code NNN.jsonl} file of JSON rows per input
     * step, {@code scenario.txt} (replay plan and timeline) and {@code _timeline.jsonl}.
     */
    public void saveTrace(Path dir) {
        recorder.requireOpen();
        TraceFiles.write(recorder, Objects.requireNonNull(dir, "dir must not be null"), "(saved by hand)", null);
    }

    /** Ends this simulator: later calls fail. The extension closes the simulators it made. */
    @Override
    public void close() {
        recorder.close("by close()");
    }

    Recorder<K, I, O> recorder() {
        return recorder;
    }

    private static <K, I, O> TwsSimulator.Builder<K, I, O> apply(Simulator options, TwsSimulator.Builder<K, I, O> b) {
        b.fidelity(options.fidelity());
        if (options.checkRetries()) {
            b.checkRetries();
        }
        if (options.realTimeMode()) {
            b.realTimeMode();
        }
        return b;
    }

    private static String rows(List<?> rows) {
        return rows.size() + (rows.size() == 1 ? " row" : " rows");
    }

    @Override
    public String toString() {
        return "TestSimulator '" + name() + "' (" + Timelines.describe(query()) + ")";
    }
}
