package dev.twstester.sim;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.spark.SparkIllegalArgumentException;
import org.apache.spark.SparkRuntimeException;
import org.apache.spark.SparkUnsupportedOperationException;
import org.apache.spark.sql.streaming.TimeMode;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The errors Spark 4.2.0 raises for misuse of the state API, built on Spark's public exception
 * types with the same error class and message parameters (so {@code getCondition()} and the
 * message text match a live run).
 */
final class SparkErrors {
    private SparkErrors() {}

    /**
     * Spark's {@code QueryExecution.toInternalError} in the planning phase, where Spark 4.0 runs the
     * driver-side {@code init}: {@code INTERNAL_ERROR} with the {@code NullPointerException} as cause.
     * Spark's type is the checked {@code SparkException}, thrown as it is.
     */
    static RuntimeException planningInternalError(Throwable cause) {
        throw dev.twstester.internal.Sneaky.raise(org.apache.spark.SparkException.internalError(
                "The Spark SQL phase planning failed with an internal error. You hit a bug in Spark or the Spark"
                        + " plugins you use. Please, report this bug to the corresponding communities or vendors, and"
                        + " provide the full stack trace.", cause));
    }

    static SparkUnsupportedOperationException invalidHandleState(String operation, HandleState state) {
        return new SparkUnsupportedOperationException(
                "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                params("operationType", operation, "handleState", state.name()));
    }

    static SparkUnsupportedOperationException invalidTimeMode(String operation, TimeMode timeMode) {
        return new SparkUnsupportedOperationException(
                "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
                params("operationType", operation, "timeMode", timeMode.toString()));
    }

    static SparkUnsupportedOperationException ttlInWrongTimeMode(String stateName, TimeMode timeMode) {
        return new SparkUnsupportedOperationException(
                "STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL",
                params("stateName", stateName, "timeMode", timeMode.toString()));
    }

    static SparkUnsupportedOperationException ttlMustBePositive(String stateName) {
        return new SparkUnsupportedOperationException(
                "STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
                params("operationType", "update", "stateName", stateName));
    }

    static SparkRuntimeException duplicateStateVariable(String stateName) {
        return new SparkRuntimeException(
                "STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED",
                scala(params("stateVarName", stateName)), null, new org.apache.spark.QueryContext[0], "");
    }

    /** {@code QueryExecutionErrors.emittedRowsAreOlderThanWatermark}: the watermark in ms, the row's time in µs. */
    static SparkRuntimeException emittedRowOlderThanWatermark(long watermarkMs, long eventTimeMicros) {
        return new SparkRuntimeException("EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED",
                scala(params("currentWatermark", String.valueOf(watermarkMs),
                        "emittedRowEventTime", String.valueOf(eventTimeMicros))),
                null, new org.apache.spark.QueryContext[0], "");
    }

    static SparkIllegalArgumentException nullValue(String stateName) {
        return new SparkIllegalArgumentException(
                "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE", params("stateName", stateName));
    }

    static SparkIllegalArgumentException emptyList(String stateName) {
        return new SparkIllegalArgumentException(
                "ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE", params("stateName", stateName));
    }

    static Map<String, String> params(String... keyValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    static scala.collection.immutable.Map<String, String> scala(Map<String, String> map) {
        return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(map));
    }
}
