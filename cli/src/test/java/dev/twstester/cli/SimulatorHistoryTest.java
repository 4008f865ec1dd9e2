package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.samples.counts.RunningCount;
import dev.twstester.sim.TwsSimulator;

/** The streaming replay relies on dropping the simulator's history; this fails if tester-core changes that. */
class SimulatorHistoryTest {
    @Test
    void forgetEmptiesTheHistoryAndTheSimulatorRunsOnWithItsState() {
        TwsSimulator<String, String, scala.Tuple2<String, Long>> sim = new TwsSimulator<>(RunningCount.query());
        sim.runBatch(List.of("a", "b", "a"));
        assertThat(sim.history().batches()).hasSize(1);

        assertThat(SimulatorHistory.supported()).as("TwsSimulator's private history field").isTrue();
        assertThat(SimulatorHistory.forget(sim)).isTrue();

        assertThat(sim.history().batches()).isEmpty();
        var next = sim.runBatch(List.of("a"));
        assertThat(next.batches().get(0).batchId()).isEqualTo(1);
        assertThat(next.outputs()).containsExactly(new scala.Tuple2<>("a", 3L));
        assertThat(sim.history().batches()).hasSize(1);
    }
}
