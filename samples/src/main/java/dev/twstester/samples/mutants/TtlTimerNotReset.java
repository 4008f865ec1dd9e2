package dev.twstester.samples.mutants;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.ttl.TtlSessions;

/** Bug: each batch of clicks registers a close timer without deleting the pending one. */
class TtlTimerNotReset extends TtlSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "each batch of clicks registers a close timer without deleting the pending one";

    @Override
    protected void restartCloseTimer(TimerValues timerValues) {
        getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + idleGapMs);
    }
}
