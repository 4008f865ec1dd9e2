package dev.twstester.spark;

import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.streaming.runtime.MemoryStream;
import org.apache.spark.sql.execution.streaming.sources.MemorySink;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.util.ManualClock;

import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The Spark-version-specific calls of the live runner, in one place: the test source and sink,
 * and the internal {@code startQuery} that accepts a trigger clock. Written against Spark 4.2.0
 * (4.0 and 4.1 keep MemoryStream in {@code org.apache.spark.sql.execution.streaming} and their
 * {@code startQuery} has 12 parameters).
 */
final class SparkStreaming {
    private SparkStreaming() {}

    static <T> MemoryStream<T> memoryStream(Encoder<T> encoder, SparkSession spark) {
        return MemoryStream.apply(encoder, spark);
    }

    static <T> void addData(MemoryStream<T> stream, List<T> rows) {
        stream.addData(CollectionConverters.asScala(rows).toSeq());
    }

    static MemorySink memorySink() {
        return new MemorySink();
    }

    /** Starts {@code ds} into {@code sink} with {@code trigger}, driven by {@code clock}. */
    static StreamingQuery start(SparkSession spark, Dataset<?> ds, MemorySink sink, Trigger trigger, ManualClock clock,
            String checkpoint) throws Exception {
        var manager = (org.apache.spark.sql.classic.StreamingQueryManager) spark.streams();
        return manager.startQuery(Option.empty(), Option.empty(), Option.apply(checkpoint),
                (org.apache.spark.sql.classic.Dataset<?>) ds, scala.collection.immutable.Map$.MODULE$.empty(), sink,
                OutputMode.Update(), false, true, trigger, clock, Option.empty(),
                Option.empty());
    }

    /** The rows the sink received in batch {@code batchId}, in the sink's order, decoded with {@code codec}. */
    static <O> List<O> rowsOfBatch(MemorySink sink, long batchId, dev.twstester.internal.RowCodec<O> codec) {
        List<org.apache.spark.sql.Row> since = sinceBatch(sink, batchId - 1);
        int count = since.size() - sinceBatch(sink, batchId).size();
        List<O> out = new java.util.ArrayList<>(count);
        for (org.apache.spark.sql.Row row : since.subList(0, count)) {
            out.add(codec.fromExternalRow(row));
        }
        return out;
    }

    /** Rows the sink received for batches after {@code sinceBatchId}. */
    static List<org.apache.spark.sql.Row> sinceBatch(MemorySink sink, long sinceBatchId) {
        return CollectionConverters.asJava(sink.dataSinceBatch(sinceBatchId));
    }

    /** The batch's timestamp and watermark as Spark wrote them to the offset log: {@code [timestampMs, watermarkMs]}. */
    static long[] batchTimes(StreamingQuery query, long batchId) {
        var execution = ((org.apache.spark.sql.execution.streaming.runtime.StreamingQueryWrapper) query).streamingQuery();
        var metadata = execution.offsetLog().get(batchId).get().metadataOpt().get();
        return new long[] {metadata.batchTimestampMs(), metadata.batchWatermarkMs()};
    }

    /** A manual trigger clock that records when the stream waits on it (Spark's StreamManualClock). */
    static final class StepClock extends ManualClock {
        private volatile Long waitingSince;

        StepClock(long startMs) {
            super(startMs);
        }

        @Override
        public long waitTillTime(long targetTime) {
            synchronized (this) {
                waitingSince = getTimeMillis();
                notifyAll();
            }
            try {
                return super.waitTillTime(targetTime);
            } finally {
                synchronized (this) {
                    waitingSince = null;
                }
            }
        }

        boolean isStreamWaitingAt(long timeMs) {
            Long w = waitingSince;
            return w != null && w == timeMs;
        }

        /**
         * Waits until the stream waits on this clock at {@code timeMs}, or at most {@code maxMs};
         * woken as soon as the stream starts waiting, instead of polling.
         */
        synchronized boolean awaitStreamWaitingAt(long timeMs, long maxMs) throws InterruptedException {
            long deadline = System.nanoTime() + maxMs * 1_000_000L;
            while (!isStreamWaitingAt(timeMs)) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    return false;
                }
                wait(left);
            }
            return true;
        }
    }
}
