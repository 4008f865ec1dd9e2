package dev.twstester.spark;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.streaming.sources.MemorySink;
import org.apache.spark.sql.streaming.StateOperatorProgress;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.internal.RowCodec;

/**
 * The downstream operator of a live chain: it regroups the upstream's Dataset by its key and
 * applies its {@code transformWithState}, and reads each batch as that operator saw it: the
 * upstream's emitted rows as input, the sink's rows as outputs, its own timer callbacks and its own
 * entry of the query progress's state operators.
 */
final class LiveDownstream<K2, M, O> {
    /**
     * The downstream's index in {@link StreamingQueryProgress#stateOperators()}: Spark lists the
     * stateful operators of the executed plan in pre-order, the operator nearest the sink first.
     */
    static final int PROGRESS_INDEX = 0;
    /** The upstream's index there. */
    static final int UPSTREAM_PROGRESS_INDEX = 1;

    private final TwsQuery<K2, M, O> query;
    private final TaskReports reports;
    private final RowCodec<K2> keyCodec;
    private final RowCodec<M> inputCodec;
    private final RowCodec<O> outputCodec;
    private final int eventTimeIndex;
    private final List<BatchResult<K2, M, O>> batches = new ArrayList<>();

    /** {@code eventTimeColumn}: the upstream's {@code eventTimeColumnName}, the downstream's late-filter column. */
    LiveDownstream(TwsQuery<K2, M, O> query, String eventTimeColumn, SparkSession spark) {
        this.query = query;
        this.reports = TaskReports.register(spark);
        this.keyCodec = RowCodec.of(query.keyEncoder());
        this.inputCodec = RowCodec.of(query.inputEncoder());
        this.outputCodec = RowCodec.of(query.outputEncoder());
        this.eventTimeIndex = inputCodec.fieldIndex(eventTimeColumn);
    }

    /** Whether the downstream runs in ProcessingTime mode (it then asks for a batch at every trigger). */
    boolean processingTime() {
        return query.timeMode().equals(TimeMode.ProcessingTime());
    }

    /** {@code groupByKey(...).transformWithState(...)} on the upstream's output, with a new processor. */
    Dataset<O> apply(Dataset<M> upstream) {
        RecordingProcessor<K2, M, O, Object> processor = new RecordingProcessor<>(query.newProcessor(), reports, query.keyEncoder());
        return upstream.groupByKey(query.keyFunction(), query.keyEncoder())
                .transformWithState(processor, query.timeMode(), query.outputMode(), query.outputEncoder());
    }

    /**
     * The downstream's view of batch {@code p}: {@code input} (the upstream's emitted rows) and the
     * watermarks and time every operator of the batch shares.
     */
    void batch(StreamingQueryProgress p, boolean hadInput, List<M> input, long lateMs, long evictionMs, long timestampMs,
            MemorySink sink) {
        long id = p.batchId();
        StateOperatorProgress op = p.stateOperators()[PROGRESS_INDEX];
        List<M> dropped = new ArrayList<>();
        if (query.timeMode().equals(TimeMode.EventTime())) {
            for (M row : input) {
                UnsafeRow r = inputCodec.row(inputCodec.encode(row));
                if (!r.isNullAt(eventTimeIndex) && r.getLong(eventTimeIndex) <= lateMs * 1000L) {
                    dropped.add(row);
                }
            }
        }
        if (dropped.size() != op.numRowsDroppedByWatermark()) {
            throw new IllegalStateException("Spark's downstream operator dropped " + op.numRowsDroppedByWatermark()
                    + " late rows in batch " + id + " but " + dropped.size() + " of its input rows are at or before "
                    + "the late watermark " + Instant.ofEpochMilli(lateMs));
        }
        List<FiredTimer<K2>> fired = new ArrayList<>();
        for (TaskReports.Fired f : reports.firedIn(id)) {
            fired.add(new FiredTimer<>(keyCodec.decode(f.key()), Instant.ofEpochMilli(f.expiryMs())));
        }
        batches.add(new BatchResult<>(id, hadInput, input, dropped, Instant.ofEpochMilli(lateMs),
                Instant.ofEpochMilli(evictionMs), Instant.ofEpochMilli(timestampMs), outputs(sink, id), fired,
                LiveRun.metrics(op)));
    }

    private List<O> outputs(MemorySink sink, long batchId) {
        return SparkStreaming.rowsOfBatch(sink, batchId, outputCodec);
    }

    RunResult<K2, M, O> result() {
        return new RunResult<>(batches);
    }
}
