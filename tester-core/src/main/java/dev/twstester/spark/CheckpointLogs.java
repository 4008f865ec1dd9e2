package dev.twstester.spark;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;

import org.apache.spark.sql.SparkSession;

import scala.Option;

import dev.twstester.internal.Sneaky;

/**
 * A checkpoint's offset and commit logs, read with Spark's own {@code OffsetSeqLog} and
 * {@code CommitLog} (found by reflection: Spark 4.1 moved them into
 * {@code org.apache.spark.sql.execution.streaming.checkpointing}, 4.2 added a constructor
 * parameter with a default).
 */
final class CheckpointLogs {
    private CheckpointLogs() {}

    /**
     * Where the query stood after a committed batch: its id, timestamp and watermark (offset log),
     * and the next batch's watermark (commit log).
     */
    record Position(long batchId, long batchTimestampMs, long batchWatermarkMs, long nextBatchWatermarkMs) {}

    /** The position after {@code batchId}, or after the last committed batch when null. */
    static Position read(SparkSession spark, Path checkpoint, Long batchId) {
        Object commits = log(spark, checkpoint.resolve("commits"), "CommitLog");
        Option<?> latest = CheckpointState.sparkRead(checkpoint, "its commit log (commits/)",
                () -> (Option<?>) call(commits, "getLatestBatchId"));
        if (latest.isEmpty()) {
            throw new IllegalArgumentException("the checkpoint " + checkpoint + " has no committed batch: its commits/ "
                    + "folder is empty (the query never finished a batch)");
        }
        long last = ((Number) latest.get()).longValue();
        long id = batchId == null ? last : batchId;
        if (id > last) {
            throw new IllegalArgumentException("batch " + id + " is not committed in the checkpoint " + checkpoint
                    + "; its last committed batch is " + last);
        }
        Option<?> commit = CheckpointState.sparkRead(checkpoint, "batch " + id + "'s commit (commits/" + id + ")",
                () -> (Option<?>) call(commits, "get", id));
        if (commit.isEmpty()) {
            throw new IllegalArgumentException("the checkpoint " + checkpoint + " no longer has batch " + id
                    + "'s commit (Spark keeps the last spark.sql.streaming.minBatchesToRetain batches, 100 by "
                    + "default); its last committed batch is " + last);
        }
        long nextWatermark = (Long) call(commit.get(), "nextBatchWatermarkMs");
        Object offsets = log(spark, checkpoint.resolve("offsets"), "OffsetSeqLog");
        Option<?> metadata = CheckpointState.sparkRead(checkpoint, "batch " + id + "'s offsets (offsets/" + id + ")",
                () -> (Option<?>) call(offsets, "offsetSeqMetadataForBatchId", id));
        if (metadata.isEmpty()) {
            throw new IllegalArgumentException("the checkpoint " + checkpoint + " has no offsets of batch " + id);
        }
        return new Position(id, (Long) call(metadata.get(), "batchTimestampMs"),
                (Long) call(metadata.get(), "batchWatermarkMs"), nextWatermark);
    }

    /** {@code new <name>(spark, path, defaults...)} of this Spark's class. */
    private static Object log(SparkSession spark, Path folder, String name) {
        Class<?> type = firstClass("org.apache.spark.sql.execution.streaming.checkpointing." + name,
                "org.apache.spark.sql.execution.streaming." + name);
        for (Constructor<?> c : type.getConstructors()) {
            Class<?>[] p = c.getParameterTypes();
            if (p.length >= 2 && p[0].isInstance(spark) && p[1] == String.class) {
                Object[] args = new Object[p.length];
                args[0] = spark;
                args[1] = folder.toString();
                for (int i = 2; i < p.length; i++) {
                    args[i] = call(null, type, "$lessinit$greater$default$" + (i + 1));
                }
                try {
                    return c.newInstance(args);
                } catch (InvocationTargetException e) {
                    throw Sneaky.raise(e.getCause());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot create Spark's " + type.getName() + ": " + e, e);
                }
            }
        }
        throw new IllegalStateException("this Spark's " + type.getName() + " has no constructor (SparkSession, String, ...)"
                + "; twstester reads checkpoints of Spark 4.0, 4.1 and 4.2");
    }

    private static Class<?> firstClass(String... names) {
        for (String name : names) {
            try {
                return Class.forName(name, true, CheckpointLogs.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                // the next name: another Spark line
            }
        }
        throw new IllegalStateException("none of " + List.of(names) + " is on the class path; twstester reads "
                + "checkpoints of Spark 4.0, 4.1 and 4.2");
    }

    private static Object call(Object target, String name, Object... args) {
        return call(target, target.getClass(), name, args);
    }

    private static Object call(Object target, Class<?> type, String name, Object... args) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                try {
                    return m.invoke(target, args);
                } catch (InvocationTargetException e) {
                    throw Sneaky.raise(e.getCause());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot call " + m + ": " + e.getMessage(), e);
                }
            }
        }
        throw new IllegalStateException("this Spark's " + type.getName() + " has no method " + name + " of "
                + args.length + " parameters; twstester reads checkpoints of Spark 4.0, 4.1 and 4.2");
    }
}
