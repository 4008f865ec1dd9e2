package dev.twstester.spark;

import static dev.twstester.sim.MigrationExamples.scalaList;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.sim.Event;
import dev.twstester.sim.MigrationExamples;
import dev.twstester.sim.TwsTester;

import scala.Tuple2;

/**
 * The twstester answers of docs/from-twstester.md against live Spark: each example's calls on
 * {@link TwsTester}, then the same scenario run live and compared, with exact outputs. (Spark's own
 * {@code TwsTester}'s answers are pinned by {@code SparkTwsTesterAnswersTest}.)
 */
@Tag("live")
class LiveMigrationTest {

    @Test
    void initial_state_runs_in_batch_0_and_a_due_timer_fires_after_the_rows_of_its_batch() {
        TwsTester<String, String, String> tester = MigrationExamples.reminders();
        tester.setProcessingTime(1000);
        tester.test("a", scalaList(List.of("now", "remind")));
        tester.setProcessingTime(7000);
        @SuppressWarnings("unchecked")
        TwsQuery<String, Tuple2<String, String>, String> query =
                (TwsQuery<String, Tuple2<String, String>, String>) tester.simulator().query();

        RunResult<String, Tuple2<String, String>, String> live =
                LiveRunner.of(query).run(MigrationExamples.remindersScenario());

        RunComparison.simulatorVsSpark().assertSame(tester.simulator().history(), live);
        assertThat(live.batches()).hasSize(2);
        assertThat(live.batches().get(0).outputs()).containsExactly("a:now#4@1000", "a:remind#5@1000", "a:timer@1000#5");
        assertThat(live.batches().get(1).outputs()).containsExactly("a:timer@6000#5");
    }

    @Test
    void the_watermark_moves_from_event_times_and_a_row_behind_it_is_dropped() {
        TwsTester<String, Event, String> tester = new TwsTester<>(MigrationExamples.echo());
        tester.test("a", scalaList(List.of(new Event("a", 10_000, "timer+1000"))));
        tester.test("a", scalaList(List.of(new Event("a", 3_000, "late"))));

        RunResult<String, Event, String> live = LiveRunner.of(MigrationExamples.echo()).run(MigrationExamples.echoScenario());

        RunComparison.simulatorVsSpark().assertSame(tester.simulator().history(), live);
        assertThat(live.outputs()).containsExactly("a:timer+1000@0");
        assertThat(live.droppedLate()).containsExactly(new Event("a", 3_000, "late"));
    }
}
