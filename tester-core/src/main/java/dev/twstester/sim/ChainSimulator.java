package dev.twstester.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import dev.twstester.BatchResult;
import dev.twstester.ChainResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsChain;

/**
 * Runs a {@link TwsChain} (two {@code transformWithState} operators in one query) in memory,
 * micro-batch by micro-batch, as Spark 4.2.0 runs it. No SparkSession is started.
 *
 * <pre>{@code
 * ChainSimulator<String, Click, Session, String, PageAlert> sim = new ChainSimulator<>(chain);
 * ChainResult<String, Click, Session, String, PageAlert> run = sim.runBatch(click("ana", "/a", at("10:00")));
 * run.upstream().outputs();                     // sessions, checked against the late watermark
 * run.outputs();                                // page alerts: what the query writes
 * sim.upstreamState().timers("ana");            // the upstream's state and timers
 * sim.state().value("count", "/a");             // the downstream's
 * }</pre>
 *
 * <p>Each micro-batch runs the upstream operator on the input (late rows dropped, keys, timers,
 * TTL, as {@link TwsSimulator} does), checks each of its output rows against the batch's late-event
 * watermark ({@code EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED}), then runs the downstream
 * operator on those rows, grouped by the downstream's key, in the upstream's output order. Both
 * operators see the same batch id, processing time, late-event watermark and eviction watermark; the
 * watermark moves only with the input's event times. A no-data batch runs when either operator asks
 * for one (a watermark advance, or every trigger for an operator in ProcessingTime mode). A batch
 * that fails in either operator keeps nothing of either, and its exception propagates.
 *
 * <p>Time, triggers, stops and starts work as in {@link TwsSimulator}, with the upstream's trigger.
 * {@link #snapshot()} keeps the chain's checkpoint and {@link #restore} starts from one (also from a
 * real chained query's checkpoint, read with {@code dev.twstester.spark.CheckpointState.of(chain)}).
 *
 * @param <K>  the upstream's grouping key type
 * @param <I>  the query's input row type
 * @param <M>  the upstream's output rows: the downstream's input
 * @param <K2> the downstream's grouping key type
 * @param <O>  the query's output row type
 */
public final class ChainSimulator<K, I, M, K2, O> {
    private final TwsChain<K, I, M, K2, O> chain;
    final Engine<K, I, M> upstream;
    final Engine<K2, M, O> downstream;
    private final MicroBatchLoop<I, Ran<K, I, M, K2, O>> loop;
    private final List<BatchResult<K, I, M>> upstreamHistory = new ArrayList<>();
    private final List<BatchResult<K2, M, O>> downstreamHistory = new ArrayList<>();

    /** One micro-batch as each operator saw it. */
    private record Ran<K, I, M, K2, O>(BatchResult<K, I, M> upstream, BatchResult<K2, M, O> downstream) {}

    /** A simulator for {@code chain} at {@link Fidelity#FULL}, with processing time and watermark at the epoch. */
    public ChainSimulator(TwsChain<K, I, M, K2, O> chain) {
        this(chain, Fidelity.FULL);
    }

    /**
     * A simulator for {@code chain} at the given fidelity. Runs both operators' driver-side
     * {@code init}/{@code close} passes, upstream first, as Spark does when the query starts.
     */
    public ChainSimulator(TwsChain<K, I, M, K2, O> chain, Fidelity fidelity) {
        this.chain = Objects.requireNonNull(chain, "chain must not be null");
        Objects.requireNonNull(fidelity, "fidelity must not be null");
        this.upstream = new Engine<>(chain.upstream(), fidelity, false, false, java.util.Set.of(),
                SparkLine.onClassPath());
        this.downstream = new Engine<>(chain.downstream(), fidelity, false, false, java.util.Set.of(),
                SparkLine.onClassPath());
        downstream.lateFilterOn(chain.eventTimeColumn());
        this.loop = new MicroBatchLoop<>(new MicroBatchLoop.Operators<>() {
            @Override
            public List<Engine<?, ?, ?>> engines() {
                return List.of(upstream, downstream);
            }

            @Override
            public Ran<K, I, M, K2, O> runBatch(List<I> rows, boolean hadInput, Bytes knownKey, Object keyObject) {
                return runBoth(rows, hadInput);
            }

            @Override
            public long triggerIntervalMs() {
                return chain.upstream().triggerIntervalMs();
            }
        });
    }

    /**
     * One micro-batch of the query: the upstream's tasks, then the downstream's on the upstream's
     * outputs; both commit, or (when either throws) neither does. The downstream's watermarks follow
     * the upstream's: Spark propagates the input watermark through an EventTime operator unchanged.
     */
    private Ran<K, I, M, K2, O> runBoth(List<I> rows, boolean hadInput) {
        Engine<K, I, M>.Uncommitted up = upstream.runUncommitted(rows, hadInput, null, null);
        Engine<K2, M, O>.Uncommitted down;
        try {
            down = downstream.runUncommitted(up.result.outputs(), hadInput, null, null);
        } catch (RuntimeException e) {
            up.rollback();
            throw e;
        }
        up.commit();
        down.commit();
        downstream.forceWatermark(upstream.watermarkMs());
        return new Ran<>(up.result, down.result);
    }

    /**
     * One micro-batch with {@code rows} (possibly none), then the no-data batch either operator asks
     * for; see {@link TwsSimulator#runBatch(List)}.
     */
    public ChainResult<K, I, M, K2, O> runBatch(List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return record(loop.runNextTrigger(rows, null, null));
    }

    /** Varargs form of {@link #runBatch(List)}. */
    @SafeVarargs
    public final ChainResult<K, I, M, K2, O> runBatch(I... rows) {
        return runBatch(Arrays.asList(rows));
    }

    /** The trigger at processing time {@code time} finds {@code rows} waiting; see {@link TwsSimulator#runBatchAt}. */
    public ChainResult<K, I, M, K2, O> runBatchAt(Instant time, List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return record(loop.runTriggerAt(checkClockMove(time), rows));
    }

    /** Rows reach the source; see {@link TwsSimulator#addData(List)}. */
    public ChainResult<K, I, M, K2, O> addData(List<I> rows) {
        Objects.requireNonNull(rows, "rows must not be null");
        return record(loop.addData(rows));
    }

    /** Batches that arrive back to back; see {@link TwsSimulator#runBackToBack(List)}. */
    public ChainResult<K, I, M, K2, O> runBackToBack(List<List<I>> batches) {
        Objects.requireNonNull(batches, "batches must not be null");
        return record(loop.runBackToBack(batches));
    }

    /** Replays every step of {@code scenario}; returns all batches that ran, in order. */
    public ChainResult<K, I, M, K2, O> run(Scenario<I> scenario) {
        Objects.requireNonNull(scenario, "scenario must not be null");
        List<BatchResult<K, I, M>> up = new ArrayList<>();
        List<BatchResult<K2, M, O>> down = new ArrayList<>();
        for (Scenario.Step<I> step : scenario.steps()) {
            ChainResult<K, I, M, K2, O> ran = step(step);
            up.addAll(ran.upstream().batches());
            down.addAll(ran.downstream().batches());
        }
        return new ChainResult<>(new RunResult<>(up), new RunResult<>(down));
    }

    private ChainResult<K, I, M, K2, O> step(Scenario.Step<I> step) {
        if (step instanceof Scenario.Input<I> input) {
            return input.at() == null ? runBatch(input.rows()) : runBatchAt(input.at(), input.rows());
        } else if (step instanceof Scenario.AddData<I> add) {
            return addData(add.rows());
        } else if (step instanceof Scenario.Tick<I> tick) {
            return setProcessingTime(tick.to());
        } else if (step instanceof Scenario.Stop<I>) {
            stop();
            return record(List.of());
        }
        return start();
    }

    /** Moves processing time forward by {@code duration}; see {@link #setProcessingTime}. */
    public ChainResult<K, I, M, K2, O> advanceProcessingTime(Duration duration) {
        Objects.requireNonNull(duration, "duration must not be null");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("advanceProcessingTime(" + duration + "): processing time never moves backwards");
        }
        return setProcessingTime(processingTime().plus(duration));
    }

    /** Moves the processing-time clock; a trigger that comes due runs; see {@link TwsSimulator#setProcessingTime}. */
    public ChainResult<K, I, M, K2, O> setProcessingTime(Instant time) {
        return record(loop.moveClock(checkClockMove(time)));
    }

    /**
     * Forces the watermark of both operators up to {@code watermark}, as if input had moved it
     * there; the no-data batch it asks for runs at the next trigger. A test convenience.
     */
    public ChainResult<K, I, M, K2, O> advanceWatermarkTo(Instant watermark) {
        Objects.requireNonNull(watermark, "watermark must not be null");
        long ms = watermark.toEpochMilli();
        if (ms < upstream.watermarkMs()) {
            throw new IllegalArgumentException("advanceWatermarkTo(" + watermark + ") is before the current watermark "
                    + watermark() + "; watermarks never move backwards");
        }
        upstream.forceWatermark(ms);
        downstream.forceWatermark(ms);
        return record(loop.watermarkForced());
    }

    /** Stops the query; see {@link TwsSimulator#stop()}. */
    public void stop() {
        loop.stop();
    }

    /** Starts the stopped query from its checkpoint (both operators); see {@link TwsSimulator#start()}. */
    public ChainResult<K, I, M, K2, O> start() {
        return record(loop.start());
    }

    /** {@link #stop()} then {@link #start()}. */
    public ChainResult<K, I, M, K2, O> restart() {
        loop.stop();
        return start();
    }

    /**
     * Everything the query's checkpoint would hold now: both operators' state and timers, and the
     * query's one clock, watermarks and next batch id. Take it between batches; rows waiting in the
     * source are not part of it.
     * <pre>{@code
     * ChainSnapshot checkpoint = sim.snapshot();
     * ChainSimulator<String, Click, Session, String, PageAlert> other = new ChainSimulator<>(chain);
     * other.restore(checkpoint);                    // both operators where sim's are
     * }</pre>
     */
    public ChainSnapshot snapshot() {
        return new ChainSnapshot(upstream.snapshot(), downstream.snapshot());
    }

    /**
     * Replaces both operators' state and timers, the watermarks, the clock and the batch id with
     * {@code snapshot} and starts the query again (see {@link #start()}), as a query restarted from
     * its checkpoint; the history is kept. The snapshot comes from {@link #snapshot()} of a
     * simulator of the same chain, or from a real chained query's checkpoint:
     * <pre>{@code
     * ChainSnapshot production = CheckpointState.of(chain).read(Path.of("/checkpoints/alerts"));
     * ChainSimulator<String, Click, Session, String, PageAlert> sim = new ChainSimulator<>(chain);
     * sim.restore(production);
     * sim.runBatch(click("ana", "/a", at("10:00")));
     * }</pre>
     * Each operator's snapshot is checked as {@link TwsSimulator#restore} checks one (the grouping
     * key encoder must be that operator's), both before anything changes: a snapshot of another
     * chain throws {@link IllegalArgumentException} and leaves this simulator as it was.
     */
    public ChainResult<K, I, M, K2, O> restore(ChainSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot must not be null");
        return record(loop.restore(List.of(snapshot.upstream(), snapshot.downstream()),
                List.of("the chain snapshot's upstream", "the chain snapshot's downstream"),
                "restore a ChainSnapshot into a simulator of the chain it was taken from"));
    }

    /** The downstream operator's state and timers (keys of type {@code K2}), read and written between batches. */
    public StateView<K2> state() {
        return new StateView<>(downstream);
    }

    /** The upstream operator's state and timers (keys of type {@code K}), read and written between batches. */
    public StateView<K> upstreamState() {
        return new StateView<>(upstream);
    }

    /** Every batch run so far, per operator. */
    public ChainResult<K, I, M, K2, O> history() {
        return new ChainResult<>(new RunResult<>(upstreamHistory), new RunResult<>(downstreamHistory));
    }

    /** The current watermark of both operators: the next batch's eviction watermark. */
    public Instant watermark() {
        return Instant.ofEpochMilli(upstream.watermarkMs());
    }

    /** The current processing time (the next batch's timestamp). */
    public Instant processingTime() {
        return Instant.ofEpochMilli(upstream.processingTimeMs());
    }

    /** The id the next micro-batch will get. */
    public long nextBatchId() {
        return upstream.nextBatchId();
    }

    /** When the next trigger runs if the clock gets there. */
    public Instant nextTriggerTime() {
        return loop.nextTriggerTime();
    }

    /** The rows added to the source that no batch has read yet, in arrival order. */
    public List<I> waitingRows() {
        return loop.waiting();
    }

    /** False between {@link #stop()} and {@link #start()}. */
    public boolean isRunning() {
        return loop.running();
    }

    /** The chain this simulator runs. */
    public TwsChain<K, I, M, K2, O> chain() {
        return chain;
    }

    private long checkClockMove(Instant time) {
        Objects.requireNonNull(time, "time must not be null");
        long ms = time.toEpochMilli();
        if (ms < upstream.processingTimeMs()) {
            throw new IllegalArgumentException("processing time " + time + " is before the current processing time "
                    + processingTime() + "; processing time never moves backwards");
        }
        return ms;
    }

    /** Keeps {@code ran} in the history and returns it. */
    private ChainResult<K, I, M, K2, O> record(List<Ran<K, I, M, K2, O>> ran) {
        List<BatchResult<K, I, M>> up = new ArrayList<>(ran.size());
        List<BatchResult<K2, M, O>> down = new ArrayList<>(ran.size());
        for (Ran<K, I, M, K2, O> r : ran) {
            up.add(r.upstream());
            down.add(r.downstream());
        }
        upstreamHistory.addAll(up);
        downstreamHistory.addAll(down);
        return new ChainResult<>(new RunResult<>(up), new RunResult<>(down));
    }
}
