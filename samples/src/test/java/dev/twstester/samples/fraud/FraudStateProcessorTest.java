package dev.twstester.samples.fraud;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.samples.fraud.FraudStories.minute;
import static dev.twstester.samples.fraud.FraudStories.pay;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

/** The fraud state machine's transformWithState port on the simulator. */
@TwsTest
class FraudStateProcessorTest {
    static TwsQuery<String, Payment, CardStatus> query() {
        return FraudStateProcessor.query();
    }

    @Simulator TestSimulator<String, Payment, CardStatus> sim;

    @Test
    void aHighPaymentMakesACardSuspiciousASecondBlocksItAndLaterPaymentsAreDeclined() {
        RunResult<String, Payment, CardStatus> first = sim.runBatch(pay("c1", 20_00), pay("c1", 1_000_00), pay("c2", 5_00));
        RunResult<String, Payment, CardStatus> second = sim.runBatchAt(minute(1),
                List.of(pay("c1", 1_500_00), pay("c1", 3_00)));

        assertThat(first).outputs().containsExactlyInAnyOrder(
                new CardStatus("c1", CardStatus.SUSPICIOUS, CardStatus.HIGH_AMOUNT, 2),
                new CardStatus("c2", CardStatus.NORMAL, CardStatus.OK, 1));
        assertThat(second).outputs().containsExactly(new CardStatus("c1", CardStatus.BLOCKED, CardStatus.DECLINED, 2));
        assertThat(sim).<CardState>valueState("card", "c1").contains(new CardState(CardStatus.BLOCKED, 2));
        assertThat(sim).hasNoStateFor("c2");
        // the block lasts 24 hours from the last payment, one millisecond after as the legacy timeout
        assertThat(sim).timers("c1").containsExactly(minute(1 + 24 * 60).plusMillis(1));
    }

    @Test
    void aSuspiciousCardIsNormalAgainStrictlyAfterThirtyQuietMinutes() {
        sim.runBatch(pay("c1", 1_000_00));                                 // batch 0 at 00:00

        RunResult<String, Payment, CardStatus> at30 = sim.setProcessingTime(minute(30));
        assertThat(at30).firedTimers().isEmpty();
        assertThat(sim).<CardState>valueState("card", "c1").contains(new CardState(CardStatus.SUSPICIOUS, 1));

        RunResult<String, Payment, CardStatus> after30 = sim.setProcessingTime(minute(30).plusMillis(1));
        assertThat(after30).firedTimers().containsExactly(new FiredTimer<>("c1", minute(30).plusMillis(1)));
        assertThat(after30).outputs().containsExactly(new CardStatus("c1", CardStatus.NORMAL, CardStatus.TIMED_OUT, 0));
        assertThat(sim).hasNoStateFor("c1");
    }

    @Test
    void aPaymentStartsTheWaitAgain() {
        sim.runBatch(pay("c1", 1_000_00));
        sim.runBatchAt(minute(20), List.of(pay("c1", 1_00)));

        assertThat(sim).timers("c1").containsExactly(minute(50).plusMillis(1));
        assertThat(sim.setProcessingTime(minute(40))).outputs().isEmpty();
    }
}
