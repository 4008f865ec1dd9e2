package dev.twstester.spark;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.KeyValueGroupedDataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.streaming.sources.MemorySink;
import org.apache.spark.sql.streaming.StateOperatorProgress;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.internal.ContiguousPartitions;
import dev.twstester.internal.RowCodec;
import dev.twstester.internal.Triggers;

import scala.Tuple2;

/**
 * One live streaming query, stepped through a scenario with the query's trigger and a manual
 * trigger clock. A {@link Scenario.Stop} stops it; a {@link Scenario.Start} starts a new query on
 * the same checkpoint, source, sink and clock, so Spark resumes from its checkpoint; the batches of
 * every query run go into one result. With a zero interval outside ProcessingTime mode, each step
 * waits until Spark has processed all available data ({@code processAllAvailable}); otherwise
 * (ProcessingTime mode with a zero interval runs as a 1 ms interval) a step that brings a trigger
 * due waits until the stream waits on the clock again.
 */
final class LiveRun<K, I, O> implements AutoCloseable {
    /** The running version of the query: {@link #restartWith} replaces it. */
    private TwsQuery<K, I, O> query;
    private final SparkSession spark;
    private final Duration timeout;
    private final String checkpoint;
    /** What the processor's tasks report (fired timers, rows emitted, each partition's count). */
    private final TaskReports reports;
    private final RowCodec<K> keyCodec;
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
    private final RowCodec<I> inputCodec;
    private final RowCodec<O> outputCodec;
    private final int eventTimeIndex;
    private final List<BatchResult<K, I, O>> batches = new ArrayList<>();
    private final Map<Long, StreamingQueryProgress> progress = new TreeMap<>();
    private StreamingQuery streamingQuery;
    private long lastBatchWatermarkMs;
    /** The second operator of a chain, fed with this query's output; null for one operator. */
    private final LiveDownstream<?, O, ?> downstream;
    /** The query's mapGroupsWithState / flatMapGroupsWithState operator; null for transformWithState. */
    private final LiveGroupsWithState<K, I, ?, O> groupsWithState;

    /** {@code spark} is this run's own session, with the query's shuffle partitions set ({@link LiveSpark#forRun}). */
    LiveRun(TwsQuery<K, I, O> query, SparkSession spark, Duration timeout, Path checkpoint) {
        this(query, null, spark, timeout, checkpoint);
    }

    /**
     * With {@code downstream} (not null), the query is a chain: this query's output goes to the
     * downstream operator, whose output goes to the sink; this query's outputs are recorded as they
     * are emitted ({@link TaskReports}).
     */
    LiveRun(TwsQuery<K, I, O> query, LiveDownstream<?, O, ?> downstream, SparkSession spark, Duration timeout,
            Path checkpoint) {
        this.downstream = downstream;
        this.query = query;
        this.spark = spark;
        this.timeout = timeout;
        this.checkpoint = checkpoint.toString();
        this.reports = TaskReports.register(spark);
        this.groupsWithState = LiveGroupsWithState.of(query, reports);
        this.keyCodec = RowCodec.of(query.keyEncoder());
        // an operator in ProcessingTime mode asks for a batch at every trigger, so the query spins with a zero interval
        this.processingTime = query.timeMode().equals(TimeMode.ProcessingTime())
                || (downstream != null && downstream.processingTime());
        this.intervalMs = Triggers.effectiveIntervalMs(query.triggerIntervalMs(), processingTime);
        this.availableNow = Triggers.isAvailableNow(query.trigger());
        this.inputCodec = RowCodec.of(query.inputEncoder());
        this.outputCodec = RowCodec.of(query.outputEncoder());
        this.eventTimeIndex = query.eventTimeColumn().map(inputCodec::fieldIndex).orElse(-1);
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
    private void start() throws Exception {
        spark.conf().set(dev.twstester.StateEncoding.CONF, query.stateEncoding().conf());
        Dataset<?> out = downstream == null ? transformWithState() : downstream.apply(transformWithState());
        Trigger trigger = availableNow ? query.trigger() : Trigger.ProcessingTime(intervalMs);
        streamingQuery = SparkStreaming.start(spark, out, sink, trigger, clock, checkpoint,
                groupsWithState == null ? org.apache.spark.sql.streaming.OutputMode.Update() : groupsWithState.outputMode());
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

    private Dataset<O> transformWithState() {
        Dataset<I> input = stream.toDS();
        if (query.eventTimeColumn().isPresent()) {
            input = input.withWatermark(query.eventTimeColumn().get(), query.watermarkDelay().toMillis() + " milliseconds");
        }
        KeyValueGroupedDataset<K, I> grouped = input.groupByKey(query.keyFunction(), query.keyEncoder());
        if (groupsWithState != null) {
            return groupsWithState.apply(grouped, query.outputEncoder(),
                    query.initialState().map(this::initialDataset).orElse(null));
        }
        StatefulProcessor<K, I, O> processor = query.newProcessor();
        if (query.initialState().isPresent()) {
            return withInitialState(grouped, processor, query.initialState().get());
        }
        RecordingProcessor<K, I, O, Object> recording = new RecordingProcessor<>(processor, reports, query.keyEncoder(), outputEncoder());
        if (query.outputEventTimeColumn().isPresent()) {
            return grouped.transformWithState(recording, query.outputEventTimeColumn().get(), query.outputMode(),
                    query.outputEncoder());
        }
        return grouped.transformWithState(recording, query.timeMode(), query.outputMode(), query.outputEncoder());
    }

    private <S> Dataset<O> withInitialState(KeyValueGroupedDataset<K, I> grouped, StatefulProcessor<K, I, O> processor,
            TwsQuery.InitialState<K, S> init) {
        KeyValueGroupedDataset<K, S> initial = initialDataset(init);
        RecordingProcessor<K, I, O, S> recording = new RecordingProcessor<>(processor, reports, query.keyEncoder(), outputEncoder());
        if (query.outputEventTimeColumn().isPresent()) {
            return grouped.transformWithState(recording, query.outputEventTimeColumn().get(), query.outputMode(),
                    initial, query.outputEncoder(), init.encoder());
        }
        return grouped.transformWithState(recording, query.timeMode(), query.outputMode(), initial,
                query.outputEncoder(), init.encoder());
    }

    /** The initial state's rows as the batch {@code KeyValueGroupedDataset<K, S>} a job passes as {@code initialState}. */
    private <S> KeyValueGroupedDataset<K, S> initialDataset(TwsQuery.InitialState<K, S> init) {
        List<Tuple2<K, S>> rows = new ArrayList<>();
        for (Map.Entry<K, S> e : init.rows()) {
            rows.add(new Tuple2<>(e.getKey(), e.getValue()));
        }
        return spark
                .createDataset(rows, Encoders.tuple(query.keyEncoder(), init.encoder()))
                .groupByKey((MapFunction<Tuple2<K, S>, K>) Tuple2::_1, query.keyEncoder())
                .mapValues((MapFunction<Tuple2<K, S>, S>) Tuple2::_2, init.encoder());
    }

    /** The encoder this query's emitted rows are reported with: in a chain only (else null). */
    private org.apache.spark.sql.Encoder<O> outputEncoder() {
        return downstream == null ? null : query.outputEncoder();
    }

    void step(Scenario.Step<I> step) {
        try {
            if (step instanceof Scenario.Input<I> input) {
                input(input);
            } else if (step instanceof Scenario.AddData<I> add) {
                addData(add.rows());
                if (running && intervalMs == 0) {
                    streamingQuery.processAllAvailable();
                }
            } else if (step instanceof Scenario.Tick<I> tick) {
                moveClock(tick.to().toEpochMilli());
            } else if (step instanceof Scenario.Stop<I>) {
                if (!availableNow) {
                    requireRunning();
                    streamingQuery.stop();
                    running = false;
                }
            } else if (running) {
                throw new IllegalStateException("the query is already running; a Start step needs a Stop before it");
            } else {
                start();
            }
            collect();
        } catch (LiveRunException e) {
            throw e;
        } catch (Exception e) {
            try {
                collect(); // the batches that completed before the failure
            } catch (RuntimeException secondary) {
                e.addSuppressed(secondary);
            }
            throw new LiveRunException("live Spark run failed at batch " + nextBatchId() + ": " + e.getMessage(), e, batches);
        }
    }

    /**
     * Stops the running query (if it runs) and starts {@code next}, a new version of it, on the same
     * checkpoint, source, sink and clock, as a deploy of a new processor version does. {@code next}
     * must read the same source the same way: the same key, input and output encoders, watermark
     * and trigger. Spark checks the new version against the checkpoint when it plans the first batch
     * of the new run, so an incompatible version fails then, not here.
     */
    void restartWith(TwsQuery<K, I, O> next) {
        if (downstream != null) {
            throw new UnsupportedOperationException("a chain cannot restart with another query version");
        }
        String difference = sourceDifference(query, next);
        if (difference != null) {
            throw new IllegalArgumentException("the new version " + difference + "; a new version may change the "
                    + "processor, its time mode, output mode, initial state and state encoding, not how the source is read");
        }
        try {
            if (running) {
                streamingQuery.stop();
                running = false;
                collect();
            }
            query = next;
            start();
            collect();
        } catch (Exception e) {
            try {
                collect();
            } catch (RuntimeException secondary) {
                e.addSuppressed(secondary);
            }
            throw new LiveRunException("live Spark run failed at batch " + nextBatchId() + " after the restart with "
                    + "the new version: " + e.getMessage(), e, batches);
        }
    }

    /** What differs between two versions in how they read the source, or null. */
    private String sourceDifference(TwsQuery<K, I, O> a, TwsQuery<K, I, O> b) {
        if (!a.keyEncoder().equals(b.keyEncoder())) {
            return "has another key encoder (" + b.keyEncoder() + " instead of " + a.keyEncoder() + ")";
        }
        if (!a.inputEncoder().equals(b.inputEncoder()) || !a.outputEncoder().equals(b.outputEncoder())) {
            return "has other input or output encoders";
        }
        if (!a.eventTimeColumn().equals(b.eventTimeColumn()) || !a.watermarkDelay().equals(b.watermarkDelay())) {
            return "has another watermark";
        }
        boolean bProcessingTime = b.timeMode().equals(TimeMode.ProcessingTime());
        if (Triggers.effectiveIntervalMs(b.triggerIntervalMs(), bProcessingTime) != intervalMs
                || Triggers.isAvailableNow(b.trigger()) != availableNow) {
            return "has another trigger interval";
        }
        return null;
    }

    /** A batch at the trigger at {@code at}, or the next trigger: rows added, then the clock moved there. */
    private void input(Scenario.Input<I> input) throws Exception {
        long now = clock.getTimeMillis();
        if (availableNow) {
            if (input.at() != null) {
                requireForward(input.at().toEpochMilli(), now);
                clock.setTime(input.at().toEpochMilli());
            }
            addData(input.rows());
            start(); // each batch of an AvailableNow query is a run of its own
            return;
        }
        requireRunning();
        if (intervalMs == 0) {
            if (input.at() != null) {
                requireForward(input.at().toEpochMilli(), now);
                clock.setTime(input.at().toEpochMilli());
            }
            addData(input.rows());
            streamingQuery.processAllAvailable();
            return;
        }
        if (input.at() == null && processingTime && query.triggerIntervalMs() == 0) {
            throw new IllegalArgumentException("in ProcessingTime mode with a zero trigger interval live Spark runs a "
                    + "batch only on a clock move: give each input a processing time later than the previous step "
                    + "(Scenario.Builder.batchAt), not the current clock " + Instant.ofEpochMilli(now));
        }
        long at = input.at() == null ? nextTriggerMs : input.at().toEpochMilli();
        requireForward(at, now);
        if (at < nextTriggerMs) {
            throw new IllegalArgumentException("no trigger runs at " + Instant.ofEpochMilli(at) + ": with a trigger "
                    + "interval of " + intervalMs + " ms the next one runs at " + Instant.ofEpochMilli(nextTriggerMs));
        }
        addData(input.rows());
        clock.setTime(at);
        runTriggerDue(at);
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
                if (readSource(p)) {
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

    private BatchResult<K, I, O> batch(StreamingQueryProgress p, List<I> rows) {
        long id = p.batchId();
        List<I> input = rows == null ? List.of() : rows;
        if (p.numInputRows() != input.size()) {
            throw new IllegalStateException("Spark's batch " + id + " read " + p.numInputRows() + " rows, the step gave "
                    + input.size() + ": the memory source folded or split input");
        }
        long[] times = SparkStreaming.batchTimes(streamingQuery, id);
        long evictionMs = times[1];
        long lateMs = lastBatchWatermarkMs;
        lastBatchWatermarkMs = evictionMs;
        List<I> dropped = dropped(input, lateMs, droppedCount(p), id);
        List<O> outputs = downstream == null ? outputs(id) : reports.emittedIn(id).stream().map(outputCodec::decode).toList();
        if (downstream != null) {
            downstream.batch(p, rows != null, outputs, lateMs, evictionMs, times[0], sink);
        }
        List<FiredTimer<K>> fired = new ArrayList<>();
        for (TaskReports.Fired f : groupsWithState != null ? groupsWithState.firedIn(id) : reports.firedIn(id)) {
            fired.add(new FiredTimer<>(keyCodec.decode(f.key()), Instant.ofEpochMilli(f.expiryMs())));
        }
        return new BatchResult<>(id, rows != null, input, dropped, Instant.ofEpochMilli(lateMs),
                Instant.ofEpochMilli(evictionMs), Instant.ofEpochMilli(times[0]), outputs, fired, metrics(p),
                downstream == null ? outputPartitions(id, outputs.size()) : List.of());
    }

    /** This query's operator's metrics (in a chain, the upstream's entry of the progress). */
    private Map<String, Long> metrics(StreamingQueryProgress p) {
        int index = downstream == null ? 0 : LiveDownstream.UPSTREAM_PROGRESS_INDEX;
        return p.stateOperators().length <= index ? new HashMap<>() : metrics(p.stateOperators()[index]);
    }

    /**
     * The {@link BatchResult#METRIC_NAMES} of a transformWithState operator's progress: its custom
     * metrics, plus the state row counts and late rows of {@link StateOperatorProgress} under the
     * names of the operator's SQL metrics.
     */
    static Map<String, Long> metrics(StateOperatorProgress op) {
        Map<String, Long> metrics = new HashMap<>();
        for (String name : BatchResult.METRIC_NAMES) {
            Long custom = op.customMetrics().get(name);
            if (custom != null) {
                metrics.put(name, custom);
            }
        }
        metrics.put("numUpdatedStateRows", op.numRowsUpdated());
        metrics.put("numRemovedStateRows", op.numRowsRemoved());
        metrics.put("numRowsDroppedByWatermark", op.numRowsDroppedByWatermark());
        return metrics;
    }

    private List<O> outputs(long batchId) {
        return SparkStreaming.rowsOfBatch(sink, batchId, outputCodec);
    }

    /**
     * The partition of each of the batch's {@code rows} sink rows: the sink holds partition 0's rows,
     * then partition 1's, ..., so the rows each partition's task emitted cut them. Empty when no task
     * reported.
     */
    private List<Integer> outputPartitions(long batchId, int rows) {
        List<Integer> counts = reports.countsIn(batchId);
        if (counts.isEmpty()) {
            return List.of();
        }
        long emitted = counts.stream().mapToLong(Integer::longValue).sum();
        if (emitted != rows) {
            throw new IllegalStateException("the processor's tasks emitted " + emitted + " rows in batch " + batchId
                    + " (by partition " + counts + ") but the sink received " + rows);
        }
        return ContiguousPartitions.ofCounts(counts);
    }

    /** Late rows this query's operator dropped (in a chain, the upstream's; the downstream checks its own). */
    private long droppedCount(StreamingQueryProgress p) {
        if (downstream != null) {
            return p.stateOperators()[LiveDownstream.UPSTREAM_PROGRESS_INDEX].numRowsDroppedByWatermark();
        }
        long n = 0;
        for (var op : p.stateOperators()) {
            n += op.numRowsDroppedByWatermark();
        }
        return n;
    }

    /** Which rows Spark dropped: those at or before the late watermark, checked against Spark's count. */
    private List<I> dropped(List<I> input, long lateMs, long sparkCount, long batchId) {
        List<I> dropped = new ArrayList<>();
        if (eventTimeIndex >= 0 && query.timeMode().equals(TimeMode.EventTime())) {
            for (I row : input) {
                UnsafeRow r = inputCodec.row(inputCodec.encode(row));
                if (!r.isNullAt(eventTimeIndex) && r.getLong(eventTimeIndex) <= lateMs * 1000L) {
                    dropped.add(row);
                }
            }
        }
        if (dropped.size() != sparkCount) {
            throw new IllegalStateException("Spark dropped " + sparkCount + " late rows in batch " + batchId + " but "
                    + dropped.size() + " rows are at or before its late watermark " + Instant.ofEpochMilli(lateMs));
        }
        return dropped;
    }

    RunResult<K, I, O> result() {
        return new RunResult<>(batches);
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
