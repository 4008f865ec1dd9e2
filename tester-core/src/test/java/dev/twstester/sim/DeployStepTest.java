package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/**
 * A {@link Scenario.Deploy} step: the scenario goes on with a new version on the same checkpoint,
 * as {@code restartWith}; after a failed batch it ends the crash loop by running that batch again
 * with the fix (docs/faults.md).
 */
class DeployStepTest {

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    /** Batch 1 fails, rows wait, a start fails it again, the fixed version runs it, then the rest. */
    static Scenario<Event> crashThenFix(TwsQuery<String, Event, String> fixed) {
        return Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 10000, "x")))                      // batch 0, no-data batch 1
                .batchAt(t(2000), List.of(new Event("a", 20000, "x"), new Event("b", 20000, "poison"))) // 2 fails
                .addData(List.of(new Event("c", 30000, "x")))                              // waits: batch 3
                .tick(t(60000))
                .start()                                                                   // batch 2 again: fails
                .tick(t(70000))
                .deploy("PoisonProcessor.Fixed", fixed)                                    // batch 2, then 3
                .batchAt(t(80000), List.of(new Event("a", 40000, "x")))
                .build();
    }

    @Test
    void a_deploy_step_runs_the_failed_batch_with_the_fix_and_the_scenario_goes_on_with_the_new_version() {
        List<String> seen = new ArrayList<>();
        List<TwsSimulator<String, Event, String>> versions = new ArrayList<>();
        TwsSimulator<String, Event, String> sim = TwsSimulator.builder(FailedBatchTest.eventTime(false))
                .listener(new SimulatorListener<>() {
                    @Override
                    public void callEnded(SimulatorCall<Event> call, RunResult<String, Event, String> ran,
                            RuntimeException failure) {
                        seen.add(call.description() + ": " + ran.batches().size() + " batches, "
                                + ran.failures().size() + " failures");
                    }

                    @Override
                    public void restartedWith(TwsSimulator<String, Event, String> next) {
                        versions.add(next);
                    }
                })
                .build();

        RunResult<String, Event, String> run = sim.run(crashThenFix(FailedBatchTest.eventTime(true)));

        assertThat(run.failures()).extracting(FailedBatch::batchId).containsExactly(2L, 2L);
        assertThat(run.failures()).extracting(FailedBatch::batchTimestamp).containsOnly(t(2000));
        assertThat(run.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        BatchResult<String, Event, String> rerun = run.batches().get(2);
        assertThat(rerun.batchTimestamp()).isEqualTo(t(2000));
        assertThat(rerun.outputs()).containsExactly("a:2@pt=2000,wm=5000", "b:skipped@pt=2000,wm=5000");
        assertThat(run.batches().get(3).input()).containsExactly(new Event("c", 30000, "x"));
        assertThat(run.batches().get(3).outputs()).containsExactly("c:1@pt=70000,wm=15000");
        assertThat(run.batches().get(5).outputs()).containsExactly("a:3@pt=80000,wm=25000");
        // one call reported, with all it ran; the new version's simulator runs on, the first one keeps the history
        assertThat(seen).containsExactly("run(scenario of 8 steps): 7 batches, 2 failures");
        assertThat(versions).hasSize(1);
        assertThat(versions.get(0).isRunning()).isTrue();
        assertThat(versions.get(0).state().<Long>value("count", "a")).contains(3L);
        assertThat(sim.isRunning()).isFalse();
        assertThat(sim.history().batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(sim.history().failures()).hasSize(2);
    }

    @Test
    void the_same_scenario_with_restart_with_gives_the_same_run() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(FailedBatchTest.eventTime(false));
        List<Scenario.Step<Event>> steps = crashThenFix(FailedBatchTest.eventTime(true)).steps();
        assertThatThrownBy(() -> sim.run(new Scenario<>(steps.subList(0, 6)))).hasRootCauseMessage("poison row for key b");
        TwsSimulator<String, Event, String> fixed = sim.restartWith(FailedBatchTest.eventTime(true));
        fixed.run(new Scenario<>(steps.subList(7, 8)));

        RunResult<String, Event, String> viaDeploy = new TwsSimulator<>(FailedBatchTest.eventTime(false))
                .run(crashThenFix(FailedBatchTest.eventTime(true)));

        assertThat(viaDeploy.batches()).isEqualTo(fixed.history().batches());
        assertThat(viaDeploy.failures()).isEqualTo(fixed.history().failures());
    }

    @Test
    void a_deploy_of_another_plan_or_without_a_query_is_refused_with_what_to_do() {
        TwsQuery<String, Event, Long> otherOutput = TwsQuery.<String, Event, Long>builder(() -> null)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.LONG())
                .timeMode(TimeMode.None())
                .build();
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(FailedBatchTest.eventTime(false));

        assertThatThrownBy(() -> sim.run(new Scenario<>(List.of(new Scenario.Deploy<>("Other", otherOutput)))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("deploy Other: its key encoder")
                .hasMessageContaining("a new version may change each operator's processor, not the plan");
        assertThatThrownBy(() -> sim.run(new Scenario<>(List.of(new Scenario.Deploy<Event>("com.acme.Q#fixed", null)))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("deploy com.acme.Q#fixed has no query: a plan file names it only; give the step its query"
                        + " (new Scenario.Deploy<>(version, query)) before running it");
        assertThatThrownBy(() -> new Scenario.Deploy<Event>("two words", null))
                .hasMessage("a deploy's version name \"two words\" must be one word without white space, like"
                        + " com.acme.Carts#fixed");
    }
}
