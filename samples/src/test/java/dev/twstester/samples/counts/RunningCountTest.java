package dev.twstester.samples.counts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.sim.TwsSimulator;

import scala.Tuple2;

class RunningCountTest {
    private final TwsSimulator<String, String, Tuple2<String, Long>> sim = new TwsSimulator<>(RunningCount.query());

    @Test
    void emitsTheRunningCountOfEachKeyWithRowsInAscendingKeyOrder() {
        RunResult<String, String, Tuple2<String, Long>> first = sim.runBatch("b", "a", "b");
        RunResult<String, String, Tuple2<String, Long>> second = sim.runBatch("c", "b");

        assertThat(first.outputs()).containsExactly(new Tuple2<>("a", 1L), new Tuple2<>("b", 2L));
        // a had no rows in the second batch: no call, no output
        assertThat(second.outputs()).containsExactly(new Tuple2<>("b", 3L), new Tuple2<>("c", 1L));
        assertThat(sim.state().<Long>value("count", "a")).contains(1L);
        assertThat(sim.state().<Long>value("count", "b")).contains(3L);
        assertThat(sim.state().keys()).containsExactly("a", "b", "c");
    }

    @Test
    void runsExactlyOneBatchPerCallWithoutWatermarkOrNoDataBatches() {
        sim.runBatch("a");
        sim.runBatch();
        sim.runBatch("a");

        assertThat(sim.history().batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L);
        assertThat(sim.history().batches()).extracting(BatchResult::hadInput).containsExactly(true, true, true);
        assertThat(sim.history().outputs()).containsExactly(new Tuple2<>("a", 1L), new Tuple2<>("a", 2L));
        assertThat(sim.state().timers("a")).isEmpty();
    }

    @Test
    void continuesFromPrepopulatedState() {
        sim.state().setValue("count", "a", 41L);

        assertThat(sim.runBatch("a").outputs()).containsExactly(new Tuple2<>("a", 42L));
    }
}
