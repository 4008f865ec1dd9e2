package dev.twstester.samples.mutants;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.sessions.Session;
import dev.twstester.samples.sessions.UserSessions;

/** Bug: the session's event-time timer is computed from the batch's processing time instead of the last view. */
class SessionsTimerFromClock extends UserSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the session's event-time timer is computed from the batch's processing time instead of the last view";

    @Override
    protected void moveTimer(Session s, TimerValues timerValues) {
        List<Long> timers = new ArrayList<>();
        getHandle().listTimers().foreach(t -> timers.add((Long) t));
        timers.forEach(getHandle()::deleteTimer);
        getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + GAP.toMillis());
    }
}
