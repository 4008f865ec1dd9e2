package dev.twstester.samples.mutants;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.sessions.BounceAlerts;
import dev.twstester.samples.sessions.PageAlert;
import dev.twstester.samples.sessions.Session;

import scala.collection.Iterator;

/** Bug: every closed session registers an hour timer, not only the hour's first one. */
class BounceTimerEveryBatch extends BounceAlerts {
    private static final long serialVersionUID = 1L;
    static final String BUG = "every closed session registers an hour timer, not only the hour's first one";

    @Override
    public Iterator<PageAlert> handleInputRows(String page, Iterator<Session> closed, TimerValues timerValues) {
        long n = sessions.exists() ? sessions.get() : 0L;
        long b = bounces.exists() ? bounces.get() : 0L;
        while (closed.hasNext()) {
            Session s = closed.next();
            getHandle().registerTimer(s.getClosedAt().getTime() + HOUR.toMillis());
            n++;
            b += s.bounced() ? 1 : 0;
        }
        sessions.update(n);
        bounces.update(b);
        return Iterator.empty();
    }
}
