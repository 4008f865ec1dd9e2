package dev.twstester.spark;

import java.util.List;

import dev.twstester.BatchResult;

/**
 * A live Spark query failed. The cause is Spark's own exception (for a failed batch the
 * {@code StreamingQueryException}, whose cause carries the error class); {@link #completed()}
 * holds the batches that committed before the failure.
 */
public final class LiveRunException extends RuntimeException {
    private final transient List<? extends BatchResult<?, ?, ?>> completed;

    LiveRunException(String message, Throwable cause, List<? extends BatchResult<?, ?, ?>> completed) {
        super(message, cause);
        this.completed = List.copyOf(completed);
    }

    /** The batches that completed before the failure. */
    public List<? extends BatchResult<?, ?, ?>> completed() {
        return completed;
    }
}
