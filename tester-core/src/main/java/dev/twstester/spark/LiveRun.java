package dev.twstester.spark;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.streaming.sources.MemorySink;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.internal.Triggers;

/**
 * One live streaming query, stepped through a scenario with the query's trigger and a manual
 * trigger clock. A {@link Scenario.Stop} stops it; a {@link Scenario.Start} starts a new query on
 * the same checkpoint, source, sink and clock, so Spark resumes from its checkpoint; the batches of
 * every query run go into one result. With a zero interval outside ProcessingTime mode, each step
 * waits until Spark has processed all available data ({@code processAllAvailable}); otherwise
 * (ProcessingTime mode with a zero interval runs as a 1 ms interval) a step that brings a trigger
 * due waits until the stream waits on the clock again.
 *
 * <p>The query's stateful operators ({@link LiveOperator}) are applied one after another to the
 * source, as one job plans {@code ...transformWithState(...).groupByKey(...).transformWithState(...)};
 * each batch is read back as each operator saw it.
 */
final class LiveRun<K, I, O> implements AutoCloseable {
    /** The running version of the query: {@link #restartWith} replaces it. */
    private TwsQuery<K, I, O> query;
    private final SparkSession spark;
    private final Duration timeout;
    private final String checkpoint;
    /** Every stateful operator, in plan order. */
    private final List<LiveOperator<?, ?, ?>> operators;
    private final boolean processingTime;
    /** The trigger interval the query runs with (see {@link Triggers#effectiveIntervalMs}). */
    private final long intervalMs;
    /** {@code Trigger.AvailableNow()}: each start is a run that ends by itself. */
    private final boolean availableNow;
    /** Rows added since the last data batch read the source. */
    private final List<I> waiting = new ArrayList<>();
    private boolean running;
    private long nextTriggerMs;
    private final SparkStreaming.MemorySource<I> stream;
    private final MemorySink sink = SparkStreaming.memorySink();
    private final SparkStreaming.StepClock clock = new SparkStreaming.StepClock(0L);
    private final List<BatchResult<K, I, O>> batches = new ArrayList<>();
    private final Map<Long, StreamingQueryProgress> progress = new TreeMap<>();
    private StreamingQuery streamingQuery;
    private long lastBatchWatermarkMs;
    /** The batches that failed, one per failure (a crash loop fails one batch at every start). */
    private final List<FailedBatch> failures = new ArrayList<>();
    /** The id of the batch the last failure left uncommitted in the offset log; -1 for none. */
    private long failedBatchId = -1;
    /** The rows that batch read: its run at the next start reads them again. */
    private List<I> failedRows = List.of();

    /** {@code spark} is this run's own session, with the query's shuffle partitions set ({@link LiveSpark#forRun}). */
    LiveRun(TwsQuery<K, I, O> query, SparkSession spark, Duration timeout, Path checkpoint) {
        this.query = query;
        this.spark = spark;
        this.timeout = timeout;
        this.checkpoint = checkpoint.toString();
        this.operators = LiveOperator.of(query, spark);
        // an operator in ProcessingTime mode asks for a batch at every trigger, so the query spins with a zero interval
        this.processingTime = operators.stream().anyMatch(LiveOperator::processingTime);
        this.intervalMs = Triggers.effectiveIntervalMs(query.triggerIntervalMs(), processingTime);
        this.availableNow = Triggers.isAvailableNow(query.trigger());
        this.stream = SparkStreaming.memoryStream(query.inputEncoder(), spark);
        try {
            start();
        } catch (Exception e) {
            close();
            throw new LiveRunException("could not start the streaming query: " + e, e, List.of());
        }
    }

    /**
     * Starts a query run on the checkpoint, with a new processor instance (so Spark's driver-side
     * init/close pass runs on a fresh one, as after a real restart), and waits until its first
     * trigger (a data batch if rows wait, else nothing) is done.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void start() throws Exception {
        spark.conf().set(dev.twstester.StateEncoding.CONF, query.stateEncoding().conf());
        Dataset out = stream.toDS();
        for (LiveOperator op : operators) {
            out = op.apply(out);
        }
        Trigger trigger = availableNow ? query.trigger() : Trigger.ProcessingTime(intervalMs);
        streamingQuery = SparkStreaming.start(spark, out, sink, trigger, clock, checkpoint,
                LiveOperator.queryOutputMode(operators));
        if (availableNow) {
            awaitEnd();
            return;
        }
        running = true;
        runTriggerDue(clock.getTimeMillis());
    }

    /** Waits until an AvailableNow run has ended by itself; it is then stopped, as the simulator's. */
    private void awaitEnd() throws Exception {
        if (!streamingQuery.awaitTermination(timeout.toMillis())) {
            throw new IllegalStateException("the Trigger.AvailableNow run did not end within " + timeout
                    + "; raise LiveRunner.stepTimeout(...)");
        }
        running = false;
    }

    /** With a zero interval: every trigger until one runs nothing; else the trigger at {@code nowMs}. */
    private void runTriggerDue(long nowMs) throws Exception {
        if (intervalMs == 0) {
            streamingQuery.processAllAvailable();
        } else {
            awaitWaitingAt(nowMs);
        }
        nextTriggerMs = Triggers.nextTriggerTime(intervalMs, nowMs);
    }

    /** Runs {@code step} ({@link Steps}) and reads the batches it ran. */
    void step(Scenario.Step<I> step) {
        try {
            step.applyTo(new Steps());
            collect();
        } catch (LiveRunException e) {
            throw e;
        } catch (StepException e) {
            throw failure((Exception) e.getCause(), "");
        } catch (Exception e) {
            throw failure(e, "");
        }
    }

    /** What each kind of step does to the live query; a deploy is {@link #restartWith}. */
    private final class Steps implements Scenario.StepTarget<I, Void> {
        @Override
        public Void batch(List<I> rows, Instant at) {
            return checked(() -> input(rows, at));
        }

        @Override
        public Void addData(List<I> rows) {
            return checked(() -> {
                LiveRun.this.addData(rows);
                if (running && intervalMs == 0) {
                    streamingQuery.processAllAvailable();
                }
            });
        }

        @Override
        public Void tick(Instant to) {
            return checked(() -> moveClock(to.toEpochMilli()));
        }

        @Override
        public Void stop() {
            if (!availableNow && failedBatchId < 0) { // a failed batch has stopped the query already
                requireRunning();
                checked(streamingQuery::stop);
                running = false;
            }
            return null;
        }

        @Override
        public Void start() {
            if (running) {
                throw new IllegalStateException("the query is already running; a Start step needs a Stop before it");
            }
            return checked(LiveRun.this::start);
        }

        @Override
        @SuppressWarnings("unchecked")
        public Void deploy(String version, TwsQuery<?, I, ?> next) {
            restartWith((TwsQuery<K, I, O>) new Scenario.Deploy<>(version, next).requireQuery());
            return null;
        }
    }

    /** A step's action that may throw. */
    private interface Action {
        void run() throws Exception;
    }

    /** Runs {@code action}; a checked exception fails the step as a runtime one ({@link #step} reports it). */
    private static Void checked(Action action) {
        try {
            action.run();
            return null;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new StepException(e);
        }
    }

    /** A checked exception of a step, carried to {@link #step}. */
    private static final class StepException extends RuntimeException {
        StepException(Exception cause) {
            super(cause);
        }
    }

    /**
     * The run failed with {@code e}: collects the batches that completed before it, and when a batch
     * failed (the query stopped with an exception) records it with its offset-log entry, so the
     * next start's run of it reads its rows; the returned exception says which batch failed.
     */
    private LiveRunException failure(Exception e, String when) {
        int failedBefore = failures.size();
        try {
            collect(); // the batches that completed before the failure
            if (streamingQuery != null && !streamingQuery.isActive() && streamingQuery.exception().isDefined()) {
                recordFailedBatch(streamingQuery.exception().get());
            }
        } catch (RuntimeException secondary) {
            e.addSuppressed(secondary);
        }
        return new LiveRunException("live Spark run failed at batch " + nextBatchId() + when + ": " + e.getMessage(), e,
                batches, failures.size() > failedBefore ? failures.get(failures.size() - 1) : null);
    }

    private void recordFailedBatch(Throwable error) {
        long id = nextBatchId();
        if (id != failedBatchId) { // a new failure: it read every row waiting; a repeated one, the same rows again
            failedRows = new ArrayList<>(waiting);
            waiting.clear();
            failedBatchId = id;
        }
        running = false;
        long[] times = SparkStreaming.batchTimes(streamingQuery, id);
        failures.add(FailedBatch.of(id, !failedRows.isEmpty(), failedRows, times[0], lastBatchWatermarkMs, times[1], error));
    }

    /** The version of the query running now (the last one deployed). */
    TwsQuery<K, I, O> query() {
        return query;
    }

    /** Whether the last failure left a batch uncommitted that the next start runs again. */
    boolean stoppedByFailedBatch() {
        return failedBatchId >= 0 && !running;
    }

    /**
     * Stops the running query (if it runs) and starts {@code next}, a new version of it, on the same
     * checkpoint, source, sink and clock, as a deploy of a new processor version does. {@code next}
     * must read the same source the same way: the same key, input and output encoders, watermark
     * and trigger. Spark checks the new version against the checkpoint when it plans the first batch
     * of the new run, so an incompatible version fails then, not here.
     */
    void restartWith(TwsQuery<K, I, O> next) {
        String difference = versionDifference(query, next);
        if (difference != null) {
            throw new IllegalArgumentException("the new version " + difference + "; a new version may change each "
                    + "operator's processor, time mode, output mode and state encoding and the first one's initial "
                    + "state, not how the source is read or the plan");
        }
        try {
            if (running) {
                streamingQuery.stop();
                running = false;
                collect();
            }
            query = next;
            for (int i = 0; i < operators.size(); i++) {
                operators.get(i).restartWith(next.operators().get(i));
            }
            start();
            collect();
        } catch (Exception e) {
            throw failure(e, " after the restart with the new version");
        }
    }

    /** What differs between two versions in how they read the source and their plan, or null. */
    private String versionDifference(TwsQuery<K, I, O> a, TwsQuery<K, I, O> b) {
        if (a.operators().size() != b.operators().size()) {
            return "has " + b.operators().size() + " stateful operator(s), the checkpoint " + a.operators().size();
        }
        for (int i = 0; i < a.operators().size(); i++) {
            TwsQuery<?, ?, ?> x = a.operators().get(i);
            TwsQuery<?, ?, ?> y = b.operators().get(i);
            String where = a.operators().size() == 1 ? "" : " in operator " + i;
            if (!x.keyEncoder().equals(y.keyEncoder())) {
                return "has another key encoder" + where + " (" + y.keyEncoder() + " instead of " + x.keyEncoder() + ")";
            }
            if (!x.inputEncoder().equals(y.inputEncoder()) || !x.outputEncoder().equals(y.outputEncoder())) {
                return "has other input or output encoders" + where;
            }
            if (!x.outputEventTimeColumn().equals(y.outputEventTimeColumn())) {
                return "has another output event-time column" + where;
            }
        }
        if (!a.eventTimeColumn().equals(b.eventTimeColumn()) || !a.watermarkDelay().equals(b.watermarkDelay())) {
            return "has another watermark";
        }
        boolean bProcessingTime = b.operators().stream().anyMatch(op -> op.timeMode().equals(TimeMode.ProcessingTime()));
        if (Triggers.effectiveIntervalMs(b.triggerIntervalMs(), bProcessingTime) != intervalMs
                || Triggers.isAvailableNow(b.trigger()) != availableNow) {
            return "has another trigger interval";
        }
        return null;
    }

    /** A batch at the trigger at {@code at}, or the next trigger: rows added, then the clock moved there. */
    private void input(List<I> rows, Instant at) throws Exception {
        long now = clock.getTimeMillis();
        if (availableNow) {
            if (at != null) {
                requireForward(at.toEpochMilli(), now);
                clock.setTime(at.toEpochMilli());
            }
            addData(rows);
            start(); // each batch of an AvailableNow query is a run of its own
            return;
        }
        requireRunning();
        if (intervalMs == 0) {
            if (at != null) {
                requireForward(at.toEpochMilli(), now);
                clock.setTime(at.toEpochMilli());
            }
            addData(rows);
            streamingQuery.processAllAvailable();
            return;
        }
        if (at == null && processingTime && query.triggerIntervalMs() == 0) {
            throw new IllegalArgumentException("in ProcessingTime mode with a zero trigger interval live Spark runs a "
                    + "batch only on a clock move: give each input a processing time later than the previous step "
                    + "(Scenario.Builder.batchAt), not the current clock " + Instant.ofEpochMilli(now));
        }
        long atMs = at == null ? nextTriggerMs : at.toEpochMilli();
        requireForward(atMs, now);
        if (atMs < nextTriggerMs) {
            throw new IllegalArgumentException("no trigger runs at " + Instant.ofEpochMilli(atMs) + ": with a trigger "
                    + "interval of " + intervalMs + " ms the next one runs at " + Instant.ofEpochMilli(nextTriggerMs));
        }
        addData(rows);
        clock.setTime(atMs);
        runTriggerDue(atMs);
    }

    private void addData(List<I> rows) {
        waiting.addAll(rows);
        stream.addData(rows);
    }

    /** The clock moves; a running query runs the trigger that comes due by then, if any. */
    private void moveClock(long to) throws Exception {
        requireForward(to, clock.getTimeMillis());
        clock.setTime(to);
        if (running && intervalMs > 0 && to >= nextTriggerMs) {
            runTriggerDue(to);
        }
    }

    private void requireRunning() {
        if (!running) {
            throw new IllegalStateException("the query is stopped: a Start step must come first");
        }
    }

    private static void requireForward(long to, long now) {
        if (to < now) {
            throw new IllegalArgumentException("processing time " + Instant.ofEpochMilli(to) + " is before the clock "
                    + Instant.ofEpochMilli(now) + "; processing time never moves backwards");
        }
    }

    private void awaitWaitingAt(long timeMs) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        // woken when the stream waits on the clock; every 20 ms checks that the query still runs
        while (!clock.awaitStreamWaitingAt(timeMs, 20)) {
            if (!streamingQuery.isActive()) {
                streamingQuery.awaitTermination();
                throw new IllegalStateException("the streaming query stopped");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no batch finished at processing time " + Instant.ofEpochMilli(timeMs)
                        + " within " + timeout + "; raise LiveRunner.stepTimeout(...)");
            }
        }
    }

    /**
     * Reads the batches that ran since the last step. A batch whose source offsets moved is a data
     * batch and read every row waiting in the source.
     */
    private void collect() {
        for (StreamingQueryProgress p : streamingQuery.recentProgress()) {
            if (p.durationMs().containsKey("addBatch")) {
                progress.putIfAbsent(p.batchId(), p);
            }
        }
        for (Map.Entry<Long, StreamingQueryProgress> e : progress.entrySet()) {
            if (e.getKey() >= nextBatchId()) {
                StreamingQueryProgress p = e.getValue();
                List<I> rows = null;
                if (e.getKey() == failedBatchId) { // the failed batch, run again: the rows it read before
                    rows = readSource(p) ? failedRows : null;
                    failedBatchId = -1;
                    failedRows = List.of();
                } else if (readSource(p)) {
                    rows = new ArrayList<>(waiting);
                    waiting.clear();
                }
                batches.add(batch(p, rows));
            }
        }
    }

    /** Whether the batch read new offsets of the source (a data batch, possibly of no rows). */
    private static boolean readSource(StreamingQueryProgress p) {
        for (var source : p.sources()) {
            if (!java.util.Objects.equals(source.startOffset(), source.endOffset())) {
                return true;
            }
        }
        return false;
    }

    private long nextBatchId() {
        return batches.isEmpty() ? 0 : batches.get(batches.size() - 1).batchId() + 1;
    }

    /**
     * Batch {@code p} as every operator saw it: for one operator its view, for several the query's
     * (the source's rows and the first operator's late rows, timers and metrics, the last
     * operator's outputs) with each operator's view, as the simulator gives it.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private BatchResult<K, I, O> batch(StreamingQueryProgress p, List<I> rows) {
        long id = p.batchId();
        List<I> input = rows == null ? List.of() : rows;
        if (p.numInputRows() != input.size()) {
            throw new IllegalStateException("Spark's batch " + id + " read " + p.numInputRows() + " rows, the step gave "
                    + input.size() + ": the memory source folded or split input");
        }
        long[] times = SparkStreaming.batchTimes(streamingQuery, id);
        LiveOperator.BatchTimes shared = new LiveOperator.BatchTimes(times[0], lastBatchWatermarkMs, times[1]);
        lastBatchWatermarkMs = times[1];
        List<BatchResult<?, ?, ?>> views = new ArrayList<>(operators.size());
        List received = input;
        for (int i = 0; i < operators.size(); i++) {
            LiveOperator op = operators.get(i);
            List outputs;
            List<Integer> partitions;
            if (i == operators.size() - 1) {
                outputs = op.sinkRows(sink, id);
                partitions = op.sinkPartitions(id, outputs.size());
            } else {
                LiveOperator.Emitted<?> emitted = op.emitted(id);
                outputs = emitted.rows();
                partitions = emitted.partitions();
            }
            views.add(op.view(p, rows != null, received, shared, outputs, partitions));
            received = outputs;
        }
        BatchResult<K, I, O> first = (BatchResult<K, I, O>) views.get(0);
        if (views.size() == 1) {
            return first;
        }
        BatchResult<?, ?, O> last = (BatchResult<?, ?, O>) views.get(views.size() - 1);
        return new BatchResult<>(id, first.hadInput(), first.input(), first.droppedLate(), first.lateWatermark(),
                first.evictionWatermark(), first.batchTimestamp(), last.outputs(), first.firedTimers(), first.metrics(),
                last.outputPartitions(), views);
    }

    RunResult<K, I, O> result() {
        return new RunResult<>(batches, failures);
    }

    @Override
    public void close() {
        if (streamingQuery == null) {
            return;
        }
        try {
            streamingQuery.stop();
        } catch (Exception e) {
            // stopping a failed query can throw again; the failure was already reported
        }
    }

}
