package dev.twstester.sim;

import java.util.Arrays;

import dev.twstester.BatchResult;
import dev.twstester.internal.NamedCounts;

/**
 * The custom metrics a task counts ({@link Metrics}), each under its name in
 * {@link BatchResult#METRIC_NAMES} (Spark's names), in that order:
 * {@code scope.metrics().add(Metric.REGISTERED_TIMERS, 1)}.
 */
enum Metric {
    REGISTERED_TIMERS("numRegisteredTimers"),
    DELETED_TIMERS("numDeletedTimers"),
    EXPIRED_TIMERS("numExpiredTimers"),
    VALUE_STATE_VARS("numValueStateVars"),
    LIST_STATE_VARS("numListStateVars"),
    MAP_STATE_VARS("numMapStateVars"),
    VALUE_STATE_WITH_TTL_VARS("numValueStateWithTTLVars"),
    LIST_STATE_WITH_TTL_VARS("numListStateWithTTLVars"),
    MAP_STATE_WITH_TTL_VARS("numMapStateWithTTLVars"),
    DELETED_STATE_VARS("numDeletedStateVars"),
    VALUES_REMOVED_DUE_TO_TTL_EXPIRY("numValuesRemovedDueToTTLExpiry"),
    UPDATED_STATE_ROWS("numUpdatedStateRows"),
    REMOVED_STATE_ROWS("numRemovedStateRows"),
    ROWS_DROPPED_BY_WATERMARK("numRowsDroppedByWatermark");

    /** Every metric, by ordinal. */
    static final Metric[] ALL = values();
    /** Every metric at 0 under its Spark name, in name order: the names of every batch's figures. */
    static final NamedCounts ZEROS;
    /** {@code SORTED_ORDINALS[i]}: the ordinal of the metric whose name is the {@code i}-th in name order. */
    static final int[] SORTED_ORDINALS;

    static {
        String[] sorted = new String[ALL.length];
        for (int i = 0; i < ALL.length; i++) {
            sorted[i] = ALL[i].sparkName;
        }
        Arrays.sort(sorted);
        SORTED_ORDINALS = new int[ALL.length];
        for (int i = 0; i < ALL.length; i++) {
            for (Metric m : ALL) {
                if (m.sparkName.equals(sorted[i])) {
                    SORTED_ORDINALS[i] = m.ordinal();
                }
            }
        }
        ZEROS = NamedCounts.of(sorted, new long[ALL.length]);
    }

    private final String sparkName;

    Metric(String sparkName) {
        this.sparkName = sparkName;
    }

    /** The name in Spark's query progress (and {@link BatchResult#metrics()}). */
    String sparkName() {
        return sparkName;
    }
}
