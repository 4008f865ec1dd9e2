package dev.twstester.scaladsl;

import java.util.Objects;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;

/**
 * A {@link RunResult} whose rows come as immutable Scala {@code List}s, so a Scala test compares them with
 * {@code ==} against a {@code Seq(...)}. {@link #result()} is the Java result, for {@code RunComparison}
 * and the rest of the Java API.
 *
 * <pre>{@code
 * val run = sim.advanceWatermarkTo(Instant.parse("2024-05-01T10:31:00Z"))
 * assert(run.outputs == Seq(Session("ana", Seq("/home"), Some("ad"), Map("/home" -> 1))))
 * assert(run.firedTimers.map(_.key) == Seq("ana"))
 * RunComparison.simulatorVsSpark().assertSame(run.result, LiveRunner.of(query).run(scenario))
 * }</pre>
 *
 * @param result the run as the Java API reports it
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public record ScalaRun<K, I, O>(RunResult<K, I, O> result) {
    /** Wraps {@code result}. */
    public ScalaRun {
        Objects.requireNonNull(result, "result must not be null");
    }

    /** Wraps {@code result}: {@code ScalaRun.of(LiveRunner.of(query).run(scenario)).outputs}. */
    public static <K, I, O> ScalaRun<K, I, O> of(RunResult<K, I, O> result) {
        return new ScalaRun<>(result);
    }

    /** Every batch's output rows, in order (see {@link RunResult#outputs()}). */
    public scala.collection.immutable.List<O> outputs() {
        return ScalaCollections.toScala(result.outputs());
    }

    /** Every batch's fired timers, in order (see {@link RunResult#firedTimers()}). */
    public scala.collection.immutable.List<FiredTimer<K>> firedTimers() {
        return ScalaCollections.toScala(result.firedTimers());
    }

    /** Every batch's rows dropped behind the watermark (see {@link RunResult#droppedLate()}). */
    public scala.collection.immutable.List<I> droppedLate() {
        return ScalaCollections.toScala(result.droppedLate());
    }

    /** The micro-batches that ran, in order. */
    public scala.collection.immutable.List<BatchResult<K, I, O>> batches() {
        return ScalaCollections.toScala(result.batches());
    }

    /** The batches that failed (see {@link RunResult#failures()}). */
    public scala.collection.immutable.List<FailedBatch> failures() {
        return ScalaCollections.toScala(result.failures());
    }

    /** The last batch; fails as {@link RunResult#lastBatch()} does when none ran. */
    public BatchResult<K, I, O> lastBatch() {
        return result.lastBatch();
    }

    /** Whether no batch ran. */
    public boolean isEmpty() {
        return result.isEmpty();
    }
}
