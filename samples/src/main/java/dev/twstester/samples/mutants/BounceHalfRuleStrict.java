package dev.twstester.samples.mutants;

import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.sessions.BounceAlerts;
import dev.twstester.samples.sessions.PageAlert;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/** Bug: a page whose sessions bounced exactly half of the time gets no alert (more than half is required). */
public class BounceHalfRuleStrict extends BounceAlerts {
    private static final long serialVersionUID = 1L;
    static final String BUG = "a page whose sessions bounced exactly half of the time gets no alert (more than half is required)";

    @Override
    public Iterator<PageAlert> handleExpiredTimer(String page, TimerValues timerValues, ExpiredTimerInfo timer) {
        long n = sessions.get();
        long b = bounces.get();
        sessions.clear();
        bounces.clear();
        if (n < MIN_SESSIONS || 2 * b <= n) {
            return Iterator.empty();
        }
        PageAlert alert = new PageAlert(page, n, b, Instant.ofEpochMilli(timer.getExpiryTimeInMs()));
        return CollectionConverters.asScala(List.of(alert).iterator());
    }
}
