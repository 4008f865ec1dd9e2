package dev.twstester.samples.fraud;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.twstester.RunComparison;
import dev.twstester.RunDifference.Aspect;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.sim.TwsSimulator;

/**
 * The state handover of a migration on the simulator: the machine runs the first part of the
 * story; its state (each card's CardState and pending timeout) becomes the port's initial state;
 * the port runs the rest and answers as the machine does when it runs on.
 */
class FraudHandoverTest {

    static Instant minute(long m) {
        return Instant.EPOCH.plus(Duration.ofMinutes(m));
    }

    static Payment pay(String card, long cents) {
        return new Payment(card, "shop", cents);
    }

    /** Before the migration: c1 suspicious (timeout 00:30), c2 blocked (timeout 24:05), c3 normal. */
    static Scenario<Payment> before() {
        return Scenario.<Payment>builder()
                .batchAt(minute(0), List.of(pay("c1", 1_000_00), pay("c2", 2_000_00), pay("c3", 5_00)))
                .batchAt(minute(5), List.of(pay("c2", 3_000_00)))
                .build();
    }

    /** After it: c2 declined, c1's timeout due strictly after 00:30, c3 suspicious, c2's block ends. */
    static Scenario<Payment> after() {
        return Scenario.<Payment>builder()
                .batchAt(minute(20), List.of(pay("c2", 1_00), pay("c3", 1_500_00)))
                .tick(minute(30))
                .tick(minute(30).plusMillis(1))
                .tick(minute(20 + 24 * 60).plusMillis(1))
                .build();
    }

    static final RunComparison<Object> SAME_ANSWERS = RunComparison.between("old", "new").ordered(false)
            .ignoring(Aspect.BATCH_ID, Aspect.FIRED_TIMERS, Aspect.METRICS);

    @Test
    void the_port_takes_over_the_machines_state_and_pending_timeouts() {
        TwsSimulator<String, Payment, CardStatus> machine = new TwsSimulator<>(FraudStateMachine.query());
        machine.run(before());

        List<Map.Entry<String, CardHandover>> handedOver = FraudStateProcessor.handover(machine.state());
        assertThat(handedOver).containsExactly(
                Map.entry("c1", new CardHandover(new CardState(CardStatus.SUSPICIOUS, 1), minute(30).toEpochMilli())),
                Map.entry("c2", new CardHandover(new CardState(CardStatus.BLOCKED, 2),
                        minute(5 + 24 * 60).toEpochMilli())));

        RunResult<String, Payment, CardStatus> old = machine.run(after());
        TwsSimulator<String, Payment, CardStatus> port = new TwsSimulator<>(FraudStateProcessor.query(handedOver));
        RunResult<String, Payment, CardStatus> ported = port.run(after());

        SAME_ANSWERS.assertSame(old, ported);
        assertThat(ported.outputs()).containsExactlyInAnyOrder(
                new CardStatus("c2", CardStatus.BLOCKED, CardStatus.DECLINED, 1),
                new CardStatus("c3", CardStatus.SUSPICIOUS, CardStatus.HIGH_AMOUNT, 1),
                new CardStatus("c1", CardStatus.NORMAL, CardStatus.TIMED_OUT, 0),
                new CardStatus("c3", CardStatus.NORMAL, CardStatus.TIMED_OUT, 0),
                new CardStatus("c2", CardStatus.NORMAL, CardStatus.TIMED_OUT, 0));
    }
}
