package dev.twstester.samples.mutants;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.ttl.SessionClosed;
import dev.twstester.samples.ttl.TtlSessions;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/** Bug: the close timer clears the click count but not the page list. */
public class TtlPagesNotClearedOnClose extends TtlSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the close timer clears the click count but not the page list";

    @Override
    public Iterator<SessionClosed> handleExpiredTimer(String user, TimerValues timerValues, ExpiredTimerInfo timer) {
        List<String> recent = new ArrayList<>();
        pages.get().foreach(recent::add);
        long n = clicks.exists() ? clicks.get() : 0L;
        clicks.clear();
        SessionClosed closed = new SessionClosed(user, n, recent, Instant.ofEpochMilli(timer.getExpiryTimeInMs()));
        return CollectionConverters.asScala(List.of(closed).iterator());
    }
}
