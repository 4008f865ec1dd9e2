package dev.twstester.spark;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.KeyValueGroupedDataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.streaming.StateOperatorProgress;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.TwsQuery;
import dev.twstester.ValueMapping;
import dev.twstester.internal.ContiguousPartitions;
import dev.twstester.internal.RowCodec;

import scala.Tuple2;

/**
 * One stateful operator of a live query, operator {@code index} of {@code count} in plan order: how
 * it is applied to the Dataset before it (the first to the watermarked source, the others to the
 * previous operator's output, regrouped by their own key), and its view of each batch: the rows it
 * received, the late rows it dropped, its outputs (every operator but the last reports the rows it
 * emits through its {@link TaskReports}; the last's are the sink's), its fired timers and its own
 * entry of the query progress's state operators, which Spark lists from the sink back to the source.
 *
 * @param <K> the operator's grouping key type
 * @param <I> the rows it receives
 * @param <O> the rows it emits
 */
final class LiveOperator<K, I, O> {
    /** The running version of the operator: {@link #restartWith} replaces it. */
    private TwsQuery<K, I, O> query;
    private final int index;
    private final int count;
    private final SparkSession spark;
    /** What this operator's tasks report (fired timers, emitted rows, each partition's row count). */
    private final TaskReports reports;
    /** The operator's mapGroupsWithState / flatMapGroupsWithState side; null for transformWithState. */
    private LiveGroupsWithState<K, I, ?, O> groupsWithState;
    private final RowCodec<K> keyCodec;
    private final RowCodec<I> inputCodec;
    private final RowCodec<O> outputCodec;
    /** The input column Spark's late-row filter reads, or -1. */
    private final int lateColumnIndex;
    /** Whether the query's watermark reaches the operator (else Spark gives it 0, as the simulator models). */
    private final boolean queryWatermark;

    /**
     * {@code lateColumn}: the input's event-time column, the first operator's watermark column or
     * the previous operator's output event-time column (null: none); {@code queryWatermark}: whether
     * the query's watermark reaches it.
     */
    LiveOperator(TwsQuery<K, I, O> query, int index, int count, String lateColumn, boolean queryWatermark,
            SparkSession spark) {
        this.queryWatermark = queryWatermark;
        this.query = query;
        this.index = index;
        this.count = count;
        this.spark = spark;
        this.reports = TaskReports.register(spark);
        this.groupsWithState = LiveGroupsWithState.of(query, reports);
        this.keyCodec = RowCodec.of(query.keyEncoder());
        this.inputCodec = RowCodec.of(query.inputEncoder());
        this.outputCodec = RowCodec.of(query.outputEncoder());
        // mapValues projects the event-time column away: Spark's operator then filters no late rows
        this.lateColumnIndex = lateColumn == null || query.valueMapping().isPresent() ? -1
                : inputCodec.fieldIndex(lateColumn);
    }

    /** Every operator of {@code query}, in plan order, each reading the previous one's output event-time column. */
    static List<LiveOperator<?, ?, ?>> of(TwsQuery<?, ?, ?> query, SparkSession spark) {
        List<TwsQuery<?, ?, ?>> all = query.operators();
        List<LiveOperator<?, ?, ?>> operators = new ArrayList<>(all.size());
        String lateColumn = query.eventTimeColumn().orElse(null);
        boolean queryWatermark = true;
        for (int i = 0; i < all.size(); i++) {
            operators.add(create(all.get(i), i, all.size(), lateColumn, queryWatermark, spark));
            lateColumn = all.get(i).outputEventTimeColumn().orElse(null);
            queryWatermark = queryWatermark && passesWatermarkOn(all.get(i));
        }
        return operators;
    }

    /** Spark's {@code produceOutputWatermark}: a transformWithState outside ProcessingTime mode passes its watermark on. */
    private static boolean passesWatermarkOn(TwsQuery<?, ?, ?> op) {
        return op.groupsWithState().isEmpty() && !op.timeMode().equals(TimeMode.ProcessingTime());
    }

    private static <K, I, O> LiveOperator<K, I, O> create(TwsQuery<K, I, O> query, int index, int count,
            String lateColumn, boolean queryWatermark, SparkSession spark) {
        return new LiveOperator<>(query, index, count, lateColumn, queryWatermark, spark);
    }

    /** Whether the operator runs in ProcessingTime mode (it then asks for a batch at every trigger). */
    boolean processingTime() {
        return query.timeMode().equals(TimeMode.ProcessingTime());
    }

    /**
     * The query's output mode: Spark requires a legacy function's own (they agree when there are
     * several, {@code TwsQuery#then}), and {@code Update()} without one.
     */
    static org.apache.spark.sql.streaming.OutputMode queryOutputMode(List<LiveOperator<?, ?, ?>> operators) {
        for (LiveOperator<?, ?, ?> op : operators) {
            if (op.groupsWithState != null) {
                return op.groupsWithState.outputMode();
            }
        }
        return org.apache.spark.sql.streaming.OutputMode.Update();
    }

    /** A new version of this operator, run from the next start on ({@link LiveRun#restartWith}). */
    @SuppressWarnings("unchecked")
    void restartWith(TwsQuery<?, ?, ?> next) {
        this.query = (TwsQuery<K, I, O>) next;
        groupsWithState = groupsWithState != null && query.groupsWithState().isPresent()
                ? groupsWithState.withFunctionOf(query) : LiveGroupsWithState.of(query, reports);
    }

    /**
     * {@code groupByKey(...)} and the operator on {@code input}, with a new processor instance (the
     * first operator adds its {@code withWatermark} and initial state), as the user's job would call
     * it. An operator before the last records the rows it emits.
     */
    Dataset<O> apply(Dataset<I> input) {
        if (index == 0 && query.eventTimeColumn().isPresent()) {
            input = input.withWatermark(query.eventTimeColumn().get(), query.watermarkDelay().toMillis() + " milliseconds");
        }
        KeyValueGroupedDataset<K, I> grouped = input.groupByKey(query.keyFunction(), query.keyEncoder());
        if (groupsWithState != null) {
            return groupsWithState.apply(grouped, query.outputEncoder(),
                    query.initialState().map(this::initialDataset).orElse(null), recordedRows());
        }
        if (query.valueMapping().isPresent()) {
            return mapped(grouped, query.valueMapping().get());
        }
        return transform(grouped, query.newProcessor());
    }

    /** {@code grouped.mapValues(...)} and the user's processor on the mapped values. */
    private <V> Dataset<O> mapped(KeyValueGroupedDataset<K, I> grouped, ValueMapping<K, I, V, O> mapping) {
        return transform(grouped.mapValues(mapping.function(), mapping.encoder()), mapping.newProcessor());
    }

    /** {@code transformWithState} of {@code processor} on {@code grouped}, in the overload the query uses. */
    private <V> Dataset<O> transform(KeyValueGroupedDataset<K, V> grouped, StatefulProcessor<K, V, O> processor) {
        if (query.initialState().isPresent()) {
            return withInitialState(grouped, processor, query.initialState().get());
        }
        RecordingProcessor<K, V, O, Object> recording = new RecordingProcessor<>(processor, reports, query.keyEncoder(),
                recordedRows());
        if (query.outputEventTimeColumn().isPresent()) {
            return grouped.transformWithState(recording, query.outputEventTimeColumn().get(), query.outputMode(),
                    query.outputEncoder());
        }
        return grouped.transformWithState(recording, query.timeMode(), query.outputMode(), query.outputEncoder());
    }

    private <V, S> Dataset<O> withInitialState(KeyValueGroupedDataset<K, V> grouped, StatefulProcessor<K, V, O> processor,
            TwsQuery.InitialState<K, S> init) {
        KeyValueGroupedDataset<K, S> initial = initialDataset(init);
        RecordingProcessor<K, V, O, S> recording = new RecordingProcessor<>(processor, reports, query.keyEncoder(),
                recordedRows());
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

    /** The encoder the emitted rows are reported with: for every operator but the last (else null: the sink has them). */
    private Encoder<O> recordedRows() {
        return index < count - 1 ? query.outputEncoder() : null;
    }

    /** The rows this operator (not the last) emitted in batch {@code batchId}, with each one's partition. */
    Emitted<O> emitted(long batchId) {
        List<O> rows = new ArrayList<>();
        Map<Integer, Integer> perPartition = new TreeMap<>();
        for (TaskReports.Report r : reports.emittedIn(batchId)) {
            rows.add(outputCodec.decode(r.bytes()));
            perPartition.merge(r.partition(), 1, Integer::sum);
        }
        List<Integer> counts = new ArrayList<>();
        perPartition.forEach((partition, n) -> {
            while (counts.size() < partition) {
                counts.add(0);
            }
            counts.add(n);
        });
        return new Emitted<>(rows, ContiguousPartitions.ofCounts(counts));
    }

    /** Rows an operator emitted in one batch and the partition of each. */
    record Emitted<O>(List<O> rows, List<Integer> partitions) {}

    /**
     * The sink's {@code rows} rows of batch {@code batchId}, the last operator's outputs: each one's
     * partition, as the rows each partition's task emitted cut them (the sink holds partition 0's,
     * then partition 1's, ...). Empty when no task reported.
     */
    List<Integer> sinkPartitions(long batchId, int rows) {
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

    /**
     * This operator's view of batch {@code p}: {@code received} (the source's rows, or the previous
     * operator's outputs), its {@code outputs} with their {@code partitions}, the batch's time and the
     * query's watermarks ({@code times}), or 0 for an operator they do not reach. Call once per batch,
     * in batch order.
     */
    BatchResult<K, I, O> view(StreamingQueryProgress p, boolean hadInput, List<I> received, BatchTimes query,
            List<O> outputs, List<Integer> partitions) {
        long id = p.batchId();
        BatchTimes times = queryWatermark ? query : new BatchTimes(query.timestampMs(), 0, 0);
        StateOperatorProgress progress = progress(p);
        List<I> dropped = dropped(received, times.lateMs(), progress == null ? 0 : progress.numRowsDroppedByWatermark(), id);
        List<FiredTimer<K>> fired = new ArrayList<>();
        for (TaskReports.Fired f : groupsWithState != null ? groupsWithState.firedIn(id) : reports.firedIn(id)) {
            fired.add(new FiredTimer<>(keyCodec.decode(f.key()), Instant.ofEpochMilli(f.expiryMs())));
        }
        return new BatchResult<>(id, hadInput, received, dropped, Instant.ofEpochMilli(times.lateMs()),
                Instant.ofEpochMilli(times.evictionMs()), Instant.ofEpochMilli(times.timestampMs()), outputs, fired,
                progress == null ? new HashMap<>() : metrics(progress), partitions);
    }

    /** The batch's timestamp and the query's two watermarks. */
    record BatchTimes(long timestampMs, long lateMs, long evictionMs) {}

    /** This operator's entry of the progress: Spark lists the stateful operators sink first. */
    private StateOperatorProgress progress(StreamingQueryProgress p) {
        int at = count - 1 - index;
        return p.stateOperators().length <= at ? null : p.stateOperators()[at];
    }

    /**
     * The {@link BatchResult#METRIC_NAMES} of an operator's progress: its custom metrics, plus the
     * state row counts and late rows of {@link StateOperatorProgress} under the names of the
     * operator's SQL metrics.
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

    /** Which rows Spark's late-row filter dropped (EventTime mode only), checked against Spark's count. */
    private List<I> dropped(List<I> input, long lateMs, long sparkCount, long batchId) {
        List<I> dropped = new ArrayList<>();
        if (lateColumnIndex >= 0 && query.timeMode().equals(TimeMode.EventTime())) {
            for (I row : input) {
                UnsafeRow r = inputCodec.row(inputCodec.encode(row));
                if (!r.isNullAt(lateColumnIndex) && r.getLong(lateColumnIndex) <= lateMs * 1000L) {
                    dropped.add(row);
                }
            }
        }
        if (dropped.size() != sparkCount) {
            throw new IllegalStateException("Spark's " + describe() + " dropped " + sparkCount + " late rows in batch "
                    + batchId + " but " + dropped.size() + " of its input rows are at or before the late watermark "
                    + Instant.ofEpochMilli(lateMs));
        }
        return dropped;
    }

    /** How messages name the operator: "operator" alone in a query of one. */
    private String describe() {
        return count == 1 ? "operator" : "operator " + index + " (" + query.userClass().getSimpleName() + ")";
    }

    /** The sink's rows of batch {@code batchId}, decoded as this (the last) operator's outputs. */
    List<O> sinkRows(org.apache.spark.sql.execution.streaming.sources.MemorySink sink, long batchId) {
        return SparkStreaming.rowsOfBatch(sink, batchId, outputCodec);
    }
}
