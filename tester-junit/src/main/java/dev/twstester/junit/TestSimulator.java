package dev.twstester.junit;

import java.nio.file.Path;
import java.util.Objects;

import dev.twstester.TwsQuery;
import dev.twstester.junit.internal.Recorder;
import dev.twstester.junit.internal.Session;
import dev.twstester.junit.internal.Timelines;
import dev.twstester.junit.internal.TraceFiles;
import dev.twstester.sim.Fault;
import dev.twstester.sim.TwsSimulator;

/**
 * A {@link TwsSimulator} as a test drives it: every call on it is recorded, so that a failing test
 * can show what happened ({@link #timeline()}), strict mode can find unread outputs, and the calls
 * can be replayed on live Spark. The {@link TwsTest @TwsTest} extension creates, injects and
 * closes it; {@link #of(TwsQuery)} makes one by hand.
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
 * <p>It is a {@code TwsSimulator}: every call is the simulator's own (see there for micro-batch,
 * watermark and timer semantics), and it can be passed wherever one is taken. A listener records
 * each call with the scenario steps that replay it, the batches it ran and every operator's state
 * changes after each batch; writes through {@link #state()} and {@link #state(int)} are calls too.
 * It adds what a test needs besides: the outputs as a queue ({@link #output()}), the
 * {@link #timeline()}, {@link #saveTrace(Path)}, a {@link #name()} and {@link #close()}. After
 * {@link #restartWith} the simulator of the new version carries the same recording: its calls join
 * this timeline, and their outputs this queue. Not thread-safe, like the simulator.
 *
 * @param <K> grouping key type (the first operator's)
 * @param <I> input row type
 * @param <O> output row type
 */
public final class TestSimulator<K, I, O> extends TwsSimulator<K, I, O> implements AutoCloseable {
    private final Recorder<K, I, O> recorder;
    private final TestOutput<O> output;
    /** True when the extension made it (and may replace it in a field). */
    boolean managed;

    /**
     * With the options of a {@link Simulator @Simulator} annotation ({@code null}: the defaults);
     * {@code faults}: see {@link SimulatorFaults}, none outside twstester's own tests.
     */
    TestSimulator(String name, TwsQuery<K, I, O> query, Simulator options, Fault... faults) {
        this(new Recorder<>(name, query, options == null || options.keepHistory()), options, faults);
    }

    private TestSimulator(Recorder<K, I, O> recorder, Simulator options, Fault[] faults) {
        super(builder(recorder, options, faults));
        this.recorder = recorder;
        this.output = new TestOutput<>(recorder);
        recorder.attach(this);
        if (options != null && options.checkKeyIsolation()) {
            recorder.checkKeyIsolation();
        }
    }

    /** The simulator's builder: the recorder as its listener, the annotation's options, the faults. */
    private static <K, I, O> TwsSimulator.Builder<K, I, O> builder(Recorder<K, I, O> recorder, Simulator options,
            Fault[] faults) {
        TwsSimulator.Builder<K, I, O> b = TwsSimulator.builder(recorder.query()).listener(recorder);
        if (options != null) {
            b.fidelity(options.fidelity()).keepHistory(options.keepHistory());
            if (options.checkRetries()) {
                b.checkRetries();
            }
            if (options.realTimeMode()) {
                b.realTimeMode();
            }
        }
        return faults.length == 0 ? b : Fault.inject(b, faults);
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
                Objects.requireNonNull(query, "query must not be null"), null);
        Session.adopt(sim.recorder);
        return sim;
    }

    /**
     * The output rows of every batch (the query's, its last operator's), as a queue to read from;
     * after a {@code restartWith}, the new version's batches' too.
     */
    public TestOutput<O> output() {
        recorder.requireOpen();
        return output;
    }

    /** The name shown in the timeline: the field or parameter name, or the one given to {@link #of(String, TwsQuery)}. */
    public String name() {
        return recorder.name();
    }

    /**
     * What this simulator did so far, call by call: the batches each call ran (input count, late
     * rows, watermarks, batch timestamp, outputs, fired timers; each operator's part for a query of
     * several) and the state changes per key after it. The extension attaches it to a failing test.
     */
    public String timeline() {
        recorder.requireOpen();
        return Timelines.render(recorder, Integer.MAX_VALUE);
    }

    /**
     * Writes the replayable trace into {@code dir}: one {@code NNN.jsonl} file of JSON rows per input
     * step, {@code scenario.txt} (replay plan and timeline), {@code _timeline.jsonl} and the
     * timeline page {@code _timeline.html}.
     */
    public void saveTrace(Path dir) {
        recorder.requireOpen();
        TraceFiles.write(recorder, Objects.requireNonNull(dir, "dir must not be null"), "(saved by hand)", null);
    }

    /**
     * Ends this simulator: later calls on it (and on a new version its {@code restartWith} deployed)
     * fail; reading its state and clocks still works. The extension closes the simulators it made.
     */
    @Override
    public void close() {
        recorder.close("by close()");
    }

    Recorder<K, I, O> recorder() {
        return recorder;
    }

    @Override
    public String toString() {
        return "TestSimulator '" + name() + "' (" + Timelines.describe(query()) + ")";
    }
}
