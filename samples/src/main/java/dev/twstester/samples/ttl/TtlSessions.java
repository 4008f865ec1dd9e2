package dev.twstester.samples.ttl;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.ListState;
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
 * Click sessions with TTL and processing-time timers ({@code TimeMode.ProcessingTime}):
 * <ul>
 *   <li>{@code ValueState<Long> "clicks"}, TTL 30 min: the session's click count; every update
 *   (each batch with clicks) gives it a fresh 30 minutes;</li>
 *   <li>{@code ListState<String> "pages"}, TTL 30 min: pages viewed; each element expires 30 min
 *   after it was appended, so the list holds the last 30 minutes of pages;</li>
 *   <li>a processing-time timer {@code idleGap} after the last click closes the session: it emits
 *   {@link SessionClosed} with what is still alive and clears the state.</li>
 * </ul>
 * With an idle gap longer than the TTL the count expires before the session closes: the close
 * then reports 0 clicks and no pages (the classic "TTL shorter than the session" mistake).
 */
public class TtlSessions extends StatefulProcessor<String, Click, SessionClosed> {
    private static final long serialVersionUID = 1L;

    public static final Duration TTL = Duration.ofMinutes(30);
    public static final Duration DEFAULT_IDLE_GAP = Duration.ofMinutes(20);

    protected final long idleGapMs;

    protected transient ValueState<Long> clicks;
    protected transient ListState<String> pages;

    public TtlSessions() {
        this(DEFAULT_IDLE_GAP);
    }

    public TtlSessions(Duration idleGap) {
        this.idleGapMs = idleGap.toMillis();
    }

    /** The query with a 20-minute idle gap. */
    public static TwsQuery<String, Click, SessionClosed> query() {
        return query(DEFAULT_IDLE_GAP);
    }

    /** {@code clicks.groupByKey(user).transformWithState(new TtlSessions(idleGap), ProcessingTime, Update, bean(SessionClosed))}. */
    public static TwsQuery<String, Click, SessionClosed> query(Duration idleGap) {
        return query(() -> new TtlSessions(idleGap));
    }

    /** The same query running another version of the processor (a subclass, such as a refactoring of it). */
    public static TwsQuery<String, Click, SessionClosed> query(Supplier<? extends TtlSessions> version) {
        return TwsQuery.builder(version)
                .keyBy(Click::getUser, Encoders.STRING())
                .input(Encoders.bean(Click.class))
                .output(Encoders.bean(SessionClosed.class))
                .timeMode(TimeMode.ProcessingTime())
                .outputMode(OutputMode.Update())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        clicks = getHandle().getValueState("clicks", Encoders.LONG(), new TTLConfig(TTL));
        pages = getHandle().getListState("pages", Encoders.STRING(), new TTLConfig(TTL));
    }

    @Override
    public Iterator<SessionClosed> handleInputRows(String user, Iterator<Click> rows, TimerValues timerValues) {
        long n = clicks.exists() ? clicks.get() : 0L;
        while (rows.hasNext()) {
            pages.appendValue(rows.next().getPage());
            n++;
        }
        clicks.update(n);
        restartCloseTimer(timerValues);
        return Iterator.empty();
    }

    /** Replaces the user's close timer by one {@code idleGap} after the batch's processing time. */
    protected void restartCloseTimer(TimerValues timerValues) {
        List<Long> existing = new ArrayList<>();
        getHandle().listTimers().foreach(t -> existing.add((Long) t));
        existing.forEach(getHandle()::deleteTimer);
        getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + idleGapMs);
    }

    @Override
    public Iterator<SessionClosed> handleExpiredTimer(String user, TimerValues timerValues, ExpiredTimerInfo timer) {
        List<String> recent = new ArrayList<>();
        pages.get().foreach(recent::add);
        long n = clicks.exists() ? clicks.get() : 0L;
        clearSession();
        SessionClosed closed = new SessionClosed(user, n, recent, Instant.ofEpochMilli(timer.getExpiryTimeInMs()));
        return CollectionConverters.asScala(List.of(closed).iterator());
    }

    /** Forgets the closed session: its click count and pages. */
    protected void clearSession() {
        clicks.clear();
        pages.clear();
    }
}
