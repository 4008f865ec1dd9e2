package dev.twstester.samples.sessions;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
 * The first operator of {@link SessionAlerts}: a user's page views, keyed by user, as sessions. The
 * open session is {@code ValueState<Session> "session"}; each view extends it and moves its
 * event-time timer to the last view plus {@link #GAP}. When the watermark passes that time the
 * session closes: it is emitted with {@code closedAt} set to the timer's time, which is the event
 * time the next operator reads ({@code outputEventTimeColumn("closedAt")}), and the state is cleared.
 *
 * <pre>{@code
 * TwsSimulator<String, PageView, Session> sim = new TwsSimulator<>(UserSessions.query());
 * sim.runBatch(new PageView("ana", "/pricing", Instant.parse("2024-05-01T10:00:00Z")));
 * sim.state().timers("ana");   // [2024-05-01T10:30:00Z]
 * }</pre>
 */
public class UserSessions extends StatefulProcessor<String, PageView, Session> {
    private static final long serialVersionUID = 1L;

    /** A session closes after this long without a view. */
    public static final Duration GAP = Duration.ofMinutes(30);
    /** How late a view may arrive: the watermark delay on {@code ts}. */
    public static final Duration LATENESS = Duration.ofMinutes(5);

    protected transient ValueState<Session> open;

    /**
     * {@code views.withWatermark("ts", "5 minutes").groupByKey(user).transformWithState(new UserSessions(),
     * EventTime, Update, "closedAt")}.
     */
    public static TwsQuery<String, PageView, Session> query() {
        return query(UserSessions::new);
    }

    /** The same query running another version of the processor (a subclass, such as a refactoring of it). */
    public static TwsQuery<String, PageView, Session> query(Supplier<? extends UserSessions> version) {
        return TwsQuery.builder(version)
                .keyBy(PageView::getUser, Encoders.STRING())
                .input(Encoders.bean(PageView.class))
                .output(Encoders.bean(Session.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", LATENESS)
                .outputEventTimeColumn("closedAt")
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        open = getHandle().getValueState("session", Encoders.bean(Session.class), TTLConfig.NONE());
    }

    @Override
    public Iterator<Session> handleInputRows(String user, Iterator<PageView> views, TimerValues timerValues) {
        Session s = open.exists() ? open.get() : null;
        while (views.hasNext()) {
            PageView v = views.next();
            Instant t = v.getTs().toInstant();
            if (s == null) {
                s = new Session(user, v.getPage(), 1, t, t, null);
                continue;
            }
            s.setViews(s.getViews() + 1);
            if (t.isBefore(s.getStart().toInstant())) {
                s.setStart(v.getTs());
                s.setLandingPage(v.getPage());
            }
            if (t.isAfter(s.getEnd().toInstant())) {
                s.setEnd(v.getTs());
            }
        }
        moveTimer(s, timerValues);
        open.update(s);
        return Iterator.empty();
    }

    /** Moves the user's one timer to the session's last view plus {@link #GAP}. */
    protected void moveTimer(Session s, TimerValues timerValues) {
        List<Long> timers = new ArrayList<>();
        getHandle().listTimers().foreach(t -> timers.add((Long) t));
        timers.forEach(getHandle()::deleteTimer);
        getHandle().registerTimer(s.getEnd().getTime() + GAP.toMillis());
    }

    @Override
    public Iterator<Session> handleExpiredTimer(String user, TimerValues timerValues, ExpiredTimerInfo timer) {
        Session s = open.get();
        open.clear();
        Session closed = new Session(user, s.getLandingPage(), s.getViews(), s.getStart().toInstant(),
                s.getEnd().toInstant(), Instant.ofEpochMilli(timer.getExpiryTimeInMs()));
        return CollectionConverters.asScala(List.of(closed).iterator());
    }
}
