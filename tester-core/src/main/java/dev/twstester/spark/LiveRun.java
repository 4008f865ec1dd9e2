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
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.streaming.runtime.MemoryStream;
import org.apache.spark.sql.execution.streaming.sources.MemorySink;
import org.apache.spark.sql.streaming.StateOperatorProgress;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.internal.ContiguousPartitions;
import dev.twstester.internal.RowCodec;

import scala.Tuple2;

/**
 * One live streaming query, stepped through a scenario. A {@link Scenario.Restart} stops it and
 * starts a new query on the same checkpoint, source, sink and trigger clock, so Spark resumes from
 * its checkpoint; the batches of every query run go into one result.
 */
final class LiveRun<K, I, O> implements AutoCloseable {
    private final TwsQuery<K, I, O> query;
    private final SparkSession spark;
    private final Duration timeout;
    private final String checkpoint;
    private final String runId;
    private final boolean processingTime;
    private final MemoryStream<I> stream;
    private final MemorySink sink = SparkStreaming.memorySink();
    private final SparkStreaming.StepClock clock = new SparkStreaming.StepClock(0L);
    private final RowCodec<I> inputCodec;
    private final RowCodec<O> outputCodec;
    private final int eventTimeIndex;
    private final List<BatchResult<K, I, O>> batches = new ArrayList<>();
    private final Map<Long, StreamingQueryProgress> progress = new TreeMap<>();
    private StreamingQuery streamingQuery;
    private long lastBatchWatermarkMs;

    /** {@code spark} is this run's own session, with the query's shuffle partitions set ({@link LiveSpark#forRun}). */
    LiveRun(TwsQuery<K, I, O> query, SparkSession spark, Duration timeout, Path checkpoint, String runId) {
        this.query = query;
        this.spark = spark;
        this.timeout = timeout;
        this.checkpoint = checkpoint.toString();
        this.runId = runId;
        this.processingTime = query.timeMode().equals(TimeMode.ProcessingTime());
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
     * init/close pass runs on a fresh one, as after a real restart). In ProcessingTime mode waits
     * until the trigger idles at the current clock time: no batch runs before the run's first data.
     */
    private void start() throws Exception {
        Dataset<O> out = transformWithState();
        streamingQuery = SparkStreaming.start(spark, out, sink, processingTime ? 1 : 0, clock, checkpoint);
        if (processingTime) {
            awaitWaitingAt(clock.getTimeMillis());
        }
    }

    private Dataset<O> transformWithState() {
        Dataset<I> input = stream.toDS();
        if (query.eventTimeColumn().isPresent()) {
            input = input.withWatermark(query.eventTimeColumn().get(), query.watermarkDelay().toMillis() + " milliseconds");
        }
        KeyValueGroupedDataset<K, I> grouped = input.groupByKey(query.keyFunction(), query.keyEncoder());
        StatefulProcessor<K, I, O> processor = query.newProcessor();
        if (query.initialState().isPresent()) {
            return withInitialState(grouped, processor, query.initialState().get());
        }
        RecordingProcessor<K, I, O, Object> recording = new RecordingProcessor<>(processor, runId);
        if (query.outputEventTimeColumn().isPresent()) {
            return grouped.transformWithState(recording, query.outputEventTimeColumn().get(), query.outputMode(),
                    query.outputEncoder());
        }
        return grouped.transformWithState(recording, query.timeMode(), query.outputMode(), query.outputEncoder());
    }

    private <S> Dataset<O> withInitialState(KeyValueGroupedDataset<K, I> grouped, StatefulProcessor<K, I, O> processor,
            TwsQuery.InitialState<K, S> init) {
        List<Tuple2<K, S>> rows = new ArrayList<>();
        for (Map.Entry<K, S> e : init.rows()) {
            rows.add(new Tuple2<>(e.getKey(), e.getValue()));
        }
        KeyValueGroupedDataset<K, S> initial = spark
                .createDataset(rows, Encoders.tuple(query.keyEncoder(), init.encoder()))
                .groupByKey((MapFunction<Tuple2<K, S>, K>) Tuple2::_1, query.keyEncoder())
                .mapValues((MapFunction<Tuple2<K, S>, S>) Tuple2::_2, init.encoder());
        RecordingProcessor<K, I, O, S> recording = new RecordingProcessor<>(processor, runId);
        if (query.outputEventTimeColumn().isPresent()) {
            return grouped.transformWithState(recording, query.outputEventTimeColumn().get(), query.outputMode(),
                    initial, query.outputEncoder(), init.encoder());
        }
        return grouped.transformWithState(recording, query.timeMode(), query.outputMode(), initial,
                query.outputEncoder(), init.encoder());
    }

    void step(Scenario.Step<I> step) {
        try {
            if (step instanceof Scenario.Input<I> input) {
                input(input);
            } else if (step instanceof Scenario.Tick<I> tick) {
                tick(tick.to().toEpochMilli());
            } else {
                restart();
            }
        } catch (LiveRunException e) {
            throw e;
        } catch (Exception e) {
            try {
                // the batches that completed before the failure; an input step's rows belong to its first batch
                collect(step instanceof Scenario.Input<I> input ? input.rows() : null);
            } catch (RuntimeException secondary) {
                e.addSuppressed(secondary);
            }
            throw new LiveRunException("live Spark run failed at batch " + nextBatchId() + ": " + e.getMessage(), e, batches);
        }
    }

    private void input(Scenario.Input<I> input) throws Exception {
        long now = clock.getTimeMillis();
        if (processingTime) {
            if (input.at() == null || input.at().toEpochMilli() <= now) {
                throw new IllegalArgumentException("in ProcessingTime mode live Spark runs a batch only on a clock tick: "
                        + "give each input a processing time later than the previous step (Scenario.Builder.batchAt), "
                        + "not " + input.at() + " at clock " + Instant.ofEpochMilli(now));
            }
            SparkStreaming.addData(stream, input.rows());
            clock.setTime(input.at().toEpochMilli());
            awaitWaitingAt(input.at().toEpochMilli());
        } else {
            if (input.at() != null) {
                requireForward(input.at().toEpochMilli(), now);
                clock.setTime(input.at().toEpochMilli());
            }
            SparkStreaming.addData(stream, input.rows());
            streamingQuery.processAllAvailable();
        }
        collect(input.rows());
    }

    private void tick(long to) throws Exception {
        requireForward(to, clock.getTimeMillis());
        clock.setTime(to);
        if (processingTime) {
            awaitWaitingAt(to);
            collect(null);
        }
    }

    /**
     * Stops the query (every batch of the steps before has finished and committed) and starts a
     * new one from the checkpoint. The stopped query's progress was read by the step that ran it.
     */
    private void restart() throws Exception {
        streamingQuery.stop();
        start();
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

    /** Reads the batches that ran since the last step; the first one of an input step had its rows. */
    private void collect(List<I> rows) {
        for (StreamingQueryProgress p : streamingQuery.recentProgress()) {
            if (p.durationMs().containsKey("addBatch")) {
                progress.putIfAbsent(p.batchId(), p);
            }
        }
        List<I> pending = rows;
        for (Map.Entry<Long, StreamingQueryProgress> e : progress.entrySet()) {
            if (e.getKey() >= nextBatchId()) {
                batches.add(batch(e.getValue(), pending));
                pending = null;
            }
        }
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
        List<FiredTimer<K>> fired = new ArrayList<>();
        for (TimerRecorder.Fired f : TimerRecorder.firedIn(runId, id)) {
            @SuppressWarnings("unchecked")
            K key = (K) f.key();
            fired.add(new FiredTimer<>(key, Instant.ofEpochMilli(f.expiryMs())));
        }
        List<O> outputs = outputs(id);
        return new BatchResult<>(id, rows != null, input, dropped, Instant.ofEpochMilli(lateMs),
                Instant.ofEpochMilli(evictionMs), Instant.ofEpochMilli(times[0]), outputs, fired, metrics(p),
                outputPartitions(id, outputs.size()));
    }

    /**
     * The {@link BatchResult#METRIC_NAMES} of the transformWithState operator's progress (the
     * query's only stateful operator): its custom metrics, plus the state row counts and late rows
     * of {@link StateOperatorProgress} under the names of the operator's SQL metrics.
     */
    private static Map<String, Long> metrics(StreamingQueryProgress p) {
        Map<String, Long> metrics = new HashMap<>();
        if (p.stateOperators().length == 0) {
            return metrics;
        }
        StateOperatorProgress op = p.stateOperators()[0];
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
        List<Row> since = SparkStreaming.sinceBatch(sink, batchId - 1);
        int count = since.size() - SparkStreaming.sinceBatch(sink, batchId).size();
        List<O> out = new ArrayList<>(count);
        for (Row row : since.subList(0, count)) {
            out.add(outputCodec.fromExternalRow(row));
        }
        return out;
    }

    /**
     * The partition of each of the batch's {@code rows} sink rows: the sink holds partition 0's rows,
     * then partition 1's, ..., so the rows each partition's task emitted cut them. Empty when no task
     * reported (a remote cluster's executors run in other JVMs).
     */
    private List<Integer> outputPartitions(long batchId, int rows) {
        List<Integer> counts = OutputRecorder.countsIn(runId, batchId);
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

    private static long droppedCount(StreamingQueryProgress p) {
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
