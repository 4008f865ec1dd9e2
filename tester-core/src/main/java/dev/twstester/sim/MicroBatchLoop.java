package dev.twstester.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.TimeMode;

import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.TwsQuery;
import dev.twstester.internal.Triggers;

/**
 * Spark's micro-batch loop around the query's stateful operators: the source's
 * waiting rows, the trigger, start and stop. The one place that decides which batch runs when ({@code MicroBatchExecution} with
 * {@code ProcessingTimeExecutor} and a manual clock):
 * <ul>
 *   <li>A trigger runs at most one batch: a data batch with every row waiting in the source, else
 *   the no-data batch the last batch asked for ({@link BatchExecution#wantsNoDataBatch()}: any
 *   operator), else nothing. A data batch that finds a no-data batch pending takes its place (late rows filtered with the
 *   last batch's watermark, timers and eviction with the new one).</li>
 *   <li>With an interval, triggers run at start and then when the clock reaches the next multiple
 *   of the interval after the last trigger; a clock move past several of them runs one trigger, at
 *   the new time, as Spark's trigger does when it falls behind.</li>
 *   <li>With a zero interval, triggers run back to back until one runs nothing: rows are picked up
 *   as soon as they arrive, a no-data batch follows at once. In ProcessingTime mode, where every
 *   trigger after the first batch runs a batch, Spark would loop without end; the loop runs one
 *   trigger per clock move instead, as a 1 ms interval would (also when only one operator of the
 *   query is in ProcessingTime mode).</li>
 *   <li>A start runs one trigger at once; no no-data batch follows a start (the run has no
 *   previous batch), so a stop skips a pending no-data batch. A stopped query runs nothing: rows
 *   wait, the clock moves freely.</li>
 *   <li>A batch that throws stops the query, as a failed batch stops Spark's: its state changes
 *   are rolled back and it stays in the offset log without a commit. Every later start runs it
 *   first, at its first trigger, with its id, rows, timestamp and watermarks from the offset log;
 *   rows added meanwhile form the batch after it.</li>
 *   <li>{@code Trigger.AvailableNow()}: each start is one run that reads the rows waiting then (one
 *   data batch), runs the no-data batches the batches ask for, and ends by itself: the query is
 *   stopped between runs, and the short forms ({@code runBatch} and the like) start one run each.</li>
 * </ul>
 */
final class MicroBatchLoop<K, I, O> {
    private final BatchExecution<K, I, O> execution;
    private final Checkpoint checkpoint;
    /** Told of every batch right after its commit, before any other batch runs. */
    private final Consumer<BatchResult<K, I, O>> committed;
    /** Told of every batch that fails, before its exception propagates. */
    private final Consumer<FailedBatch> failures;
    /** The trigger interval; 1 for ProcessingTime mode with a zero interval (see the class comment). */
    private final long intervalMs;
    /** A zero interval outside ProcessingTime mode: triggers run back to back until idle. */
    private final boolean backToBack;
    /** A zero interval in ProcessingTime mode: {@code runBatch} may run a trigger at the current time. */
    private final boolean triggerNow;
    /** Rows added since the last data batch read the source. */
    private List<I> waiting = List.of();
    /** Whether anything was added since then (an empty add still makes a new offset, so a batch). */
    private boolean dataWaiting;
    private boolean running = true;
    /** Whether the query stopped because a batch failed (it is in the offset log without a commit). */
    private boolean failed;
    private long nextTriggerMs;
    /** {@code Trigger.AvailableNow()}: every start is a run that ends when it has nothing left to do. */
    private final boolean availableNow;

    MicroBatchLoop(TwsQuery<K, I, O> query, BatchExecution<K, I, O> execution, Checkpoint checkpoint,
            Consumer<BatchResult<K, I, O>> committed, Consumer<FailedBatch> failures) {
        this.execution = execution;
        this.checkpoint = checkpoint;
        this.committed = committed;
        this.failures = failures;
        long interval = query.triggerIntervalMs();
        boolean processingTime = false;
        for (TwsQuery<?, ?, ?> op : query.operators()) {
            processingTime |= op.timeMode().equals(TimeMode.ProcessingTime());
        }
        this.intervalMs = Triggers.effectiveIntervalMs(interval, processingTime);
        this.backToBack = this.intervalMs == 0;
        this.triggerNow = interval == 0 && processingTime;
        this.availableNow = Triggers.isAvailableNow(query.trigger());
        if (availableNow && processingTime) {
            throw new IllegalArgumentException("Trigger.AvailableNow() with TimeMode.ProcessingTime() never ends in "
                    + "Spark 4.2.0: in ProcessingTime mode every batch asks for another one, so the run never runs "
                    + "out of batches; use Trigger.ProcessingTime(...) or another time mode");
        }
        // the construction's run found no rows: the start's own trigger had nothing to do, and an
        // AvailableNow run ends there
        this.running = !availableNow;
        this.nextTriggerMs = nextTriggerAfter(checkpoint.processingTimeMs());
    }

    /** Rows reach the source; a running query with a zero interval reads them at once. */
    List<BatchResult<K, I, O>> addData(List<I> rows) {
        arrive(new ArrayList<>(rows));
        return running && backToBack ? untilIdle(new ArrayList<>(2)) : List.of();
    }

    /** The clock moves to {@code toMs}; a trigger runs there if one has come due. */
    List<BatchResult<K, I, O>> moveClock(long toMs) {
        setClock(toMs);
        if (!running || backToBack || toMs < nextTriggerMs) {
            return List.of();
        }
        List<BatchResult<K, I, O>> ran = new ArrayList<>(1);
        trigger(ran, null, null);
        return ran;
    }

    /**
     * One trigger now, with {@code rows} waiting: the short form behind {@code runBatch}. With a zero
     * interval that is the next trigger anyway; with an interval, the clock first moves to the next
     * trigger time, except in ProcessingTime mode with a zero interval, where Spark's endless loop
     * reads rows at the current time. {@code knownKey} (with {@code keyObject}) is the one key of
     * every row, when known; the source must then hold no other rows.
     */
    List<BatchResult<K, I, O>> runNextTrigger(List<I> rows, Bytes knownKey, K keyObject) {
        if (!availableNow) {
            requireRunning("run a batch");
        }
        if (knownKey != null && dataWaiting) {
            throw new IllegalStateException(waiting.size() + " rows added earlier wait in the source and would "
                    + "join this one-key batch; run them first (move the clock to " + nextTriggerTime()
                    + ") or use runBatch(rows)");
        }
        arrive(rows);
        if (availableNow) {
            return availableNowRun(knownKey, keyObject);
        }
        List<BatchResult<K, I, O>> ran = new ArrayList<>(2);
        if (!backToBack && !triggerNow) {
            setClock(Math.max(checkpoint.processingTimeMs(), nextTriggerMs));
        }
        trigger(ran, knownKey, keyObject);
        if (backToBack) {
            untilIdle(ran);
        }
        return ran.size() == 1 ? List.of(ran.get(0)) : ran; // the common case, as the run's result keeps it
    }

    /**
     * The trigger at {@code atMs} finds {@code rows} waiting: the short form behind {@code runBatchAt}.
     * With a zero interval the clock moves there without a trigger of its own.
     */
    List<BatchResult<K, I, O>> runTriggerAt(long atMs, List<I> rows) {
        if (!availableNow) {
            requireRunning("run a batch");
        }
        if (!backToBack && !triggerNow && atMs < nextTriggerMs) {
            throw new IllegalArgumentException("no trigger runs at " + Instant.ofEpochMilli(atMs) + ": with a trigger "
                    + "interval of " + intervalMs + " ms the next one runs at " + Instant.ofEpochMilli(nextTriggerMs)
                    + "; use addData(rows) and move the clock, or runBatch(rows) for the next trigger");
        }
        setClock(atMs);
        return runNextTrigger(rows, null, null);
    }

    /**
     * Batches that arrive back to back, each waiting when the one before ends. With a zero interval
     * they run at once, one data batch each, and the no-data batch (if due) after the last; with an
     * interval, each runs at the next trigger time.
     */
    List<BatchResult<K, I, O>> runBackToBack(List<List<I>> batches) {
        if (!availableNow) {
            requireRunning("run a batch");
        }
        if (!backToBack || availableNow) {
            List<BatchResult<K, I, O>> ran = new ArrayList<>();
            for (List<I> rows : batches) {
                ran.addAll(runNextTrigger(rows, null, null));
            }
            return ran;
        }
        List<BatchResult<K, I, O>> ran = new ArrayList<>();
        for (List<I> rows : batches) {
            arrive(rows);
            trigger(ran, null, null);
        }
        if (!batches.isEmpty()) {
            untilIdle(ran);
        }
        return ran;
    }

    /** After the watermark was forced forward: with a zero interval its no-data batch runs at once. */
    List<BatchResult<K, I, O>> watermarkForced() {
        return running && backToBack ? untilIdle(new ArrayList<>(2)) : List.of();
    }

    /** Stops the query: nothing runs until {@link #start()}; a pending no-data batch will not run. */
    void stop() {
        if (!running && (availableNow || failed)) {
            return; // an AvailableNow run has ended by itself; a failed batch has stopped the query
        }
        requireRunning("stop it");
        running = false;
    }

    /** Starts a new run from the checkpoint (driver pass included) and runs its first trigger now. */
    List<BatchResult<K, I, O>> start() {
        if (running) {
            throw new IllegalStateException("the query is already running; stop() it first, or use restart()");
        }
        if (availableNow) {
            return availableNowRun(null, null);
        }
        newRun();
        running = true;
        List<BatchResult<K, I, O>> ran = new ArrayList<>(2);
        if (!rerunFailed(ran)) {
            trigger(ran, null, null);
        }
        if (backToBack) {
            untilIdle(ran);
        }
        return ran;
    }

    /** An AvailableNow run: a new query run reads the waiting rows, runs what follows, and ends. */
    private List<BatchResult<K, I, O>> availableNowRun(Bytes knownKey, K keyObject) {
        newRun();
        List<BatchResult<K, I, O>> ran = new ArrayList<>(2);
        boolean reran = rerunFailed(ran);
        if (trigger(ran, knownKey, keyObject) || reran) {
            untilIdle(ran);
        }
        return ran;
    }

    boolean running() {
        return running;
    }

    /** Whether the query stopped because a batch failed (and no start has run since). */
    boolean failed() {
        return failed;
    }

    /** Whether the next trigger, finding no rows waiting, would run a no-data batch. */
    boolean noDataBatchPending() {
        return running && execution.wantsNoDataBatch();
    }

    /** The rows waiting in the source for the next data batch. */
    List<I> waiting() {
        return java.util.Collections.unmodifiableList(new ArrayList<>(waiting));
    }

    /** When the next trigger runs: now with a zero interval (outside ProcessingTime mode) and for AvailableNow (at the next start). */
    Instant nextTriggerTime() {
        return Instant.ofEpochMilli(backToBack ? checkpoint.processingTimeMs() : nextTriggerMs);
    }

    /** Rows reach the source: the list itself when nothing waits (it is read before the caller returns), else a merged copy. */
    private void arrive(List<I> rows) {
        if (!dataWaiting) {
            waiting = rows;
        } else {
            List<I> merged = new ArrayList<>(waiting.size() + rows.size());
            merged.addAll(waiting);
            merged.addAll(rows);
            waiting = merged;
        }
        dataWaiting = true;
    }

    /** Triggers at the current time until one runs nothing; the batches are appended to {@code ran}, which is returned. */
    private List<BatchResult<K, I, O>> untilIdle(List<BatchResult<K, I, O>> ran) {
        while (trigger(ran, null, null)) {
            // each trigger runs at most one batch; a no-data batch never asks for another
        }
        return ran;
    }

    /**
     * The first trigger of a run, when the offset log ends in a batch without a commit: that batch
     * runs again (true), as planned. Rows waiting in the source stay for the next trigger.
     */
    private boolean rerunFailed(List<BatchResult<K, I, O>> ran) {
        if (checkpoint.uncommitted() == null) {
            return false;
        }
        nextTriggerMs = nextTriggerAfter(checkpoint.processingTimeMs());
        ran.add(committedOrStopped(execution::rerunUncommitted));
        return true;
    }

    /**
     * One trigger at the current time; true if it ran a batch. A data batch takes every waiting row
     * out of the source first; if it fails, the rows stay with the batch in the offset log, the
     * state is as before the batch, and the query stops.
     */
    private boolean trigger(List<BatchResult<K, I, O>> ran, Bytes knownKey, K keyObject) {
        nextTriggerMs = nextTriggerAfter(checkpoint.processingTimeMs());
        if (dataWaiting) {
            List<I> rows = waiting;
            waiting = List.of();
            dataWaiting = false;
            ran.add(runBatch(rows, true, knownKey, keyObject));
            return true;
        }
        if (execution.wantsNoDataBatch()) {
            ran.add(runBatch(List.of(), false, null, null));
            return true;
        }
        return false;
    }

    private BatchResult<K, I, O> runBatch(List<I> rows, boolean hadInput, Bytes knownKey, K keyObject) {
        return committedOrStopped(() -> execution.run(rows, hadInput, knownKey, keyObject));
    }

    /** Runs a batch and reports its commit; a batch that throws stops the query. */
    private BatchResult<K, I, O> committedOrStopped(Supplier<BatchResult<K, I, O>> batch) {
        BatchResult<K, I, O> done;
        try {
            done = batch.get();
        } catch (Throwable t) { // the user's Errors too: Spark's query stops on any of them
            running = false;
            failed = true;
            Checkpoint.PlannedBatch planned = checkpoint.uncommitted();
            failures.accept(FailedBatch.of(planned.id(), planned.hadInput(), planned.rows(), planned.timestampMs(),
                    planned.lateWatermarkMs(), planned.evictionWatermarkMs(), t));
            throw t;
        }
        committed.accept(done);
        return done;
    }

    /** A new run of the query on its checkpoint: every operator's driver pass, no batch ran yet. */
    private void newRun() {
        failed = false;
        execution.operators().forEach(Operator::restart);
        checkpoint.newRun();
    }

    /** The clock moves (every operator's, the query's one clock). */
    private void setClock(long ms) {
        checkpoint.clock(ms);
    }

    private long nextTriggerAfter(long nowMs) {
        return Triggers.nextTriggerTime(intervalMs, nowMs);
    }

    private void requireRunning(String what) {
        Checkpoint.PlannedBatch pending = checkpoint.uncommitted();
        if (failed && pending != null) {
            throw new IllegalStateException("the query stopped after batch " + pending.id() + " failed: start() it, "
                    + "restart() it or deploy a fixed version with restartWith(next) before you " + what
                    + "; the new run runs batch " + pending.id() + " again first, with its rows, timestamp and "
                    + "watermarks (rows added meanwhile wait in the source for the batch after it)");
        }
        if (!running) {
            throw new IllegalStateException("the query is stopped: start() it before you " + what
                    + " (rows added while it is stopped wait in the source)");
        }
    }
}
