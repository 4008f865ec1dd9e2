package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunComparison;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.io.RunResultJson;
import dev.twstester.report.TimelinePage;

/**
 * A failing batch as Spark has it (docs/faults.md): the query stops, the batch stays in the offset
 * log, and every later start runs it again first with its id, rows, timestamp and watermarks.
 */
class FailedBatchTest {

    static TwsQuery<String, Event, String> eventTime(boolean fixed) {
        return query(fixed, TimeMode.EventTime()).watermark("ts", Duration.ofSeconds(5)).build();
    }

    static TwsQuery<String, Event, String> processingTime(boolean fixed) {
        return query(fixed, TimeMode.ProcessingTime()).build();
    }

    private static TwsQuery.Builder<String, Event, String> query(boolean fixed, TimeMode mode) {
        return TwsQuery.builder(fixed ? PoisonProcessor.Fixed::new : PoisonProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .timeMode(mode);
    }

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    @Test
    void a_failed_batch_stops_the_query_and_every_start_runs_it_again_until_a_fix_is_deployed() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(eventTime(false));
        sim.runBatch(new Event("a", 10000, "x"));                       // batch 0, then no-data batch 1 (wm 5000)
        sim.setProcessingTime(t(2000));
        assertThatThrownBy(() -> sim.runBatch(new Event("a", 20000, "x"), new Event("b", 20000, "poison")))
                .hasRootCauseMessage("poison row for key b");
        assertThat(sim.isRunning()).isFalse();
        assertThat(sim.nextBatchId()).isEqualTo(2);
        assertThat(sim.state().value("count", "a")).contains(1L);      // rolled back: a's row of batch 2 is not counted
        assertThatThrownBy(() -> sim.runBatch(new Event("c", 1, "x")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the query stopped after batch 2 failed")
                .hasMessageContaining("restartWith(next)");
        assertThat(sim.waitingRows()).isEmpty();                         // the refused runBatch added nothing

        sim.addData(new Event("c", 30000, "x"));                        // waits: it never joins batch 2
        sim.setProcessingTime(t(60000));
        assertThatThrownBy(sim::start).hasRootCauseMessage("poison row for key b");
        assertThatThrownBy(sim::restart).hasRootCauseMessage("poison row for key b");
        assertThat(sim.waitingRows()).containsExactly(new Event("c", 30000, "x"));
        assertThat(sim.state().value("count", "a")).contains(1L);

        TwsSimulator<String, Event, String> fixed = sim.restartWith(eventTime(true));
        List<BatchResult<String, Event, String>> ran = fixed.history().batches().subList(2, 5);
        BatchResult<String, Event, String> rerun = ran.get(0);
        assertThat(rerun.batchId()).isEqualTo(2);
        assertThat(rerun.input()).containsExactly(new Event("a", 20000, "x"), new Event("b", 20000, "poison"));
        assertThat(rerun.batchTimestamp()).isEqualTo(t(2000));           // from the offset log, not the clock (60000)
        assertThat(rerun.lateWatermark()).isEqualTo(t(5000));
        assertThat(rerun.evictionWatermark()).isEqualTo(t(5000));
        assertThat(rerun.outputs()).containsExactly("a:2@pt=2000,wm=5000", "b:skipped@pt=2000,wm=5000");
        BatchResult<String, Event, String> next = ran.get(1);
        assertThat(next.batchId()).isEqualTo(3);
        assertThat(next.input()).containsExactly(new Event("c", 30000, "x"));
        assertThat(next.batchTimestamp()).isEqualTo(t(60000));
        assertThat(next.lateWatermark()).isEqualTo(t(5000));
        assertThat(next.evictionWatermark()).isEqualTo(t(15000));
        assertThat(next.outputs()).containsExactly("c:1@pt=60000,wm=15000");
        assertThat(ran.get(2).hadInput()).isFalse();
        assertThat(ran.get(2).evictionWatermark()).isEqualTo(t(25000));
        assertThat(fixed.state().value("count", "a")).contains(2L);    // applied once
    }

    @Test
    void the_rerun_fires_processing_time_timers_only_up_to_its_original_timestamp() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(processingTime(false));
        sim.runBatchAt(t(1000), List.of(new Event("a", 0, "timer:1500"), new Event("a", 0, "timer:5000")));
        assertThatThrownBy(() -> sim.runBatchAt(t(2000), List.of(new Event("b", 0, "poison"))))
                .hasRootCauseMessage("poison row for key b");
        sim.setProcessingTime(t(10000));                                  // the query is down: nothing runs
        TwsSimulator<String, Event, String> fixed = sim.restartWith(processingTime(true));
        RunResult<String, Event, String> all = fixed.history();
        BatchResult<String, Event, String> rerun = all.lastBatch();
        assertThat(rerun.batchId()).isEqualTo(1);
        assertThat(rerun.batchTimestamp()).isEqualTo(t(2000));
        assertThat(rerun.outputs()).containsExactly("b:skipped@pt=2000,wm=0", "timer:a:1500@pt=2000,wm=0");
        RunResult<String, Event, String> after = fixed.setProcessingTime(t(10001));
        assertThat(after.batches()).hasSize(1);
        assertThat(after.lastBatch().batchId()).isEqualTo(2);
        assertThat(after.lastBatch().hadInput()).isFalse();
        assertThat(after.outputs()).containsExactly("timer:a:5000@pt=10001,wm=0");
    }

    @Test
    void a_failed_no_data_batch_runs_again_as_a_no_data_batch() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(eventTime(false));
        // batch 0 registers the poison timer; the no-data batch 1 (watermark 5000) fires it and fails
        assertThatThrownBy(() -> sim.runBatch(new Event("a", 10000, "timer:" + PoisonProcessor.POISON_TIMER)))
                .hasRootCauseMessage("poison timer for key a");
        assertThat(sim.history().batches()).hasSize(1);
        assertThat(sim.nextBatchId()).isEqualTo(1);
        sim.addData(new Event("b", 11000, "x"));
        assertThatThrownBy(sim::start).hasRootCauseMessage("poison timer for key a");
        TwsSimulator<String, Event, String> fixed = sim.restartWith(eventTime(true));
        List<BatchResult<String, Event, String>> ran = fixed.history().batches();
        assertThat(ran).hasSize(4);
        BatchResult<String, Event, String> rerun = ran.get(1);
        assertThat(rerun.batchId()).isEqualTo(1);
        assertThat(rerun.hadInput()).isFalse();
        assertThat(rerun.input()).isEmpty();
        assertThat(rerun.outputs()).containsExactly("timer:a:666@pt=0,wm=5000");
        assertThat(ran.get(2).batchId()).isEqualTo(2);
        assertThat(ran.get(2).outputs()).containsExactly("b:1@pt=0,wm=5000");
        assertThat(ran.get(3).hadInput()).isFalse();
    }

    @Test
    void a_scenario_runs_on_after_a_failed_batch_and_listeners_and_the_timeline_see_the_failure_and_the_rerun() {
        List<String> seen = new ArrayList<>();
        TimelinePage<String, Event, String> page = TimelinePage.of(eventTime(false), "crash loop");
        TwsSimulator<String, Event, String> sim = TwsSimulator.builder(eventTime(false))
                .listener(page)
                .listener(new SimulatorListener<>() {
                    @Override
                    public void callEnded(SimulatorCall<Event> call, RunResult<String, Event, String> ran,
                            RuntimeException failure) {
                        seen.add(call.description() + (failure == null ? "" : " threw " + failure.getClass().getSimpleName()));
                    }

                    @Override
                    public void batchFailed(FailedBatch failed, TwsSimulator<String, Event, String> simulator) {
                        seen.add("failed " + failed.batchId() + " at " + failed.batchTimestamp());
                    }

                    @Override
                    public void batchCommitted(BatchResult<String, Event, String> batch,
                            TwsSimulator<String, Event, String> simulator) {
                        seen.add("committed " + batch.batchId());
                    }
                })
                .build();
        Scenario<Event> crashLoop = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 1000, "x")))
                .batchAt(t(2000), List.of(new Event("b", 1000, "poison")))   // batch 1 fails
                .addData(List.of(new Event("c", 1000, "x")))                 // waits while the query is down
                .tick(t(9000))
                .start()                                                     // batch 1 again: fails again
                .build();

        Throwable thrown = catchThrowable(() -> sim.run(crashLoop));

        assertThat(thrown).hasRootCauseMessage("poison row for key b");     // the run ends with the query stopped
        assertThat(sim.history().failures()).extracting(FailedBatch::batchId).containsExactly(1L, 1L);
        assertThat(sim.history().failures().get(1).summary()).isEqualTo("batch 1 (data, 1 row) at "
                + "1970-01-01T00:00:02Z failed: TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR: poison row for key b");
        TwsSimulator<String, Event, String> fixed = sim.restartWith(eventTime(true));
        assertThat(fixed.history().batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L);
        assertThat(seen).containsExactly("committed 0", "failed 1 at 1970-01-01T00:00:02Z",
                "failed 1 at 1970-01-01T00:00:02Z", "run(scenario of 5 steps) threw ProcessorException",
                "committed 1", "committed 2", "restartWith(next)");
        String html = page.html();
        assertThat(html).contains(">failed</text>", ">re-run</text>", "batch 1 (data) failed</h2>",
                "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR", "batch 1 (data), a re-run of failed batch 1</h2>");
    }

    private static Scenario<Event> crashLoop(boolean startAgain) {
        Scenario.Builder<Event> steps = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 1000, "x")))
                .batchAt(t(2000), List.of(new Event("b", 1000, "poison")))   // batch 1 fails
                .tick(t(9000));
        return (startAgain ? steps.start() : steps).build();                   // batch 1 again: fails again
    }

    private static RunResult<String, Event, String> ran(Scenario<Event> scenario) {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(eventTime(false));
        assertThat(catchThrowable(() -> sim.run(scenario))).hasRootCauseMessage("poison row for key b");
        return sim.history();
    }

    @Test
    void a_saved_run_keeps_its_failed_batches_and_a_fresh_run_that_fails_differently_is_told_apart() {
        RunResult<String, Event, String> run = ran(crashLoop(true));
        assertThat(run.failures()).extracting(FailedBatch::batchId).containsExactly(1L, 1L);
        String saved = RunResultJson.writeLines(run, eventTime(false));
        RunResult<String, Event, String> back = RunResultJson.readLines(saved, eventTime(false));
        assertThat(back).isEqualTo(run);
        assertThat(RunResultJson.read(RunResultJson.write(run, eventTime(false)), eventTime(false))).isEqualTo(run);
        RunComparison.between("saved", "fresh").assertSame(back, ran(crashLoop(true)));

        // the same batches, one failure fewer: the saved run's second start is not in the fresh one
        RunResult<String, Event, String> once = ran(crashLoop(false));
        assertThat(once.batches()).isEqualTo(run.batches());
        List<RunDifference> differences = RunComparison.between("saved", "fresh").differences(back, once);
        assertThat(differences).extracting(RunDifference::aspect).containsExactly(RunDifference.Aspect.FAILED_BATCHES);
        assertThat(differences.get(0).batchId()).isEqualTo(1);
        assertThat(differences.get(0).message()).startsWith("failed batches differ\n  saved: ");

        // a saved failure whose message differs
        RunResult<String, Event, String> edited = RunResultJson.readLines(saved.replace("poison row for key b",
                "poison row for key z"), eventTime(false));
        assertThat(RunComparison.between("saved", "fresh").differences(edited, run))
                .extracting(RunDifference::aspect).containsExactly(RunDifference.Aspect.FAILED_BATCHES);
    }

    @Test
    void with_available_now_each_run_runs_the_failed_batch_first_then_the_rows_that_waited() {
        TwsQuery<String, Event, String> availableNow = eventTime(false).withTrigger(Trigger.AvailableNow());
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(availableNow);
        sim.runBatch(new Event("a", 10000, "x"));
        assertThatThrownBy(() -> sim.runBatch(new Event("b", 20000, "poison"))).hasRootCauseMessage("poison row for key b");
        long failed = sim.history().failures().get(0).batchId();
        assertThatThrownBy(() -> sim.runBatch(new Event("c", 30000, "x"))).hasRootCauseMessage("poison row for key b");
        assertThat(sim.waitingRows()).containsExactly(new Event("c", 30000, "x"));

        TwsSimulator<String, Event, String> fixed = sim.restartWith(eventTime(true).withTrigger(Trigger.AvailableNow()));

        List<BatchResult<String, Event, String>> all = fixed.history().batches();
        int rerun = all.size() - 3;                                       // the run again, c's batch, its no-data batch
        assertThat(all.get(rerun).batchId()).isEqualTo(failed);
        assertThat(all.get(rerun).input()).containsExactly(new Event("b", 20000, "poison"));
        assertThat(all.get(rerun + 1).input()).containsExactly(new Event("c", 30000, "x"));
        assertThat(all.get(rerun + 2).hadInput()).isFalse();
        assertThat(fixed.history().failures()).extracting(FailedBatch::batchId).containsExactly(failed, failed);
    }
}
