package dev.twstester.internal;

import org.apache.spark.sql.streaming.TestGroupState;

/**
 * Internal, not API: may change in any release.
 *
 * <p>A legacy {@code mapGroupsWithState} / {@code flatMapGroupsWithState} key's timeout as Spark
 * keeps it: a timestamp in ms, or {@link #NO_TIMESTAMP} when none is set, both in
 * {@code GroupStateImpl} and in the {@code timeoutTimestamp} column of the operator's state rows.
 * Spark's own constant is {@code GroupStateImpl.NO_TIMESTAMP}, but that class moved package in
 * Spark 4.1 ({@code org.apache.spark.sql.execution.streaming} to its
 * {@code operators.stateful.flatmapgroupswithstate}), so twstester, which runs on 4.0 too, keeps
 * the value here once.
 *
 * <p>Public for {@code dev.twstester.sim} ({@code GroupStateProcessor}, the simulator's legacy
 * operator) and {@code dev.twstester.spark} ({@code LiveGroupsWithState}, which reports the
 * timeout each live call left, and {@code CheckpointState}, which reads the state rows).
 */
public final class GroupStateTimeouts {
    /** Spark's {@code GroupStateImpl.NO_TIMESTAMP}: no timeout set. */
    public static final long NO_TIMESTAMP = -1L;

    private GroupStateTimeouts() {
    }

    /**
     * The timeout {@code state} holds (after a call: the one the call left, since every call starts
     * with none), or {@link #NO_TIMESTAMP}. Spark's {@code GroupState} of a legacy function is a
     * {@code GroupStateImpl}, which is a {@code TestGroupState}.
     */
    public static long timeoutOf(TestGroupState<?> state) {
        org.apache.spark.api.java.Optional<Object> t = state.getTimeoutTimestampMs();
        return t.isPresent() ? (Long) t.get() : NO_TIMESTAMP;
    }
}
