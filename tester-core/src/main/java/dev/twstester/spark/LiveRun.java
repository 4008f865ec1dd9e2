package dev.twstester.spark;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.internal.RowCodec;

import scala.Tuple2;

/** One live streaming query, stepped through a scenario. */
final class LiveRun<K, I, O> implements AutoCloseable {
    private final TwsQuery<K, I, O> query;
    private final Duration timeout;
    private final String runId;
    private final boolean processingTime;
    private final MemoryStream<I> stream;
    private final MemorySink sink = SparkStreaming.memorySink();
    private final SparkStreaming.StepClock clock = new SparkStreaming.StepClock(0L);
    private final StreamingQuery streamingQuery;
    private final RowCodec<I> inputCodec;
    private final RowCodec<O> outputCodec;
    private final int eventTimeIndex;
    private final List<BatchResult<K, I, O>> batches = new ArrayList<>();
    private final Map<Long, StreamingQueryProgress> progress = new TreeMap<>();
    private long lastBatchWatermarkMs;

    LiveRun(TwsQuery<K, I, O> query, SparkSession spark, int partitions, Duration timeout, Path checkpoint, String runId) {
        this.query = query;
        this.timeout = timeout;
        this.runId = runId;
        this.processingTime = query.timeMode().equals(TimeMode.ProcessingTime());
        this.inputCodec = RowCodec.of(query.inputEncoder());
        this.outputCodec = RowCodec.of(query.outputEncoder());
        this.eventTimeIndex = query.eventTimeColumn().map(inputCodec::fieldIndex).orElse(-1);
        spark.conf().set("spark.sql.shuffle.partitions", String.valueOf(partitions));
        this.stream = SparkStreaming.memoryStream(query.inputEncoder(), spark);
        Dataset<O> out = transformWithState(spark);
        try {
            this.streamingQuery = SparkStreaming.start(spark, out, sink, processingTime ? 1 : 0, clock,
                    checkpoint.toString());
            if (processingTime) {
                awaitWaitingAt(0);
            }
        } catch (Exception e) {
            throw new LiveRunException("could not start the streaming query: " + e, e, List.of());
        }
    }

    private Dataset<O> transformWithState(SparkSession spark) {
        Dataset<I> input = stream.toDS();
        if (query.eventTimeColumn().isPresent()) {
            input = input.withWatermark(query.eventTimeColumn().get(), query.watermarkDelay().toMillis() + " milliseconds");
        }
        KeyValueGroupedDataset<K, I> grouped = input.groupByKey(query.keyFunction(), query.keyEncoder());
        StatefulProcessor<K, I, O> processor = query.newProcessor();
        if (query.initialState().isPresent()) {
            return withInitialState(spark, grouped, processor, query.initialState().get());
        }
        return grouped.transformWithState(new RecordingProcessor<>(processor, runId), query.timeMode(),
                query.outputMode(), query.outputEncoder());
    }

    private <S> Dataset<O> withInitialState(SparkSession spark, KeyValueGroupedDataset<K, I> grouped,
            StatefulProcessor<K, I, O> processor, TwsQuery.InitialState<K, S> init) {
        List<Tuple2<K, S>> rows = new ArrayList<>();
        for (Map.Entry<K, S> e : init.rows()) {
            rows.add(new Tuple2<>(e.getKey(), e.getValue()));
        }
        KeyValueGroupedDataset<K, S> initial = spark
                .createDataset(rows, Encoders.tuple(query.keyEncoder(), init.encoder()))
                .groupByKey((MapFunction<Tuple2<K, S>, K>) Tuple2::_1, query.keyEncoder())
                .mapValues((MapFunction<Tuple2<K, S>, S>) Tuple2::_2, init.encoder());
        RecordingProcessor<K, I, O, S> recording = new RecordingProcessor<>(processor, runId);
        return grouped.transformWithState(recording, query.timeMode(), query.outputMode(), initial,
                query.outputEncoder(), init.encoder());
    }

    void step(Scenario.Step<I> step) {
        try {
            if (step instanceof Scenario.Input<I> input) {
                input(input);
            } else {
                tick(((Scenario.Tick<I>) step).to().toEpochMilli());
            }
        } catch (LiveRunException e) {
            throw e;
        } catch (Exception e) {
            collect(null);
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

    private static void requireForward(long to, long now) {
        if (to < now) {
            throw new IllegalArgumentException("processing time " + Instant.ofEpochMilli(to) + " is before the clock "
                    + Instant.ofEpochMilli(now) + "; processing time never moves backwards");
        }
    }

    private void awaitWaitingAt(long timeMs) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!clock.isStreamWaitingAt(timeMs)) {
            if (!streamingQuery.isActive()) {
                streamingQuery.awaitTermination();
                throw new IllegalStateException("the streaming query stopped");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no batch finished at processing time " + Instant.ofEpochMilli(timeMs)
                        + " within " + timeout + "; raise LiveRunner.stepTimeout(...)");
            }
            Thread.sleep(5);
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
        return new BatchResult<>(id, rows != null, input, dropped, Instant.ofEpochMilli(lateMs),
                Instant.ofEpochMilli(evictionMs), Instant.ofEpochMilli(times[0]), outputs(id), fired);
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
        try {
            streamingQuery.stop();
        } catch (Exception e) {
            // stopping a failed query can throw again; the failure was already reported
        }
    }

}
