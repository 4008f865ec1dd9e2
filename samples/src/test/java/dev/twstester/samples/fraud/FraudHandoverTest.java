package dev.twstester.samples.fraud;

import static dev.twstester.samples.fraud.FraudStories.minute;
import static dev.twstester.samples.fraud.FraudStories.pay;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.RunComparison;
import dev.twstester.RunDifference.Aspect;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.CheckpointState;
import dev.twstester.spark.LiveRunner;

/**
 * The state handover of a migration on the simulator: the machine runs the first part of the
 * story; its state (each card's CardState and pending timeout) becomes the port's initial state;
 * the port runs the rest and answers as the machine does when it runs on.
 */
class FraudHandoverTest {

    /** Before the migration: c1 suspicious (timeout 00:31), c2 blocked (timeout 24:05), c3 normal. */
    static Scenario<Payment> before() {
        return Scenario.<Payment>builder()
                .batchAt(minute(1), List.of(pay("c1", 1_000_00), pay("c2", 2_000_00), pay("c3", 5_00)))
                .batchAt(minute(5), List.of(pay("c2", 3_000_00)))
                .build();
    }

    /** After it: c2 declined, c1's timeout due strictly after 00:31, c3 suspicious, c2's block ends. */
    static Scenario<Payment> after() {
        return Scenario.<Payment>builder()
                .batchAt(minute(20), List.of(pay("c2", 1_00), pay("c3", 1_500_00)))
                .tick(minute(31))
                .tick(minute(31).plusMillis(1))
                .tick(minute(20 + 24 * 60).plusMillis(1))
                .build();
    }

    static final RunComparison<Object> SAME_ANSWERS = RunComparison.between("old", "new").ordered(false)
            .ignoring(Aspect.BATCH_ID, Aspect.FIRED_TIMERS, Aspect.METRICS);

    static List<Map.Entry<String, CardHandover>> expectedHandover() {
        return List.of(
                Map.entry("c1", new CardHandover(new CardState(CardStatus.SUSPICIOUS, 1), minute(31).toEpochMilli())),
                Map.entry("c2", new CardHandover(new CardState(CardStatus.BLOCKED, 2), minute(5 + 24 * 60).toEpochMilli())));
    }

    @Test
    void the_port_takes_over_the_machines_state_and_pending_timeouts() {
        TwsSimulator<String, Payment, CardStatus> machine = new TwsSimulator<>(FraudStateMachine.query());
        machine.run(before());

        List<Map.Entry<String, CardHandover>> handedOver = FraudStateProcessor.handover(machine.state());
        assertThat(handedOver).isEqualTo(expectedHandover());

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

    /**
     * The handover Spark runs: the machine runs live, its checkpoint is read with Spark's state data
     * source at the last batch before the migration, and the port starts live from that state.
     */
    @Tag("live")
    @Test
    void the_port_takes_over_a_live_machines_checkpoint(@TempDir Path dir) {
        Path checkpoint = dir.resolve("machine");
        List<Scenario.Step<Payment>> all = new ArrayList<>(before().steps());
        all.addAll(after().steps());
        RunResult<String, Payment, CardStatus> machineLive = LiveRunner.of(FraudStateMachine.query())
                .keepCheckpointIn(checkpoint).run(new Scenario<>(all));
        int beforeBatches = new TwsSimulator<>(FraudStateMachine.query()).run(before()).batches().size();

        StateSnapshot production = CheckpointState.of(FraudStateMachine.query()).batchId(beforeBatches - 1)
                .read(checkpoint);
        TwsSimulator<String, Payment, CardStatus> machine = new TwsSimulator<>(FraudStateMachine.query());
        machine.restore(production);
        List<Map.Entry<String, CardHandover>> handedOver = FraudStateProcessor.handover(machine.state());
        assertThat(handedOver).isEqualTo(expectedHandover());

        RunResult<String, Payment, CardStatus> portLive = LiveRunner.of(FraudStateProcessor.query(handedOver)).run(after());
        RunResult<String, Payment, CardStatus> machineAfter = new RunResult<>(
                machineLive.batches().subList(beforeBatches, machineLive.batches().size()));
        SAME_ANSWERS.assertSame(machineAfter, portLive);
        assertThat(portLive.outputs()).hasSize(5);
    }
}
