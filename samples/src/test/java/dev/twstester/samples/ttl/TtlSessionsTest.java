package dev.twstester.samples.ttl;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.sim.TwsSimulator;

class TtlSessionsTest {
    private static Instant minute(int m) {
        return Instant.EPOCH.plus(Duration.ofMinutes(m));
    }

    private static RunResult<String, Click, SessionClosed> tick(TwsSimulator<String, Click, SessionClosed> sim, int minutes) {
        RunResult<String, Click, SessionClosed> run = sim.advanceProcessingTime(Duration.ofMinutes(minutes));
        assertThat(run.batches()).hasSize(1);
        assertThat(run.lastBatch().hadInput()).isFalse();
        return run;
    }

    @Test
    void noBatchRunsBeforeTheFirstDataBatch() {
        TwsSimulator<String, Click, SessionClosed> sim = new TwsSimulator<>(TtlSessions.query());

        assertThat(sim.advanceProcessingTime(Duration.ofMinutes(5)).isEmpty()).isTrue();
        assertThat(sim.nextBatchId()).isZero();
    }

    @Test
    void pagesExpireOneByOneAndTheIdleTimerClosesTheSessionWithWhatIsLeft() {
        TwsSimulator<String, Click, SessionClosed> sim = new TwsSimulator<>(TtlSessions.query());

        sim.runBatch(new Click("ana", "home"));                         // 00:00, home expires 00:30
        sim.runBatchAt(minute(10), List.of(new Click("ana", "search"))); // search expires 00:40
        sim.runBatchAt(minute(25), List.of(new Click("ana", "cart")));   // cart expires 00:55
        assertThat(sim.state().list("pages", "ana")).containsExactly("home", "search", "cart");
        assertThat(sim.state().timers("ana")).containsExactly(minute(45));

        tick(sim, 5);                                                   // 00:30: home's TTL is up
        assertThat(sim.state().list("pages", "ana")).containsExactly("search", "cart");
        assertThat(sim.state().<Long>value("clicks", "ana")).contains(3L);

        RunResult<String, Click, SessionClosed> close = tick(sim, 15);  // 00:45: idle for 20 min

        assertThat(close.lastBatch().batchTimestamp()).isEqualTo(minute(45));
        assertThat(close.firedTimers()).containsExactly(new FiredTimer<>("ana", minute(45)));
        assertThat(close.outputs()).containsExactly(new SessionClosed("ana", 3, List.of("cart"), minute(45)));
        assertThat(sim.state().hasState("ana")).isFalse();
        assertThat(sim.history().batches()).extracting(b -> b.batchId()).containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void aValueIsExpiredExactlyWhenTheBatchTimestampReachesWriteTimePlusTtl() {
        TwsSimulator<String, Click, SessionClosed> sim = new TwsSimulator<>(TtlSessions.query(Duration.ofHours(1)));
        sim.runBatch(new Click("ana", "home"));                         // written at 00:00, expires 00:30

        sim.setProcessingTime(minute(30).minusMillis(1));
        assertThat(sim.state().<Long>value("clicks", "ana")).contains(1L);
        assertThat(sim.state().list("pages", "ana")).containsExactly("home");

        sim.setProcessingTime(minute(30));
        assertThat(sim.state().<Long>value("clicks", "ana")).isEmpty();
        assertThat(sim.state().list("pages", "ana")).isEmpty();
    }

    @Test
    void aClickRefreshesTheCountsTtlButNotTheOlderPages() {
        TwsSimulator<String, Click, SessionClosed> sim = new TwsSimulator<>(TtlSessions.query(Duration.ofHours(1)));
        sim.runBatch(new Click("ana", "home"));
        sim.runBatchAt(minute(20), List.of(new Click("ana", "search"))); // clicks rewritten, expires 00:50

        tick(sim, 10);                                                  // 00:30

        assertThat(sim.state().<Long>value("clicks", "ana")).contains(2L);
        assertThat(sim.state().list("pages", "ana")).containsExactly("search");
    }

    @Test
    void aClickAtTheTtlDeadlineSeesTheOldCountExpiredAndItsRewriteSurvivesCleanup() {
        TwsSimulator<String, Click, SessionClosed> sim = new TwsSimulator<>(TtlSessions.query(Duration.ofHours(1)));
        sim.runBatch(new Click("ana", "home"));                         // clicks=1, expires 00:30

        sim.runBatchAt(minute(30), List.of(new Click("ana", "search")));

        assertThat(sim.state().<Long>value("clicks", "ana")).contains(1L); // count started over, expires 01:00
        assertThat(sim.state().list("pages", "ana")).containsExactly("search");
        sim.setProcessingTime(minute(59));
        assertThat(sim.state().<Long>value("clicks", "ana")).contains(1L);
    }

    @Test
    void aClickArrivingAtTheIdleDeadlineIsHandledBeforeTheTimerSoTheSessionStaysOpen() {
        TwsSimulator<String, Click, SessionClosed> sim = new TwsSimulator<>(TtlSessions.query());
        sim.runBatch(new Click("ana", "home"));                         // timer at 00:20

        // the trigger at 00:20 finds the click waiting: one batch, input first, then the timer scan
        RunResult<String, Click, SessionClosed> run = sim.runBatchAt(minute(20), List.of(new Click("ana", "search")));

        assertThat(run.batches()).hasSize(1);
        assertThat(run.lastBatch().hadInput()).isTrue();
        assertThat(run.lastBatch().batchTimestamp()).isEqualTo(minute(20));
        assertThat(run.firedTimers()).isEmpty();
        assertThat(run.outputs()).isEmpty();
        assertThat(sim.state().timers("ana")).containsExactly(minute(40));
        assertThat(sim.state().list("pages", "ana")).containsExactly("home", "search");
    }

    @Test
    void anIdleGapLongerThanTheTtlLosesTheSessionBeforeItCloses() {
        TwsSimulator<String, Click, SessionClosed> sim = new TwsSimulator<>(TtlSessions.query(Duration.ofMinutes(45)));
        sim.runBatch(new Click("ana", "home"), new Click("ana", "search"));

        tick(sim, 30);
        assertThat(sim.state().<Long>value("clicks", "ana")).isEmpty();
        assertThat(sim.state().list("pages", "ana")).isEmpty();
        assertThat(sim.state().timers("ana")).containsExactly(minute(45));

        RunResult<String, Click, SessionClosed> close = tick(sim, 15);

        assertThat(close.outputs()).containsExactly(new SessionClosed("ana", 0, List.of(), minute(45)));
    }
}
