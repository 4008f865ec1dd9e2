package dev.twstester;

import java.util.Map;
import java.util.Optional;

import org.apache.spark.SparkThrowable;

/**
 * A processor's own code threw. As in Spark 4.2.0, an exception thrown synchronously from
 * {@code init}, {@code handleInitialState}, {@code handleInputRows}, {@code handleExpiredTimer}
 * or {@code close} carries the error class {@code TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR}
 * (see {@link #getCondition()}), with Spark's message; one thrown while the returned iterator is
 * consumed has no error class, as Spark reports it only as a failed stage. The cause is the
 * user's exception. Spark's own type for this error class is internal (and a checked
 * {@code SparkException} to Java), so this is an unchecked {@link SparkThrowable}.
 *
 * <p>A legacy {@code mapGroupsWithState} / {@code flatMapGroupsWithState} function's failure carries
 * {@code FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR} instead, whether it threw synchronously or
 * from its iterator ({@link #groupsWithStateUserFunction}).
 *
 * <p>The message adds what Spark's does not: the function, grouping key and batch id.
 *
 * <pre>{@code
 * try {
 *     simulator.runBatch(rows);
 * } catch (ProcessorException e) {
 *     e.getCondition();  // "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR"
 *     e.function();      // "handleInputRows"
 *     e.key();           // Optional[ana]
 *     e.batchId();       // 3
 * }
 * }</pre>
 */
public final class ProcessorException extends RuntimeException implements SparkThrowable {
    /** Spark's error class for synchronous user-function failures. */
    public static final String USER_FUNCTION_ERROR = "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR";

    private final String condition;
    private final Map<String, String> parameters;
    private final String function;
    private final transient Object key;
    private final long batchId;

    private ProcessorException(String message, Throwable cause, String condition, Map<String, String> parameters,
            String function, Object key, long batchId) {
        super(message, cause);
        this.condition = condition;
        this.parameters = parameters;
        this.function = function;
        this.key = key;
        this.batchId = batchId;
    }

    /** A synchronous throw from a processor method: {@code TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR}. */
    public static ProcessorException userFunction(String function, Object key, long batchId, Throwable cause) {
        String reason = cause.getMessage() == null ? "" : cause.getMessage();
        String message = "[" + USER_FUNCTION_ERROR + "] An error occurred in the user-defined function "
                + function + " of the StatefulProcessor. Reason: " + reason + ". SQLSTATE: 39000"
                + where(function, key, batchId);
        return new ProcessorException(message, cause, USER_FUNCTION_ERROR,
                Map.of("reason", reason, "function", function), function, key, batchId);
    }

    /**
     * Spark 4.0 (which wraps nothing): a processor method threw in a task, and the stage failed
     * with the user's exception as the cause; no error class.
     */
    public static ProcessorException taskFailure(String function, Object key, long batchId, Throwable cause) {
        String message = "Job aborted due to stage failure: " + function + " threw " + cause + where(function, key, batchId);
        return new ProcessorException(message, cause, null, Map.of(), function, key, batchId);
    }

    /** A throw while Spark consumed the iterator a processor method returned: no error class. */
    public static ProcessorException lazyIterator(String function, Object key, long batchId, Throwable cause) {
        String message = "Job aborted due to stage failure: the iterator returned by " + function
                + " threw " + cause + where(function, key, batchId);
        return new ProcessorException(message, cause, null, Map.of(), function, key, batchId);
    }

    /** Spark's error class for a failure in a mapGroupsWithState or flatMapGroupsWithState function. */
    public static final String GROUPS_WITH_STATE_USER_FUNCTION_ERROR = "FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR";

    /**
     * A mapGroupsWithState or flatMapGroupsWithState function (or the iterator it returned) threw
     * something that is not Spark's own: {@code FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR}, on
     * every Spark line. {@code function} is {@code "mapGroupsWithState"} or {@code "flatMapGroupsWithState"}.
     */
    public static ProcessorException groupsWithStateUserFunction(String function, Object key, long batchId,
            Throwable cause) {
        String reason = cause.getMessage() == null ? "" : cause.getMessage();
        String message = "[" + GROUPS_WITH_STATE_USER_FUNCTION_ERROR + "] An error occurred in the user provided "
                + "function in flatMapGroupsWithState. Reason: " + reason + " SQLSTATE: 39000"
                + where(function, key, batchId);
        return new ProcessorException(message, cause, GROUPS_WITH_STATE_USER_FUNCTION_ERROR, Map.of("reason", reason),
                function, key, batchId);
    }

    private static String where(String function, Object key, long batchId) {
        return " [twstester: function=" + function + (key == null ? "" : ", key=" + key)
                + (batchId < 0 ? ", driver-side pass at query start" : ", batch=" + batchId) + "]";
    }

    @Override
    public String getCondition() {
        return condition;
    }

    @Override
    public Map<String, String> getMessageParameters() {
        return parameters;
    }

    @Override
    public String getSqlState() {
        return condition == null ? null : "39000";
    }

    /** The processor method that failed, e.g. {@code handleInputRows}. */
    public String function() {
        return function;
    }

    /** The grouping key being processed, empty for {@code init} and {@code close}. */
    public Optional<Object> key() {
        return Optional.ofNullable(key);
    }

    /** The micro-batch that failed (nothing of it was kept); -1 for the driver-side pass at query start. */
    public long batchId() {
        return batchId;
    }
}
