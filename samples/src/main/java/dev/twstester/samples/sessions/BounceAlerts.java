package dev.twstester.samples.sessions;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The second operator of {@link SessionAlerts}: closed sessions, keyed by the page they landed on,
 * counted per hour in {@code ValueState<Long> "sessions"} and {@code "bounces"} (sessions of one
 * view). The hour starts with the first session a page gets: an event-time timer at its
 * {@code closedAt} plus {@link #HOUR}. When it fires, a page with at least {@link #MIN_SESSIONS}
 * sessions of which at least half bounced gets a {@link PageAlert}, and the counts start over.
 */
public class BounceAlerts extends StatefulProcessor<String, Session, PageAlert> {
    private static final long serialVersionUID = 1L;

    public static final Duration HOUR = Duration.ofHours(1);
    public static final int MIN_SESSIONS = 3;

    protected transient ValueState<Long> sessions;
    protected transient ValueState<Long> bounces;

    /** {@code sessions.groupByKey(landingPage).transformWithState(new BounceAlerts(), EventTime, Update)}, after another operator. */
    public static TwsQuery.Builder<String, Session, PageAlert> downstream() {
        return downstream(BounceAlerts::new);
    }

    /** The same operator running another version of the processor (a subclass, such as a refactoring of it). */
    public static TwsQuery.Builder<String, Session, PageAlert> downstream(Supplier<? extends BounceAlerts> version) {
        return TwsQuery.builder(version)
                .keyBy(Session::getLandingPage, Encoders.STRING())
                .input(Encoders.bean(Session.class))
                .output(Encoders.bean(PageAlert.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update());
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        sessions = getHandle().getValueState("sessions", Encoders.LONG(), TTLConfig.NONE());
        bounces = getHandle().getValueState("bounces", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public Iterator<PageAlert> handleInputRows(String page, Iterator<Session> closed, TimerValues timerValues) {
        long n = sessions.exists() ? sessions.get() : 0L;
        long b = bounces.exists() ? bounces.get() : 0L;
        while (closed.hasNext()) {
            Session s = closed.next();
            if (n == 0) {
                getHandle().registerTimer(s.getClosedAt().getTime() + HOUR.toMillis());
            }
            n++;
            b += s.bounced() ? 1 : 0;
        }
        sessions.update(n);
        bounces.update(b);
        return Iterator.empty();
    }

    /** Whether an hour of {@code n} sessions, {@code b} of them bounced, raises an alert: at least 3, half bounced. */
    protected boolean raisesAlert(long n, long b) {
        return n >= MIN_SESSIONS && 2 * b >= n;
    }

    @Override
    public Iterator<PageAlert> handleExpiredTimer(String page, TimerValues timerValues, ExpiredTimerInfo timer) {
        long n = sessions.get();
        long b = bounces.get();
        sessions.clear();
        bounces.clear();
        if (!raisesAlert(n, b)) {
            return Iterator.empty();
        }
        PageAlert alert = new PageAlert(page, n, b, Instant.ofEpochMilli(timer.getExpiryTimeInMs()));
        return CollectionConverters.asScala(List.of(alert).iterator());
    }
}
