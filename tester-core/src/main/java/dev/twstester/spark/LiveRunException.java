package dev.twstester.spark;

import java.util.List;
import java.util.Optional;

import org.apache.spark.SparkThrowable;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;

/**
 * A live Spark query failed. The cause is Spark's own exception (for a failed batch the
 * {@code StreamingQueryException}, whose cause carries the error class); {@link #completed()}
 * holds the batches that committed before the failure.
 *
 * <pre>{@code
 * LiveRunException e = catchThrowableOfType(() -> LiveRunner.of(query).run(story), LiveRunException.class);
 * assertThat(e.errorClass()).contains("EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED");
 * }</pre>
 */
public final class LiveRunException extends RuntimeException {
    private static final String STREAM_FAILED = "STREAM_FAILED";

    private final transient List<? extends BatchResult<?, ?, ?>> completed;
    private final FailedBatch failedBatch;

    LiveRunException(String message, Throwable cause, List<? extends BatchResult<?, ?, ?>> completed) {
        this(message, cause, completed, null);
    }

    LiveRunException(String message, Throwable cause, List<? extends BatchResult<?, ?, ?>> completed,
            FailedBatch failedBatch) {
        super(message, cause);
        this.completed = List.copyOf(completed);
        this.failedBatch = failedBatch;
    }

    /**
     * The batch that failed and stopped the query (it stays in the offset log, and the next start
     * runs it again), read from the offset log; empty when the run failed otherwise (the query did
     * not start, a step timed out).
     */
    public Optional<FailedBatch> failedBatch() {
        return Optional.ofNullable(failedBatch);
    }

    /**
     * The query's batches that completed before the failure; for a query of several operators each
     * carries every operator's view ({@link BatchResult#operators()}).
     */
    public List<? extends BatchResult<?, ?, ?>> completed() {
        return completed;
    }

    /**
     * Spark's error class (condition) for the failure: the first one in the cause chain other than
     * the {@code STREAM_FAILED} wrapper, e.g. {@code EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED};
     * empty when no exception in the chain has one.
     */
    public Optional<String> errorClass() {
        for (Throwable c = getCause(); c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SparkThrowable st && st.getCondition() != null && !STREAM_FAILED.equals(st.getCondition())) {
                return Optional.of(st.getCondition());
            }
        }
        return Optional.empty();
    }
}
