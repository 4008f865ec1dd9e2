package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.spark.SparkRuntimeException;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.FailedBatch;
import dev.twstester.RunComparison;
import dev.twstester.Scenario;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.sim.ChainProcessors;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.sim.SparkLine;
import dev.twstester.sim.Event;
import dev.twstester.sim.OutEvent;

/**
 * A query of two {@code transformWithState} operators on live Spark (the upstream with the
 * {@code eventTimeColumnName} overload, the downstream grouped on its output), against the
 * {@link TwsSimulator}: same batches, watermarks, inputs, outputs, timers and metrics per operator
 * ({@link RunResult#operator(int)}), and the {@code EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED}
 * failure between them.
 */
@Tag("live")
class LiveChainTest {
    private static Instant ms(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static void assertSame(RunResult<?, ?, ?> sim, RunResult<?, ?, ?> live) {
        RunComparison.simulatorVsSpark().assertSame(sim.operator(0), live.operator(0));
        RunComparison.simulatorVsSpark().assertSame(sim.operator(1), live.operator(1));
        RunComparison.simulatorVsSpark().assertSame(sim, live);
    }

    @Test
    void two_operators_with_timers_in_both_share_the_watermarks_batch_by_batch() {
        TwsQuery<String, Event, OutEvent> chain = ChainProcessors.chain();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a1", 10000, "timer+5"), new Event("b1", 20000, "x"), new Event("a2", 12000, "x")))
                .batch(List.of(new Event("c1", 40000, "x")))
                .build();

        RunResult<String, Event, OutEvent> live = LiveRunner.of(chain).run(scenario);
        RunResult<String, Event, OutEvent> sim = new TwsSimulator<>(chain).run(scenario);
        assertSame(sim, live);

        assertThat(live.operator(0).batches()).extracting(BatchResult::hadInput).containsExactly(true, false, true, false);
        // one watermark for both operators: late = the previous batch's, eviction = this batch's
        for (var run : List.<RunResult<?, ?, ?>>of(live.operator(0), live.operator(1))) {
            assertThat(run.batches()).extracting(b -> b.lateWatermark().toEpochMilli()).containsExactly(0L, 0L, 15000L, 15000L);
            assertThat(run.batches()).extracting(b -> b.evictionWatermark().toEpochMilli())
                    .containsExactly(0L, 15000L, 15000L, 35000L);
        }
        // the upstream's timer output of the no-data batch 1 is the downstream's input in that batch
        assertThat(live.operator(0).batches().get(1).firedTimers()).containsExactly(new FiredTimer<>("a1", ms(15000)));
        assertThat(live.operator(1).batches().get(1).input()).containsExactly(new OutEvent("a1", 15000, "timer"));
        // each operator's own metrics: the upstream registered 1 timer in batch 0, the downstream 3
        assertThat(live.operator(0).batches().get(0).metric("numRegisteredTimers")).isEqualTo(1);
        assertThat(live.operator(1).batches().get(0).metric("numRegisteredTimers")).isEqualTo(3);
        // the downstream's event-time timers fire at the shared watermark 35000 in the last no-data batch
        assertThat(live.operator(1).batches().get(3).firedTimers()).containsExactly(new FiredTimer<>("a", ms(20000)),
                new FiredTimer<>("a", ms(22000)), new FiredTimer<>("a", ms(25000)), new FiredTimer<>("b", ms(30000)));
        assertThat(live.outputs()).containsExactly(new OutEvent("a", 20000, "count=3 from a1"),
                new OutEvent("a", 22000, "count=3 from a1"), new OutEvent("a", 25000, "count=3 from a1"),
                new OutEvent("b", 30000, "count=1 from b1"));
    }

    @Test
    void an_upstream_row_at_the_late_watermark_fails_the_query_before_the_downstream() {
        TwsQuery<String, Event, OutEvent> chain = ChainProcessors.chain();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a1", 40000, "x")))
                .batch(List.of(new Event("a1", 36000, "emit:35001")))
                .batch(List.of(new Event("a1", 36000, "emit:35000")))
                .build();

        LiveRunException e = catchThrowableOfType(LiveRunException.class, () -> LiveRunner.of(chain).run(scenario));

        assertThat(e.errorClass()).contains("EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED");
        assertThat(e.getCause().getMessage()).contains("eventTime=35000000", "current_watermark_value=35000");
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(chain);
        SparkRuntimeException simError = catchThrowableOfType(SparkRuntimeException.class, () -> sim.run(scenario));
        assertThat(simError.getCondition()).isEqualTo(e.errorClass().orElseThrow());
        assertThat(simError.getMessageParameters()).containsEntry("emittedRowEventTime", "35000000")
                .containsEntry("currentWatermark", "35000");
        // batches 0 to 2 committed on both sides; the failing batch 3 kept nothing and stays in the offset log
        assertThat(e.failedBatch()).map(FailedBatch::batchId).contains(3L);
        assertThat(e.completed()).hasSize(3);
        assertThat(sim.history().batches()).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(List.<Object>copyOf(e.completed().get(i).operators().get(0).outputs())).as("batch %d", i)
                    .isEqualTo(List.<Object>copyOf(sim.history().operator(0).batches().get(i).outputs()));
            assertThat(List.<Object>copyOf(e.completed().get(i).outputs())).as("batch %d's query outputs", i)
                    .isEqualTo(List.<Object>copyOf(sim.history().batches().get(i).outputs()));
        }
        RunComparison.simulatorVsSpark().assertSame(sim.history(),
                new RunResult<>(typed(e.completed()), e.failedBatch().stream().toList()));
        assertThat(sim.<String>state(1).value("count", "a")).contains(2L);
    }

    @SuppressWarnings("unchecked")
    private static List<BatchResult<String, Event, OutEvent>> typed(List<? extends BatchResult<?, ?, ?>> batches) {
        return (List<BatchResult<String, Event, OutEvent>>) batches;
    }

    @Test
    void a_downstream_processor_error_fails_the_batch_of_both_operators() {
        TwsQuery<String, Event, OutEvent> chain = ChainProcessors.chain();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a1", 10000, "timer+1")))
                .batch(List.of(new Event("a1", 11000, "x"), new Event("b1", 11000, "boom")))
                .build();

        LiveRunException e = catchThrowableOfType(LiveRunException.class, () -> LiveRunner.of(chain).run(scenario));

        // Spark 4.0 wraps no user exception: the stage fails with it, without an error class
        assertThat(e.errorClass()).isEqualTo(SparkLine.onClassPath() == SparkLine.V4_0
                ? java.util.Optional.empty() : java.util.Optional.of("TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR"));
        assertThat(e.getCause().getMessage()).contains("boom from b1");
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(chain);
        dev.twstester.ProcessorException simError = catchThrowableOfType(dev.twstester.ProcessorException.class,
                () -> sim.run(scenario));
        assertThat(java.util.Optional.ofNullable(simError.getCondition())).isEqualTo(e.errorClass());
        assertThat(e.completed()).hasSize(2);
        assertThat(sim.history().batches()).hasSize(2);
        assertThat(sim.state().value("n", "a1")).contains(1L);
        assertThat(sim.state().value("n", "b1")).isEmpty();
    }

    @Test
    void a_downstream_failure_commits_nothing_in_either_operator_and_every_start_runs_the_batch_again() {
        TwsQuery<String, Event, OutEvent> chain = ChainProcessors.chain();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a1", 10000, "timer+1")))
                .batch(List.of(new Event("a1", 11000, "x"), new Event("b1", 11000, "boom")))  // batch 2 fails
                .addData(List.of(new Event("c1", 12000, "x")))                              // waits
                .restart()                                                                  // batch 2 fails again
                .build();

        LiveRunException e = catchThrowableOfType(LiveRunException.class, () -> LiveRunner.of(chain).run(scenario));
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(chain);
        catchThrowableOfType(dev.twstester.ProcessorException.class, () -> sim.run(scenario));

        // the restart ran batch 2 again (its rows, not c1's) and it failed again: nothing of it committed
        assertThat(e.failedBatch()).map(FailedBatch::batchId).contains(2L);
        assertThat(e.failedBatch()).map(FailedBatch::rows).contains(2);
        assertThat(e.completed()).hasSize(2);
        assertThat(sim.history().failures()).extracting(FailedBatch::batchId).containsExactly(2L, 2L);
        assertThat(sim.history().failures().get(1)).isEqualTo(e.failedBatch().orElseThrow());
        assertSame(new RunResult<>(sim.history().batches()), new RunResult<>(typed(e.completed())));
        assertThat(sim.state().value("n", "a1")).contains(1L);
        assertThat(sim.<Object>state(1).value("count", "a")).contains(1L);
    }

    @Test
    void a_processing_time_downstream_runs_a_batch_at_every_trigger_though_the_upstream_asks_for_none() {
        TwsQuery<String, Event, OutEvent> chain = ChainProcessors.relay().withTrigger(Trigger.ProcessingTime(1000))
                .then(ChainProcessors.tally(TimeMode.ProcessingTime()));
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batchAt(ms(1000), List.of(new Event("a1", 2000, "x")))
                .tick(ms(2000))
                .tick(ms(3000))
                .build();

        RunResult<String, Event, OutEvent> live = LiveRunner.of(chain).run(scenario);
        RunResult<String, Event, OutEvent> sim = new TwsSimulator<>(chain).run(scenario);
        assertSame(sim, live);

        assertThat(live.operator(1).batches()).extracting(BatchResult::hadInput).containsExactly(true, false, false);
        assertThat(live.operator(1).batches()).extracting(b -> b.batchTimestamp().toEpochMilli())
                .containsExactly(1000L, 2000L, 3000L);
        assertThat(live.operator(1).batches().get(1).firedTimers()).containsExactly(new FiredTimer<>("a", ms(2000)));
        assertThat(live.outputs()).containsExactly(new OutEvent("a", 2000, "count=1 from a1"));
        assertThat(live.operator(0).batches()).allSatisfy(b -> assertThat(b.evictionWatermark()).isEqualTo(ms(0)));
    }

    @Test
    void a_processing_time_downstream_with_the_default_trigger_runs_one_batch_per_clock_move() {
        TwsQuery<String, Event, OutEvent> chain = ChainProcessors.relay()
                .then(ChainProcessors.tally(TimeMode.ProcessingTime()));
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batchAt(ms(1000), List.of(new Event("a1", 20000, "timer+1")))
                .tick(ms(2000))
                .batchAt(ms(3000), List.of(new Event("a1", 30000, "x")))
                .tick(ms(4500))
                .build();

        RunResult<String, Event, OutEvent> live = LiveRunner.of(chain).run(scenario);
        RunResult<String, Event, OutEvent> sim = new TwsSimulator<>(chain).run(scenario);
        assertSame(sim, live);

        assertThat(live.operator(0).batches()).extracting(b -> b.batchTimestamp().toEpochMilli())
                .containsExactly(1000L, 2000L, 3000L, 4500L);
        assertThat(live.operator(0).batches()).extracting(b -> b.evictionWatermark().toEpochMilli())
                .containsExactly(0L, 15000L, 15000L, 25000L);
        // the upstream's event-time timer a1@21000 fires in the batch of the clock move at 4500
        assertThat(live.operator(0).batches().get(3).firedTimers()).containsExactly(new FiredTimer<>("a1", ms(21000)));
        assertThat(live.operator(1).firedTimers()).containsExactly(new FiredTimer<>("a", ms(2000)),
                new FiredTimer<>("a", ms(4000)));
    }

    @Test
    void a_restart_skips_the_pending_no_data_batch_of_both_operators() {
        TwsQuery<String, Event, OutEvent> chain = ChainProcessors.chain();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a1", 10000, "timer+2")))
                .stop()
                .addData(List.of(new Event("a1", 30000, "x"), new Event("b1", 12000, "timer+1")))
                .start()
                .batch(List.of(new Event("b1", 50000, "x")))
                .build();

        RunResult<String, Event, OutEvent> live = LiveRunner.of(chain).run(scenario);
        RunResult<String, Event, OutEvent> sim = new TwsSimulator<>(chain).run(scenario);
        assertSame(sim, live);

        // batch 0 moved the watermark to 5000; its no-data batch ran before the stop
        assertThat(live.operator(0).batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(live.operator(0).batches()).extracting(BatchResult::hadInput)
                .containsExactly(true, false, true, false, true, false);
        assertThat(live.operator(0).firedTimers()).containsExactly(new FiredTimer<>("a1", ms(12000)),
                new FiredTimer<>("b1", ms(13000)));
        assertThat(live.operator(1).firedTimers()).extracting(FiredTimer::expiry)
                .containsExactly(ms(20000), ms(22000), ms(22000), ms(23000), ms(40000));
    }

    /**
     * Generated scenarios (seeded; the seed is in the failure message): late rows, timers in both
     * operators, stops and starts, on 2 or 5 shuffle partitions, with the default trigger or a 1 s
     * interval (then each batch runs at the next trigger time and no-data batches at the one
     * after). {@code -Dtwstester.chain.seed=N} replays the scenarios of seed N.
     */
    @Test
    void generated_chain_scenarios_agree_at_several_partitions_and_trigger_intervals() {
        String fixed = System.getProperty("twstester.chain.seed"); // to replay a failure
        long seed = fixed != null ? Long.parseLong(fixed) : new SplittableRandom().nextLong();
        for (int i = 0; i < 3; i++) {
            long scenarioSeed = seed + i;
            SplittableRandom random = new SplittableRandom(scenarioSeed);
            int partitions = random.nextBoolean() ? 2 : 5;
            long intervalMs = random.nextBoolean() ? 0 : 1000;
            TwsQuery<String, Event, OutEvent> chain = ChainProcessors.chain()
                    .withShufflePartitions(partitions).withTrigger(Trigger.ProcessingTime(intervalMs));
            Scenario<Event> scenario = generate(random);
            String what = "seed " + scenarioSeed + " (" + partitions + " partitions, trigger interval " + intervalMs
                    + " ms), scenario " + scenario;
            RunResult<String, Event, OutEvent> live = LiveRunner.of(chain).run(scenario);
            RunResult<String, Event, OutEvent> sim = new TwsSimulator<>(chain).run(scenario);
            try {
                assertSame(sim, live);
            } catch (AssertionError e) {
                throw new AssertionError(what + ": " + e.getMessage(), e);
            }
        }
    }

    private static Scenario<Event> generate(SplittableRandom random) {
        Scenario.Builder<Event> builder = Scenario.builder();
        long base = 10_000;
        int steps = 4 + random.nextInt(3);
        for (int s = 0; s < steps; s++) {
            List<Event> rows = ChainProcessors.randomRows(random, base);
            base += random.nextInt(0, 12) * 1000L;
            if (s > 0 && random.nextInt(4) == 0) {
                builder.stop().addData(rows).start();
            } else {
                builder.batch(rows);
            }
        }
        return builder.build();
    }
}
