package dev.twstester.scaladsl;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;

/**
 * A {@link TwsSimulator} for Scala tests: rows go in as a {@code Seq}, runs come back as {@link ScalaRun}
 * (outputs as an immutable {@code List}) and state reads as {@link ScalaStateView} ({@code Option},
 * {@code List}, {@code Map}). Each method does what the {@link TwsSimulator} method of the same name does;
 * {@link #simulator()} is the Java simulator, for everything else (listeners: build one with
 * {@code TwsSimulator.builder(query)} and pass it to {@link #of(TwsSimulator)}).
 *
 * <pre>{@code
 * val sim = ScalaSimulator.of(Sessions.query)
 * sim.runBatch(Seq(PageView("ana", "/home", at(0), Some("ad")), PageView("ana", "/cart", at(60), None)))
 * assert(sim.state.list[String]("pages", "ana") == Seq("/home", "/cart"))
 * val run = sim.advanceWatermarkTo(at(1801).toInstant)
 * assert(run.outputs == Seq(Session("ana", Seq("/home", "/cart"), Some("ad"), Map("/home" -> 1, "/cart" -> 1))))
 * }</pre>
 *
 * @param <K> grouping key type of the query's first operator
 * @param <I> input row type
 * @param <O> output row type of the query's last operator
 */
public final class ScalaSimulator<K, I, O> {
    private final TwsSimulator<K, I, O> simulator;

    private ScalaSimulator(TwsSimulator<K, I, O> simulator) {
        this.simulator = Objects.requireNonNull(simulator, "simulator must not be null");
    }

    /** A simulator of {@code query} at full fidelity. */
    public static <K, I, O> ScalaSimulator<K, I, O> of(TwsQuery<K, I, O> query) {
        return new ScalaSimulator<>(new TwsSimulator<>(query));
    }

    /** Scala's view of {@code simulator}, one built with {@code TwsSimulator.builder(query)}. */
    public static <K, I, O> ScalaSimulator<K, I, O> of(TwsSimulator<K, I, O> simulator) {
        return new ScalaSimulator<>(simulator);
    }

    /** The Java simulator this one runs. */
    public TwsSimulator<K, I, O> simulator() {
        return simulator;
    }

    /** Runs {@code rows} as one micro-batch at the next trigger. */
    public ScalaRun<K, I, O> runBatch(scala.collection.Seq<I> rows) {
        return ScalaRun.of(simulator.runBatch(ScalaCollections.toJava(rows, "rows")));
    }

    /** Runs {@code rows} as one micro-batch at the trigger at processing time {@code time}. */
    public ScalaRun<K, I, O> runBatchAt(Instant time, scala.collection.Seq<I> rows) {
        return ScalaRun.of(simulator.runBatchAt(time, ScalaCollections.toJava(rows, "rows")));
    }

    /** Adds {@code rows} to the source; the trigger that reads them runs as {@link TwsSimulator#addData} says. */
    public ScalaRun<K, I, O> addData(scala.collection.Seq<I> rows) {
        return ScalaRun.of(simulator.addData(ScalaCollections.toJava(rows, "rows")));
    }

    /** A micro-batch holding only {@code key}'s rows, as Spark's {@code TwsTester.test}. */
    public ScalaRun<K, I, O> test(K key, scala.collection.Seq<I> rows) {
        return ScalaRun.of(simulator.test(key, ScalaCollections.toJava(rows, "rows")));
    }

    /** Runs every step of {@code scenario} (build one with {@link ScalaScenario}). */
    public ScalaRun<K, I, O> run(Scenario<I> scenario) {
        return ScalaRun.of(simulator.run(scenario));
    }

    /** Forces the watermark to {@code watermark} and runs the batches that follow. */
    public ScalaRun<K, I, O> advanceWatermarkTo(Instant watermark) {
        return ScalaRun.of(simulator.advanceWatermarkTo(watermark));
    }

    /** Moves processing time forward by {@code duration}, running the triggers that fall due. */
    public ScalaRun<K, I, O> advanceProcessingTime(Duration duration) {
        return ScalaRun.of(simulator.advanceProcessingTime(duration));
    }

    /** Moves processing time to {@code time}, running the triggers that fall due. */
    public ScalaRun<K, I, O> setProcessingTime(Instant time) {
        return ScalaRun.of(simulator.setProcessingTime(time));
    }

    /** Stops the query between batches. */
    public void stop() {
        simulator.stop();
    }

    /** Starts the query again from its checkpoint. */
    public ScalaRun<K, I, O> start() {
        return ScalaRun.of(simulator.start());
    }

    /** Stops and starts the query. */
    public ScalaRun<K, I, O> restart() {
        return ScalaRun.of(simulator.restart());
    }

    /** Everything a checkpoint would hold now. */
    public StateSnapshot snapshot() {
        return simulator.snapshot();
    }

    /** Replaces all state with {@code snapshot} and starts the query again. */
    public ScalaRun<K, I, O> restore(StateSnapshot snapshot) {
        return ScalaRun.of(simulator.restore(snapshot));
    }

    /** A simulator of the new version {@code next} of the query, on this one's checkpoint. */
    public ScalaSimulator<K, I, O> restartWith(TwsQuery<K, I, O> next) {
        return new ScalaSimulator<>(simulator.restartWith(next));
    }

    /** The first operator's state and timers. */
    public ScalaStateView<K> state() {
        return new ScalaStateView<>(simulator.state());
    }

    /** Operator {@code operator}'s state and timers, keyed by that operator's key type {@code K2}. */
    public <K2> ScalaStateView<K2> operatorState(int operator) {
        return new ScalaStateView<>(simulator.<K2>state(operator));
    }

    /** Every batch that ran so far. */
    public ScalaRun<K, I, O> history() {
        return ScalaRun.of(simulator.history());
    }

    /** The watermark the next batch evicts by. */
    public Instant watermark() {
        return simulator.watermark();
    }

    /** The simulated processing time. */
    public Instant processingTime() {
        return simulator.processingTime();
    }

    /** Rows added to the source that no batch has read yet. */
    public scala.collection.immutable.List<I> waitingRows() {
        return ScalaCollections.toScala(simulator.waitingRows());
    }
}
