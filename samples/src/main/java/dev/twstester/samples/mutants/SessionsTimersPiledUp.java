package dev.twstester.samples.mutants;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.sessions.Session;
import dev.twstester.samples.sessions.UserSessions;

/** Bug: each batch of views registers the session's timer without deleting the one before. */
class SessionsTimersPiledUp extends UserSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "each batch of views registers the session's timer without deleting the one before";

    @Override
    protected void moveTimer(Session s, TimerValues timerValues) {
        getHandle().registerTimer(s.getEnd().getTime() + GAP.toMillis());
    }
}
