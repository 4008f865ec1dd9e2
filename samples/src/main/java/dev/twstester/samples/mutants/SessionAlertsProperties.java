package dev.twstester.samples.mutants;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.property.EventFactory;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.sessions.PageAlert;
import dev.twstester.samples.sessions.PageView;
import dev.twstester.samples.sessions.Session;
import dev.twstester.samples.sessions.SessionAlerts;
import dev.twstester.samples.sessions.UserSessions;
import dev.twstester.sim.TwsSimulator;

/**
 * The properties a user writes for {@link SessionAlerts} (sessions per user, then bounce alerts per
 * landing page): a session closes 30 minutes after its last view, once the watermark has passed
 * that time; a page alert has at least 3 sessions, half of them bounced; and the migration check.
 *
 * <pre>{@code
 * SessionAlertsProperties.invariants().check(SessionAlerts.query(), scenario);   // empty: they hold
 * }</pre>
 */
public final class SessionAlertsProperties {
    private static final List<String> PAGES = List.of("home", "pricing", "docs");
    private static final long GAP_MS = UserSessions.GAP.toMillis();

    private SessionAlertsProperties() {}

    /** Six users (an alert needs three sessions on one page) viewing three landing pages, around the gap and the hour. */
    static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("ana", "bo", "cy", "dee", "eli", "fay")
                .variants(PAGES.toArray(String[]::new))
                .timeMode(TimeMode.EventTime()).watermarkDelay(UserSessions.LATENESS)
                .eventTimeBase(CartWatchProperties.BASE).eventTimeSpread(Duration.ofMinutes(50))
                .interestingDurations(UserSessions.GAP, Duration.ofHours(1)).batches(2, 10).eventsPerBatch(0, 6)
                .restartChance(0.1).triggerIntervals(Duration.ZERO, Duration.ofSeconds(5));
    }

    static final EventFactory<PageView> EVENTS =
            (key, ms, variant) -> new PageView(key, PAGES.get(variant), Instant.ofEpochMilli(ms));

    /** The invariants of sessions and page alerts. */
    public static UserProperty<String, PageView, PageAlert> invariants() {
        return Invariants.property("session_alerts invariants", SessionAlerts.query(), generator(), EVENTS,
                List.of(SessionAlertsProperties::sessionsCloseAfterGap, SessionAlertsProperties::alertsNeedBounces));
    }

    /** A new version answers and keeps state as the old one. */
    public static UserProperty<String, PageView, PageAlert> migration() {
        return Migration.property("session_alerts migration", SessionAlerts.query(), generator(), EVENTS, true);
    }

    private static Optional<String> sessionsCloseAfterGap(RunResult<String, PageView, PageAlert> run,
            TwsSimulator<String, PageView, PageAlert> sim) {
        RunResult<String, PageView, Session> sessions = run.operator(0);
        for (BatchResult<String, PageView, Session> batch : sessions.batches()) {
            for (Session s : batch.outputs()) {
                long closed = s.getClosedAt().getTime();
                if (s.getViews() < 1 || closed != s.getEnd().getTime() + GAP_MS
                        || closed > batch.evictionWatermark().toEpochMilli()) {
                    return Optional.of("batch " + batch.batchId() + " (watermark " + batch.evictionWatermark()
                            + ") closes " + s + "; expected it closed 30 min after its last view, once the watermark passed");
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> alertsNeedBounces(RunResult<String, PageView, PageAlert> run,
            TwsSimulator<String, PageView, PageAlert> sim) {
        return run.outputs().stream().filter(a -> a.getSessions() < 3 || 2 * a.getBounces() < a.getSessions())
                .findFirst().map(a -> "an alert with fewer than 3 sessions or fewer than half bounced: " + a);
    }
}
