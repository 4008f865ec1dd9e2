package dev.twstester.samples.migration;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

import scala.Tuple2;

@TwsTest
class MigrateFromInitialStateTest {
    /** The query seeded with the exported state. */
    static TwsQuery<String, String, Tuple2<String, Long>> exported() {
        return MigrateFromInitialState.query();
    }

    /** The query seeded with several rows for z. */
    static TwsQuery<String, String, Tuple2<String, Long>> seeded() {
        return MigrateFromInitialState.query(
                List.of(Map.entry("z", 1L), Map.entry("z", 2L), Map.entry("z", 4L), Map.entry("y", 100L)));
    }

    @Simulator(query = "exported") TestSimulator<String, String, Tuple2<String, Long>> sim;

    @Test
    void initialStateIsAppliedWithTheFirstBatchOnceForEveryRow() {
        assertThat(sim).keysWithState().isEmpty();                      // nothing before batch 0

        RunResult<String, String, Tuple2<String, Long>> batch0 = sim.runBatch("a", "c");

        assertThat(batch0.batches()).hasSize(1);
        assertThat(batch0).lastBatch().hasBatchId(0);
        // a: 10 + 1; c: no initial row; b only has initial state, so no handleInputRows and no output
        assertThat(batch0).outputs().containsExactly(new Tuple2<>("a", 11L), new Tuple2<>("c", 1L));
        // b was listed twice (20, 21): handleInitialState ran for each row
        assertThat(sim).valueState("points", "b").contains(41L);
        assertThat(sim).keysWithState().containsExactly("a", "b", "c");
    }

    @Test
    void initialStateIsNotAppliedAgainAfterBatch0() {
        sim.runBatch("a");

        RunResult<String, String, Tuple2<String, Long>> batch1 = sim.runBatch("a", "b");

        assertThat(batch1).lastBatch().hasBatchId(1);
        assertThat(batch1).outputs().containsExactly(new Tuple2<>("a", 12L), new Tuple2<>("b", 42L));
    }

    @Test
    void laterInitialRowsOfAKeySeeWhatEarlierOnesWrote(
            @Simulator(query = "seeded") TestSimulator<String, String, Tuple2<String, Long>> seeded) {
        assertThat(seeded.runBatch("z", "y")).outputs()
                .containsExactly(new Tuple2<>("y", 101L), new Tuple2<>("z", 8L));
    }
}
