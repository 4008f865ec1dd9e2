package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.Event;
import dev.twstester.sim.PoisonProcessor;
import dev.twstester.sim.SimulatorListener;
import dev.twstester.sim.TwsSimulator;

/**
 * A failing batch and a refused new version on live Spark (docs/faults.md), each compared batch by
 * batch with the simulator: the query stops, every later start runs the failed batch again with its
 * id, rows, timestamp and watermarks, rows added while it is down form the next batch, and a fixed
 * version (or a rollback from a refused one) runs it with the fix at its original timestamp.
 */
@Tag("live")
class LiveFailedBatchTest {

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static TwsQuery<String, Event, String> query(Supplier<? extends StatefulProcessor<String, Event, String>> processor,
            TimeMode mode) {
        TwsQuery.Builder<String, Event, String> b = TwsQuery.<String, Event, String>builder(processor::get)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .timeMode(mode);
        return (mode.equals(TimeMode.EventTime()) ? b.watermark("ts", Duration.ofSeconds(5)) : b).build();
    }

    /** The simulator's run of {@code scenarios}, a version each, deployed one after another on one checkpoint. */
    private static RunResult<String, Event, String> simulated(List<TwsQuery<String, Event, String>> versions,
            List<Scenario<Event>> scenarios) {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(versions.get(0));
        for (int i = 0; i < versions.size(); i++) {
            if (i > 0) {
                sim = sim.restartWith(versions.get(i));
            }
            TwsSimulator<String, Event, String> current = sim;
            Scenario<Event> scenario = scenarios.get(i);
            Throwable failed = catchThrowable(() -> current.run(scenario));
            assertThat(failed == null || i < versions.size() - 1).as("the last version's run fails: " + failed).isTrue();
        }
        return sim.history();
    }

    @Test
    void a_crash_loop_over_two_restarts_then_the_fix_runs_the_failed_batch_at_its_original_time() {
        TwsQuery<String, Event, String> v1 = query(PoisonProcessor::new, TimeMode.EventTime());
        TwsQuery<String, Event, String> fixed = query(PoisonProcessor.Fixed::new, TimeMode.EventTime());
        Scenario<Event> crashLoop = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 10000, "x")))        // batch 0, no-data batch 1
                .batchAt(t(2000), List.of(new Event("a", 20000, "x"), new Event("b", 20000, "poison"))) // 2 fails
                .addData(List.of(new Event("c", 30000, "x")))                 // while down: the next batch
                .tick(t(60000))
                .start()                                                      // batch 2 again: fails
                .tick(t(70000))
                .start()                                                      // and again
                .build();
        Scenario<Event> after = Scenario.<Event>builder()
                .batchAt(t(80000), List.of(new Event("a", 40000, "x")))
                .build();

        RunResult<String, Event, String> live = LiveRunner.of(v1).runThenRestartWith(crashLoop, fixed, after);

        assertThat(live.failures()).extracting(FailedBatch::batchId).containsExactly(2L, 2L, 2L);
        assertThat(live.failures()).extracting(FailedBatch::batchTimestamp).containsOnly(t(2000));
        assertThat(live.failures()).extracting(FailedBatch::rows).containsOnly(2);
        assertThat(live.failures().get(0).rootMessage()).isEqualTo("poison row for key b");
        BatchResult<String, Event, String> rerun = live.batches().get(2);
        assertThat(rerun.batchId()).isEqualTo(2);
        assertThat(rerun.batchTimestamp()).isEqualTo(t(2000));
        assertThat(rerun.lateWatermark()).isEqualTo(t(5000));
        assertThat(rerun.evictionWatermark()).isEqualTo(t(5000));
        assertThat(rerun.outputs()).containsExactly("a:2@pt=2000,wm=5000", "b:skipped@pt=2000,wm=5000");
        BatchResult<String, Event, String> next = live.batches().get(3);
        assertThat(next.batchId()).isEqualTo(3);
        assertThat(next.input()).containsExactly(new Event("c", 30000, "x"));
        assertThat(next.outputs()).containsExactly("c:1@pt=70000,wm=15000");
        RunComparison.simulatorVsSpark().assertSame(simulated(List.of(v1, fixed), List.of(crashLoop, after)), live);
    }

    @Test
    void a_deploy_step_ends_the_crash_loop_within_one_scenario_and_the_new_version_runs_on() {
        TwsQuery<String, Event, String> v1 = query(PoisonProcessor::new, TimeMode.EventTime());
        TwsQuery<String, Event, String> fixed = query(PoisonProcessor.Fixed::new, TimeMode.EventTime());
        Scenario<Event> story = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 10000, "x")))        // batch 0, no-data batch 1
                .batchAt(t(2000), List.of(new Event("a", 20000, "x"), new Event("b", 20000, "poison"))) // 2 fails
                .addData(List.of(new Event("c", 30000, "x")))                 // while down: batch 3
                .tick(t(60000))
                .start()                                                      // batch 2 again: fails
                .tick(t(70000))
                .deploy("PoisonProcessor.Fixed", fixed)                       // batch 2 with the fix, then 3
                .batchAt(t(80000), List.of(new Event("a", 40000, "x")))       // the new version runs on
                .build();
        List<TwsSimulator<String, Event, String>> deployed = new ArrayList<>();
        TwsSimulator<String, Event, String> sim = TwsSimulator.builder(v1).listener(new SimulatorListener<>() {
            @Override
            public void restartedWith(TwsSimulator<String, Event, String> next) {
                deployed.add(next);
            }
        }).build();

        LiveOutcome<String, Event, String> live = LiveRunner.of(v1).runWithEndState(story);
        RunResult<String, Event, String> simulated = sim.run(story);

        assertThat(live.run().failures()).extracting(FailedBatch::batchId).containsExactly(2L, 2L);
        assertThat(live.run().batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(live.run().batches().get(2).batchTimestamp()).isEqualTo(t(2000));
        assertThat(live.run().batches().get(2).outputs()).containsExactly("a:2@pt=2000,wm=5000", "b:skipped@pt=2000,wm=5000");
        assertThat(live.run().batches().get(5).outputs()).containsExactly("a:3@pt=80000,wm=25000");
        RunComparison.simulatorVsSpark().assertSame(simulated, live.run());
        assertThat(RunComparison.simulatorVsSpark().stateDifferences(deployed.get(0).snapshot(), live.endState()))
                .isEmpty();
    }

    @Test
    void a_failed_no_data_batch_runs_again_as_a_no_data_batch() {
        TwsQuery<String, Event, String> v1 = query(PoisonProcessor::new, TimeMode.EventTime());
        TwsQuery<String, Event, String> fixed = query(PoisonProcessor.Fixed::new, TimeMode.EventTime());
        Scenario<Event> story = Scenario.<Event>builder()
                // batch 0 registers the poison timer; the no-data batch 1 (watermark 5000) fires it and fails
                .batchAt(t(1000), List.of(new Event("a", 10000, "timer:" + PoisonProcessor.POISON_TIMER)))
                .addData(List.of(new Event("b", 11000, "x")))                 // while down: batch 2
                .tick(t(3000))
                .restart()                                                    // the no-data batch 1 fails again
                .tick(t(4000))
                .deploy("PoisonProcessor.Fixed", fixed)                       // no-data batch 1, then b's batch 2
                .build();

        RunResult<String, Event, String> live = LiveRunner.of(v1).run(story);
        RunResult<String, Event, String> simulated = new TwsSimulator<>(v1).run(story);

        assertThat(live.failures()).extracting(FailedBatch::batchId).containsExactly(1L, 1L);
        assertThat(live.failures()).extracting(FailedBatch::hadInput).containsOnly(false);
        BatchResult<String, Event, String> rerun = live.batches().get(1);
        assertThat(rerun.batchId()).isEqualTo(1);
        assertThat(rerun.hadInput()).isFalse();
        assertThat(rerun.outputs()).containsExactly("timer:a:666@pt=1000,wm=5000");
        assertThat(live.batches().get(2).input()).containsExactly(new Event("b", 11000, "x"));
        RunComparison.simulatorVsSpark().assertSame(simulated, live);
    }

    @Test
    void with_available_now_every_run_runs_the_failed_batch_first_then_the_rows_that_waited() {
        TwsQuery<String, Event, String> v1 = query(PoisonProcessor::new, TimeMode.EventTime())
                .withTrigger(org.apache.spark.sql.streaming.Trigger.AvailableNow());
        TwsQuery<String, Event, String> fixed = query(PoisonProcessor.Fixed::new, TimeMode.EventTime())
                .withTrigger(org.apache.spark.sql.streaming.Trigger.AvailableNow());
        Scenario<Event> story = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 10000, "x")))
                .batchAt(t(2000), List.of(new Event("b", 20000, "poison")))   // fails
                .batchAt(t(3000), List.of(new Event("c", 30000, "x")))        // a run: the failed batch again, fails
                .tick(t(4000))
                .deploy("PoisonProcessor.Fixed", fixed)                       // the failed batch, then c's
                .build();

        RunResult<String, Event, String> live = LiveRunner.of(v1).run(story);
        RunResult<String, Event, String> simulated = new TwsSimulator<>(v1).run(story);

        assertThat(live.failures()).hasSize(2);
        long failed = live.failures().get(0).batchId();
        assertThat(live.failures()).extracting(FailedBatch::batchId).containsOnly(failed);
        BatchResult<String, Event, String> rerun = live.batches().stream().filter(b -> b.batchId() == failed)
                .findFirst().orElseThrow();
        assertThat(rerun.input()).containsExactly(new Event("b", 20000, "poison"));
        assertThat(rerun.batchTimestamp()).isEqualTo(t(2000));
        assertThat(live.batches().get(live.batches().indexOf(rerun) + 1).input())
                .containsExactly(new Event("c", 30000, "x"));
        RunComparison.simulatorVsSpark().assertSame(simulated, live);
    }

    @Test
    void the_rerun_fires_processing_time_timers_up_to_its_original_timestamp_and_overdue_ones_in_the_next_batch() {
        TwsQuery<String, Event, String> v1 = query(PoisonProcessor::new, TimeMode.ProcessingTime());
        TwsQuery<String, Event, String> fixed = query(PoisonProcessor.Fixed::new, TimeMode.ProcessingTime());
        Scenario<Event> crash = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 0, "timer:1500"), new Event("a", 0, "timer:5000")))
                .batchAt(t(2000), List.of(new Event("b", 0, "poison")))       // batch 1 fails
                .tick(t(10000))
                .start()                                                      // batch 1 again, at 2000: fails
                .build();
        Scenario<Event> after = Scenario.<Event>builder().tick(t(10001)).build();

        RunResult<String, Event, String> live = LiveRunner.of(v1).runThenRestartWith(crash, fixed, after);

        assertThat(live.failures()).extracting(FailedBatch::batchId).containsExactly(1L, 1L);
        BatchResult<String, Event, String> rerun = live.batches().get(1);
        assertThat(rerun.batchId()).isEqualTo(1);
        assertThat(rerun.batchTimestamp()).isEqualTo(t(2000));
        assertThat(rerun.outputs()).containsExactly("b:skipped@pt=2000,wm=0", "timer:a:1500@pt=2000,wm=0");
        assertThat(live.batches().get(2).outputs()).containsExactly("timer:a:5000@pt=10001,wm=0");
        RunComparison.simulatorVsSpark().assertSame(simulated(List.of(v1, fixed), List.of(crash, after)), live);
    }

    @Test
    void a_refused_version_fails_at_its_first_data_batch_and_the_rollback_runs_it_at_its_original_timestamp() {
        TwsQuery<String, Event, String> v1 = query(PoisonProcessor.WithTtl::new, TimeMode.ProcessingTime());
        TwsQuery<String, Event, String> refused = query(PoisonProcessor.CountAsList::new, TimeMode.ProcessingTime());
        Scenario<Event> first = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 0, "x")))            // a=1, expires at 11000
                .build();
        Scenario<Event> deploy = Scenario.<Event>builder()
                .tick(t(2000))                                                // an idle trigger: nothing fails
                .batchAt(t(3000), List.of(new Event("a", 0, "x")))            // batch 1 fails: the refusal
                .tick(t(9000))
                .build();
        Scenario<Event> rollback = Scenario.<Event>builder()
                // batch 1 ran at 3000 on the rollback: a=2 expires at 13000 (at 19000 had it run at the rollback's clock)
                .batchAt(t(15000), List.of(new Event("a", 0, "x")))
                .build();
        List<TwsQuery<String, Event, String>> versions = List.of(v1, refused, v1);
        List<Scenario<Event>> scenarios = List.of(first, deploy, rollback);

        RunResult<String, Event, String> live = LiveRunner.of(v1).runVersions(versions, scenarios);

        assertThat(live.failures()).hasSize(1);
        FailedBatch failed = live.failures().get(0);
        assertThat(failed.batchId()).isEqualTo(1);
        assertThat(failed.batchTimestamp()).isEqualTo(t(3000));
        assertThat(failed.errorClass()).isEqualTo("STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE"); // a TTL value as a list without TTL
        assertThat(live.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L);
        assertThat(live.batches().get(1).outputs()).containsExactly("a:2@pt=3000,wm=0");
        assertThat(live.batches().get(2).outputs()).containsExactly("a:1@pt=15000,wm=0");
        RunComparison.simulatorVsSpark().assertSame(simulated(versions, scenarios), live);
    }

    @Test
    void an_init_failure_fails_batch_zero_at_every_start_until_a_fixed_version_runs_it() {
        TwsQuery<String, Event, String> broken = query(PoisonProcessor.InitFails::new, TimeMode.ProcessingTime());
        TwsQuery<String, Event, String> fixed = query(PoisonProcessor::new, TimeMode.ProcessingTime());
        Scenario<Event> crash = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 0, "x")))            // batch 0 fails: the driver pass
                .tick(t(5000))
                .start()                                                      // batch 0 again: fails
                .build();
        Scenario<Event> after = Scenario.<Event>builder().batchAt(t(6000), List.of(new Event("a", 0, "x"))).build();

        LiveRunException crashed = org.assertj.core.api.Assertions.catchThrowableOfType(LiveRunException.class,
                () -> LiveRunner.of(broken).run(crash));
        assertThat(crashed.failedBatch()).isPresent();
        assertThat(crashed.failedBatch().get().batchId()).isZero();
        assertThat(crashed.failedBatch().get().rootMessage()).isEqualTo("init fails");
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(broken);
        Throwable simCrash = catchThrowable(() -> sim.run(crash));
        assertThat(simCrash).isNotNull(); // wrapped in TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR on 4.1 on, as it is on 4.0
        assertThat(sim.history().failures()).hasSize(2).last().isEqualTo(crashed.failedBatch().get());

        RunResult<String, Event, String> live = LiveRunner.of(broken).runThenRestartWith(crash, fixed, after);

        assertThat(live.failures()).extracting(FailedBatch::batchId).containsExactly(0L, 0L);
        assertThat(live.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
        assertThat(live.batches().get(0).batchTimestamp()).isEqualTo(t(1000));
        assertThat(live.outputs()).containsExactly("a:1@pt=1000,wm=0", "a:2@pt=6000,wm=0");
        RunComparison.simulatorVsSpark().assertSame(simulated(List.of(broken, fixed), List.of(crash, after)), live);
    }
}
