package dev.twstester.spark;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.streaming.sources.MemorySink;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.util.ManualClock;

import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

import dev.twstester.internal.Sneaky;

/**
 * The Spark-version-specific calls of the live runner, in one place: the test source and sink,
 * the internal {@code startQuery} that accepts a trigger clock, and the offset log. Spark 4.1 moved
 * {@code MemoryStream} and the offset log's classes into sub-packages of
 * {@code org.apache.spark.sql.execution.streaming} ({@code runtime}, {@code checkpointing}), 4.2 added
 * a parameter to {@code startQuery} and renamed {@code OffsetSeq.metadata} to {@code metadataOpt}:
 * these are found by reflection, so that one build runs on Spark 4.0, 4.1 and 4.2.
 */
final class SparkStreaming {
    private SparkStreaming() {}

    /** Spark's {@code MemoryStream}, whose class differs between Spark lines. */
    static final class MemorySource<T> {
        private final Object stream;

        private MemorySource(Object stream) {
            this.stream = stream;
        }

        /** {@code toDS()}: the stream as a streaming Dataset. */
        @SuppressWarnings("unchecked")
        Dataset<T> toDS() {
            return (Dataset<T>) call(stream, "toDS");
        }

        /** {@code addData(rows)}: the rows the next data batch reads. */
        void addData(List<T> rows) {
            call(stream, "addData", CollectionConverters.asScala(rows).toSeq());
        }
    }

    /** {@code MemoryStream.apply(encoder, session)} (4.1, 4.2) or {@code (encoder, sqlContext)} (4.0). */
    static <T> MemorySource<T> memoryStream(Encoder<T> encoder, SparkSession spark) {
        Class<?> type = firstClass("org.apache.spark.sql.execution.streaming.runtime.MemoryStream",
                "org.apache.spark.sql.execution.streaming.MemoryStream");
        for (Method apply : type.getMethods()) {
            Class<?>[] p = apply.getParameterTypes();
            if (apply.getName().equals("apply") && p.length == 2 && p[0] == Encoder.class) {
                Object context = p[1].isInstance(spark) ? spark : spark.sqlContext();
                return new MemorySource<>(invoke(apply, null, encoder, context));
            }
        }
        throw new IllegalStateException("this Spark's " + type.getName() + " has no apply(Encoder, session)");
    }

    /** Spark's checkpoint file manager that renames without Hadoop's shell (4.1 moved it into {@code checkpointing}). */
    static String fileSystemCheckpointFileManager() {
        return firstClass("org.apache.spark.sql.execution.streaming.checkpointing.FileSystemBasedCheckpointFileManager",
                "org.apache.spark.sql.execution.streaming.FileSystemBasedCheckpointFileManager").getName();
    }

    static MemorySink memorySink() {
        return new MemorySink();
    }

    /**
     * Starts {@code ds} into {@code sink} with {@code trigger}, driven by {@code clock}: Spark's internal
     * {@code StreamingQueryManager.startQuery}, 12 parameters before 4.2, 13 since (a first one added).
     */
    static StreamingQuery start(SparkSession spark, Dataset<?> ds, MemorySink sink, Trigger trigger, ManualClock clock,
            String checkpoint) throws Exception {
        return start(spark, ds, sink, trigger, clock, checkpoint, OutputMode.Update());
    }

    /** As {@link #start(SparkSession, Dataset, MemorySink, Trigger, ManualClock, String)}, in {@code outputMode}. */
    static StreamingQuery start(SparkSession spark, Dataset<?> ds, MemorySink sink, Trigger trigger, ManualClock clock,
            String checkpoint, OutputMode outputMode) throws Exception {
        Object manager = spark.streams();
        Object[] twelve = {Option.empty(), Option.apply(checkpoint), ds, scala.collection.immutable.Map$.MODULE$.empty(),
            sink, outputMode, false, true, trigger, clock, Option.empty(), Option.empty()};
        Method before42 = method(manager.getClass(), "startQuery", 12);
        if (before42 != null) {
            return (StreamingQuery) invoke(before42, manager, twelve);
        }
        Object[] thirteen = new Object[13];
        thirteen[0] = Option.empty();
        System.arraycopy(twelve, 0, thirteen, 1, 12);
        return (StreamingQuery) call(manager, "startQuery", thirteen);
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
        Object execution = call(query, "streamingQuery");
        Object offsets = ((Option<?>) call(call(execution, "offsetLog"), "get", batchId)).get();
        // OffsetSeq.metadataOpt since 4.2, metadata before
        Object metadata = ((Option<?>) call(offsets, method(offsets.getClass(), "metadataOpt", 0) != null ? "metadataOpt" : "metadata")).get();
        return new long[] {(Long) call(metadata, "batchTimestampMs"), (Long) call(metadata, "batchWatermarkMs")};
    }

    private static Class<?> firstClass(String... names) {
        for (String name : names) {
            try {
                return Class.forName(name, true, SparkStreaming.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                // the next name: another Spark line
            }
        }
        throw new IllegalStateException("none of " + List.of(names) + " is on the class path; twstester runs Spark 4.0,"
                + " 4.1 and 4.2");
    }

    /** The public method {@code name} of {@code type} with {@code arity} parameters, or null. */
    private static Method method(Class<?> type, String name, int arity) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == arity) {
                return m;
            }
        }
        return null;
    }

    /** Calls the public method {@code name} with {@code args.length} parameters (Spark's own exceptions rethrown as they are). */
    private static Object call(Object target, String name, Object... args) {
        Method m = method(target.getClass(), name, args.length);
        if (m == null) {
            throw new IllegalStateException("this Spark's " + target.getClass().getName() + " has no method " + name
                    + " of " + args.length + " parameters; twstester runs Spark 4.0, 4.1 and 4.2");
        }
        return invoke(m, target, args);
    }

    /** Invokes {@code m}; what it throws is rethrown as it is (Spark's checked exceptions too). */
    private static Object invoke(Method m, Object target, Object... args) {
        try {
            m.setAccessible(true);
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw Sneaky.raise(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot call " + m + ": " + e.getMessage(), e);
        }
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
