package dev.twstester;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import org.apache.spark.SparkThrowable;

/**
 * A micro-batch that failed: Spark stopped the query with it in the offset log, uncommitted, and
 * the next start runs it again first, with the same id, rows, timestamp and watermarks (see
 * docs/faults.md). A {@link RunResult} lists them in {@link RunResult#failures()}; the re-run, when
 * it commits, is an ordinary batch of the same id.
 *
 * <pre>{@code
 * RunResult<String, Event, String> run = sim.run(crashLoop);      // batch(poison), start(), ...
 * FailedBatch failed = run.failures().get(0);
 * failed.batchId();      // 2
 * failed.errorClass();   // "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR"
 * }</pre>
 *
 * @param batchId        the failed batch's id
 * @param hadInput       a data batch (true) or a no-data batch
 * @param rows           how many rows of the source it read
 * @param batchTimestamp its batch timestamp (from the offset log)
 * @param lateWatermark     the watermark its late rows were filtered with (the previous batch's)
 * @param evictionWatermark the watermark its timers and eviction used (from the offset log)
 * @param errorClass     Spark's error class (condition) of the failure, the first in its cause chain
 *                       other than the {@code STREAM_FAILED} wrapper; null when none has one
 * @param rootMessage    the message of the innermost cause (the processor's own exception, for one it threw)
 */
public record FailedBatch(long batchId, boolean hadInput, int rows, Instant batchTimestamp, Instant lateWatermark,
        Instant evictionWatermark, String errorClass, String rootMessage) {
    public FailedBatch {
        Objects.requireNonNull(batchTimestamp, "batchTimestamp must not be null");
        Objects.requireNonNull(lateWatermark, "lateWatermark must not be null");
        Objects.requireNonNull(evictionWatermark, "evictionWatermark must not be null");
    }

    /** The failed batch {@code batchId}, planned with these times, as {@code failure} reports it. */
    public static FailedBatch of(long batchId, boolean hadInput, List<?> rows, long batchTimestampMs,
            long lateWatermarkMs, long evictionWatermarkMs, Throwable failure) {
        return new FailedBatch(batchId, hadInput, rows.size(), Instant.ofEpochMilli(batchTimestampMs),
                Instant.ofEpochMilli(lateWatermarkMs), Instant.ofEpochMilli(evictionWatermarkMs), errorClass(failure),
                rootCause(failure).getMessage());
    }

    /** One line: "batch 2 (data, 2 rows) at 1970-01-01T00:00:02Z failed: CLASS: message". */
    public String summary() {
        return "batch " + batchId + " (" + (hadInput ? "data, " + rows + (rows == 1 ? " row" : " rows") : "no data")
                + ") at " + batchTimestamp + " failed: " + (errorClass == null ? "" : errorClass + ": ") + rootMessage;
    }

    private static String errorClass(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SparkThrowable st && st.getCondition() != null && !"STREAM_FAILED".equals(st.getCondition())) {
                return st.getCondition();
            }
        }
        return null;
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable c = failure;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c;
    }
}
