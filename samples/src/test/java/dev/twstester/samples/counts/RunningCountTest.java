package dev.twstester.samples.counts;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

import scala.Tuple2;

@TwsTest
class RunningCountTest {
    static TwsQuery<String, String, Tuple2<String, Long>> query() {
        return RunningCount.query();
    }

    @Simulator TestSimulator<String, String, Tuple2<String, Long>> sim;

    /** Also replayed on live Spark after it passes: any difference in batches or outputs fails it. */
    @Test
    @Tag("live")
    @TwsTest(compareWithSpark = true)
    void emitsTheRunningCountOfEachKeyWithRowsInAscendingKeyOrder() {
        RunResult<String, String, Tuple2<String, Long>> first = sim.runBatch("b", "a", "b");
        RunResult<String, String, Tuple2<String, Long>> second = sim.runBatch("c", "b");

        assertThat(first).outputs().containsExactly(new Tuple2<>("a", 1L), new Tuple2<>("b", 2L));
        // a had no rows in the second batch: no call, no output
        assertThat(second).outputs().containsExactly(new Tuple2<>("b", 3L), new Tuple2<>("c", 1L));
        assertThat(sim).valueState("count", "a").contains(1L);
        assertThat(sim).valueState("count", "b").contains(3L);
        assertThat(sim).keysWithState().containsExactly("a", "b", "c");
    }

    @Test
    void runsExactlyOneBatchPerCallWithoutWatermarkOrNoDataBatches() {
        sim.runBatch("a");
        sim.runBatch();
        sim.runBatch("a");

        assertThat(sim).history().hasBatchIds(0, 1, 2);
        assertThat(sim.history().batches()).extracting(BatchResult::hadInput).containsExactly(true, true, true);
        assertThat(sim).outputs().containsExactly(new Tuple2<>("a", 1L), new Tuple2<>("a", 2L));
        assertThat(sim).timers("a").isEmpty();
    }

    @Test
    void continuesFromPrepopulatedState() {
        sim.state().setValue("count", "a", 41L);

        assertThat(sim.runBatch("a")).outputs().containsExactly(new Tuple2<>("a", 42L));
    }
}
