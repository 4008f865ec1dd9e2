package dev.twstester.samples.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.sim.TwsSimulator;

import scala.Tuple2;

class MigrateFromInitialStateTest {
    private final TwsSimulator<String, String, Tuple2<String, Long>> sim =
            new TwsSimulator<>(MigrateFromInitialState.query());

    @Test
    void initialStateIsAppliedWithTheFirstBatchOnceForEveryRow() {
        assertThat(sim.state().keys()).isEmpty();                       // nothing before batch 0

        RunResult<String, String, Tuple2<String, Long>> batch0 = sim.runBatch("a", "c");

        assertThat(batch0.batches()).hasSize(1);
        assertThat(batch0.lastBatch().batchId()).isZero();
        // a: 10 + 1; c: no initial row; b only has initial state, so no handleInputRows and no output
        assertThat(batch0.outputs()).containsExactly(new Tuple2<>("a", 11L), new Tuple2<>("c", 1L));
        // b was listed twice (20, 21): handleInitialState ran for each row
        assertThat(sim.state().<Long>value("points", "b")).contains(41L);
        assertThat(sim.state().keys()).containsExactly("a", "b", "c");
    }

    @Test
    void initialStateIsNotAppliedAgainAfterBatch0() {
        sim.runBatch("a");

        RunResult<String, String, Tuple2<String, Long>> batch1 = sim.runBatch("a", "b");

        assertThat(batch1.lastBatch().batchId()).isEqualTo(1L);
        assertThat(batch1.outputs()).containsExactly(new Tuple2<>("a", 12L), new Tuple2<>("b", 42L));
    }

    @Test
    void laterInitialRowsOfAKeySeeWhatEarlierOnesWrote() {
        TwsSimulator<String, String, Tuple2<String, Long>> seeded = new TwsSimulator<>(MigrateFromInitialState.query(
                List.of(Map.entry("z", 1L), Map.entry("z", 2L), Map.entry("z", 4L), Map.entry("y", 100L))));

        assertThat(seeded.runBatch("z", "y").outputs())
                .containsExactly(new Tuple2<>("y", 101L), new Tuple2<>("z", 8L));
    }
}
