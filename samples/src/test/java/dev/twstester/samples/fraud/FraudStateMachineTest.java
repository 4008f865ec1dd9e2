package dev.twstester.samples.fraud;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.samples.fraud.FraudStories.minute;
import static dev.twstester.samples.fraud.FraudStories.pay;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.GroupsWithState;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

/** The fraud state machine as Spark's mapGroupsWithState runs it, micro-batch by micro-batch, on the simulator. */
@TwsTest
class FraudStateMachineTest {
    static TwsQuery<String, Payment, CardStatus> query() {
        return FraudStateMachine.query();
    }

    @Simulator TestSimulator<String, Payment, CardStatus> sim;

    @Test
    void everyCallAnswersOneStatusAndABlockedCardDeclines() {
        RunResult<String, Payment, CardStatus> first = sim.runBatch(pay("c1", 20_00), pay("c1", 1_000_00), pay("c2", 5_00));
        RunResult<String, Payment, CardStatus> second = sim.runBatchAt(minute(1),
                List.of(pay("c1", 1_500_00), pay("c1", 3_00)));

        assertThat(first).outputs().containsExactlyInAnyOrder(
                new CardStatus("c1", CardStatus.SUSPICIOUS, CardStatus.HIGH_AMOUNT, 2),
                new CardStatus("c2", CardStatus.NORMAL, CardStatus.OK, 1));
        assertThat(second).outputs().containsExactly(new CardStatus("c1", CardStatus.BLOCKED, CardStatus.DECLINED, 2));
        assertThat(sim).<CardState>valueState(GroupsWithState.STATE_VARIABLE, "c1")
                .contains(new CardState(CardStatus.BLOCKED, 2));
        assertThat(sim).hasNoStateFor("c2");
    }

    @Test
    void theTimeoutFiresOnlyInABatchStrictlyAfterIt() {
        sim.runBatch(pay("c1", 1_000_00));                                 // timeout at 00:30

        assertThat(sim.setProcessingTime(minute(30))).outputs().isEmpty();
        RunResult<String, Payment, CardStatus> after = sim.setProcessingTime(minute(30).plusMillis(1));

        assertThat(after).outputs().containsExactly(new CardStatus("c1", CardStatus.NORMAL, CardStatus.TIMED_OUT, 0));
        assertThat(sim).hasNoStateFor("c1");
    }

    @Test
    void aCardWithPaymentsInABatchDoesNotTimeOutThere() {
        sim.runBatch(pay("c1", 1_000_00));                                 // timeout at 00:30

        RunResult<String, Payment, CardStatus> late = sim.runBatchAt(minute(45), List.of(pay("c1", 1_00)));

        // the timeout was due, but the call with data comes instead and sets a new one
        assertThat(late).outputs().containsExactly(new CardStatus("c1", CardStatus.SUSPICIOUS, CardStatus.HIGH_AMOUNT, 1));
        assertThat(sim.setProcessingTime(minute(75))).outputs().isEmpty();
        assertThat(sim.setProcessingTime(minute(75).plusMillis(1))).outputs()
                .containsExactly(new CardStatus("c1", CardStatus.NORMAL, CardStatus.TIMED_OUT, 0));
    }
}
