package dev.twstester.internal;

import org.apache.spark.sql.execution.streaming.AvailableNowTrigger$;
import org.apache.spark.sql.execution.streaming.ProcessingTimeTrigger;
import org.apache.spark.sql.streaming.Trigger;

/**
 * Internal: reads Spark's {@link Trigger} objects, whose classes are internal to Spark.
 * {@code Trigger.ProcessingTime(...)} (any interval, 0 included) and {@code Trigger.AvailableNow()}
 * are modelled.
 *
 * <p>Public for {@code dev.twstester} ({@code TwsQuery}), {@code dev.twstester.sim}
 * ({@code MicroBatchLoop}), {@code dev.twstester.spark} ({@code LiveRun}) and
 * {@code dev.twstester.property} ({@code ScenarioGenerator}).
 */
public final class Triggers {
    private Triggers() {
    }

    /**
     * The interval triggers run at for a query with trigger interval {@code intervalMs}: the interval
     * itself, except that a zero interval in ProcessingTime mode (where Spark runs batches back to back
     * without end) runs as 1 ms: one trigger per clock move. 0 means triggers run back to back until
     * one runs nothing.
     */
    public static long effectiveIntervalMs(long intervalMs, boolean processingTimeMode) {
        return intervalMs == 0 && processingTimeMode ? 1 : intervalMs;
    }

    /**
     * Spark's {@code ProcessingTimeExecutor.nextBatchTime}: the trigger time after {@code nowMs}, the
     * next multiple of the interval ({@code nowMs} itself for a zero interval).
     */
    public static long nextTriggerTime(long effectiveIntervalMs, long nowMs) {
        return effectiveIntervalMs == 0 ? nowMs : Math.floorDiv(nowMs, effectiveIntervalMs) * effectiveIntervalMs + effectiveIntervalMs;
    }

    /**
     * The interval of a {@code Trigger.ProcessingTime(...)} in milliseconds, 0 for
     * {@code Trigger.AvailableNow()} (whose batches follow each other at once); an
     * {@link IllegalArgumentException} saying what is supported for any other trigger.
     */
    public static long intervalMs(Trigger trigger) {
        if (trigger instanceof ProcessingTimeTrigger processingTime) {
            return processingTime.intervalMs();
        }
        if (isAvailableNow(trigger)) {
            return 0;
        }
        throw new IllegalArgumentException("trigger " + trigger + " is not modelled: use Trigger.ProcessingTime(...) "
                + "with any interval (0, Spark's default, runs the next batch as soon as the last one ends) or "
                + "Trigger.AvailableNow(); Once and Continuous triggers are not supported");
    }

    /** Whether {@code trigger} is {@code Trigger.AvailableNow()}. */
    public static boolean isAvailableNow(Trigger trigger) {
        return trigger == AvailableNowTrigger$.MODULE$;
    }
}
