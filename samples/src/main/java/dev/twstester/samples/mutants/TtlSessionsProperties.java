package dev.twstester.samples.mutants;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.property.EventFactory;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.ttl.Click;
import dev.twstester.samples.ttl.SessionClosed;
import dev.twstester.samples.ttl.TtlSessions;
import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * The properties a user writes for {@link TtlSessions} (TTL 30 min, idle gap 20 min): a closed
 * session lists no more pages than clicks, closes 20 minutes after the user's last click, and
 * reports every click since the previous close when its batch runs before the count's TTL ends; and
 * a user keeps state only while one close timer is pending.
 *
 * <pre>{@code
 * TtlSessionsProperties.invariants().check(TtlSessions.query(), scenario);   // empty: they hold
 * }</pre>
 */
public final class TtlSessionsProperties {
    private static final List<String> PAGES = List.of("home", "search", "cart");
    private static final long GAP_MS = TtlSessions.DEFAULT_IDLE_GAP.toMillis();
    private static final long TTL_MS = TtlSessions.TTL.toMillis();

    private TtlSessionsProperties() {}

    /** Two users clicking on three pages, the clock moving 5 or 15 minutes and around the TTL and the gap. */
    static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("ana", "bo").variants(PAGES.size())
                .timeMode(TimeMode.ProcessingTime()).processingTimeSteps(Duration.ofMinutes(5), Duration.ofMinutes(15))
                .interestingDurations(TtlSessions.TTL, TtlSessions.DEFAULT_IDLE_GAP).batches(1, 6).eventsPerBatch(0, 3)
                .restartChance(0.1).triggerIntervals(Duration.ZERO, Duration.ofMinutes(1), Duration.ofMinutes(5));
    }

    static final EventFactory<Click> EVENTS = (key, ms, variant) -> new Click(key, PAGES.get(variant));

    /** The invariants of closed sessions. */
    public static UserProperty<String, Click, SessionClosed> invariants() {
        return Invariants.property("ttl_sessions invariants", TtlSessions.query(), generator(), EVENTS,
                List.of(TtlSessionsProperties::pagesWithinClicks, TtlSessionsProperties::closesAfterLastClick,
                        TtlSessionsProperties::stateOnlyWhileOpen));
    }

    private static Optional<String> pagesWithinClicks(RunResult<String, Click, SessionClosed> run,
            TwsSimulator<String, Click, SessionClosed> sim) {
        return run.outputs().stream().filter(s -> s.getRecentPages().size() > s.getClicks())
                .findFirst().map(s -> "a closed session lists more pages than clicks: " + s);
    }

    /** At the end, a user keeps clicks or pages only while one close timer is pending. */
    private static Optional<String> stateOnlyWhileOpen(RunResult<String, Click, SessionClosed> run,
            TwsSimulator<String, Click, SessionClosed> sim) {
        StateView<String> state = sim.state();
        for (String user : state.keys()) {
            List<Instant> timers = state.timers(user);
            Optional<Long> clicks = state.value("clicks", user);
            List<String> pages = state.list("pages", user);
            if (timers.size() > 1 || timers.isEmpty() && (clicks.isPresent() || !pages.isEmpty())) {
                return Optional.of(user + " keeps clicks " + clicks + " and pages " + pages + " with close timers "
                        + timers + "; expected state only while one close timer is pending");
            }
        }
        return Optional.empty();
    }

    /**
     * Each close comes 20 minutes after the user's last click and counts the clicks since the
     * previous close, unless its batch ran 30 minutes (the TTL) or more after the last click: the
     * count has expired then, and the close reports 0. A click 30 minutes or more after the one
     * before starts the count again (the old count expired before the close could run).
     */
    private static Optional<String> closesAfterLastClick(RunResult<String, Click, SessionClosed> run,
            TwsSimulator<String, Click, SessionClosed> sim) {
        Map<String, Long> lastClick = new HashMap<>();
        Map<String, Long> clicks = new HashMap<>();
        for (BatchResult<String, Click, SessionClosed> batch : run.batches()) {
            long now = batch.batchTimestamp().toEpochMilli();
            for (Click c : batch.input()) {
                Long last = lastClick.put(c.getUser(), now);
                if (last != null && now >= last + TTL_MS) {
                    clicks.remove(c.getUser());   // the count expired before this click
                }
                clicks.merge(c.getUser(), 1L, Long::sum);
            }
            for (SessionClosed s : batch.outputs()) {
                Long last = lastClick.get(s.getUser());
                long expectedClicks = last != null && now < last + TTL_MS ? clicks.getOrDefault(s.getUser(), 0L) : 0L;
                if (last == null || s.getClosedAt().getTime() != last + GAP_MS || s.getClicks() != expectedClicks) {
                    return Optional.of("batch " + batch.batchId() + " closes " + s + "; expected the close 20 min after "
                            + "the last click at " + (last == null ? "none" : Instant.ofEpochMilli(last))
                            + " with " + expectedClicks + " clicks (those since the previous close, 0 past the TTL)");
                }
                clicks.remove(s.getUser());
            }
        }
        return Optional.empty();
    }
}
