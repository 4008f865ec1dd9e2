package dev.twstester.samples.mutants;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.ttl.TtlSessions;

/** Bug: the processing-time close timer is set from the watermark (event time), which is 0 in this mode. */
class TtlTimerFromWatermark extends TtlSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the processing-time close timer is set from the watermark (event time), which is 0 in this mode";

    @Override
    protected void restartCloseTimer(TimerValues timerValues) {
        List<Long> existing = new ArrayList<>();
        getHandle().listTimers().foreach(t -> existing.add((Long) t));
        existing.forEach(getHandle()::deleteTimer);
        getHandle().registerTimer(timerValues.getCurrentWatermarkInMs() + idleGapMs);
    }
}
