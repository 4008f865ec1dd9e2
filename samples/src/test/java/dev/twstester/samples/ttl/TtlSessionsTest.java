package dev.twstester.samples.ttl;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

/** Each test takes the simulator of the idle gap it needs, as a parameter naming its query. */
@TwsTest
class TtlSessionsTest {
    /** The 20-minute idle gap. */
    static TwsQuery<String, Click, SessionClosed> query() {
        return TtlSessions.query();
    }

    static TwsQuery<String, Click, SessionClosed> oneHourGap() {
        return TtlSessions.query(Duration.ofHours(1));
    }

    static TwsQuery<String, Click, SessionClosed> gap45Minutes() {
        return TtlSessions.query(Duration.ofMinutes(45));
    }

    private static Instant minute(int m) {
        return Instant.EPOCH.plus(Duration.ofMinutes(m));
    }

    private static RunResult<String, Click, SessionClosed> tick(TestSimulator<String, Click, SessionClosed> sim, int minutes) {
        RunResult<String, Click, SessionClosed> run = sim.advanceProcessingTime(Duration.ofMinutes(minutes));
        assertThat(run.batches()).hasSize(1);
        assertThat(run).lastBatch().isNoDataBatch();
        return run;
    }

    @Test
    void noBatchRunsBeforeTheFirstDataBatch(@Simulator(query = "query") TestSimulator<String, Click, SessionClosed> sim) {
        assertThat(sim.advanceProcessingTime(Duration.ofMinutes(5))).isEmpty();
        assertThat(sim.nextBatchId()).isZero();
    }

    @Test
    void pagesExpireOneByOneAndTheIdleTimerClosesTheSessionWithWhatIsLeft(
            @Simulator(query = "query") TestSimulator<String, Click, SessionClosed> sim) {
        sim.runBatch(new Click("ana", "home"));                         // 00:00, home expires 00:30
        sim.runBatchAt(minute(10), List.of(new Click("ana", "search"))); // search expires 00:40
        sim.runBatchAt(minute(25), List.of(new Click("ana", "cart")));   // cart expires 00:55
        assertThat(sim).listState("pages", "ana").containsExactly("home", "search", "cart");
        assertThat(sim).timers("ana").containsExactly(minute(45));

        tick(sim, 5);                                                   // 00:30: home's TTL is up
        assertThat(sim).listState("pages", "ana").containsExactly("search", "cart");
        assertThat(sim).valueState("clicks", "ana").contains(3L);

        RunResult<String, Click, SessionClosed> close = tick(sim, 15);  // 00:45: idle for 20 min

        assertThat(close).lastBatch().hasBatchTimestamp(minute(45));
        assertThat(close).firedTimers().containsExactly(new FiredTimer<>("ana", minute(45)));
        assertThat(close).outputs().containsExactly(new SessionClosed("ana", 3, List.of("cart"), minute(45)));
        assertThat(sim).hasNoStateFor("ana");
        assertThat(sim).history().hasBatchIds(0, 1, 2, 3, 4);
    }

    @Test
    void aValueIsExpiredExactlyWhenTheBatchTimestampReachesWriteTimePlusTtl(
            @Simulator(query = "oneHourGap") TestSimulator<String, Click, SessionClosed> sim) {
        sim.runBatch(new Click("ana", "home"));                         // written at 00:00, expires 00:30

        sim.setProcessingTime(minute(30).minusMillis(1));
        assertThat(sim).valueState("clicks", "ana").contains(1L);
        assertThat(sim).listState("pages", "ana").containsExactly("home");

        sim.setProcessingTime(minute(30));
        assertThat(sim).valueState("clicks", "ana").isEmpty();
        assertThat(sim).listState("pages", "ana").isEmpty();
    }

    @Test
    void aClickRefreshesTheCountsTtlButNotTheOlderPages(
            @Simulator(query = "oneHourGap") TestSimulator<String, Click, SessionClosed> sim) {
        sim.runBatch(new Click("ana", "home"));
        sim.runBatchAt(minute(20), List.of(new Click("ana", "search"))); // clicks rewritten, expires 00:50

        tick(sim, 10);                                                  // 00:30

        assertThat(sim).valueState("clicks", "ana").contains(2L);
        assertThat(sim).listState("pages", "ana").containsExactly("search");
    }

    @Test
    void aClickAtTheTtlDeadlineSeesTheOldCountExpiredAndItsRewriteSurvivesCleanup(
            @Simulator(query = "oneHourGap") TestSimulator<String, Click, SessionClosed> sim) {
        sim.runBatch(new Click("ana", "home"));                         // clicks=1, expires 00:30

        sim.runBatchAt(minute(30), List.of(new Click("ana", "search")));

        assertThat(sim).valueState("clicks", "ana").contains(1L);       // count started over, expires 01:00
        assertThat(sim).listState("pages", "ana").containsExactly("search");
        sim.setProcessingTime(minute(59));
        assertThat(sim).valueState("clicks", "ana").contains(1L);
    }

    @Test
    void aClickArrivingAtTheIdleDeadlineIsHandledBeforeTheTimerSoTheSessionStaysOpen(
            @Simulator(query = "query") TestSimulator<String, Click, SessionClosed> sim) {
        sim.runBatch(new Click("ana", "home"));                         // timer at 00:20

        // the trigger at 00:20 finds the click waiting: one batch, input first, then the timer scan
        RunResult<String, Click, SessionClosed> run = sim.runBatchAt(minute(20), List.of(new Click("ana", "search")));

        assertThat(run.batches()).hasSize(1);
        assertThat(run).lastBatch().isDataBatch().hasBatchTimestamp(minute(20));
        assertThat(run).firedTimers().isEmpty();
        assertThat(run).outputs().isEmpty();
        assertThat(sim).timers("ana").containsExactly(minute(40));
        assertThat(sim).listState("pages", "ana").containsExactly("home", "search");
    }

    @Test
    void anIdleGapLongerThanTheTtlLosesTheSessionBeforeItCloses(
            @Simulator(query = "gap45Minutes") TestSimulator<String, Click, SessionClosed> sim) {
        sim.runBatch(new Click("ana", "home"), new Click("ana", "search"));

        tick(sim, 30);
        assertThat(sim).valueState("clicks", "ana").isEmpty();
        assertThat(sim).listState("pages", "ana").isEmpty();
        assertThat(sim).timers("ana").containsExactly(minute(45));

        RunResult<String, Click, SessionClosed> close = tick(sim, 15);

        assertThat(close).outputs().containsExactly(new SessionClosed("ana", 0, List.of(), minute(45)));
    }
}
