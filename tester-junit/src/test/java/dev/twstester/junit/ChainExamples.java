package dev.twstester.junit;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

/**
 * Example test classes for {@link ChainTest}: queries of several operators, {@code keepHistory =
 * false}, {@code restartWith} and shared simulators under the extension; each runs only through
 * {@link Kit}.
 */
final class ChainExamples {
    private ChainExamples() {}

    @ExampleOnly
    @TwsTest(strict = true)
    static class ThreeOperators {
        static TwsQuery<String, Reading, String> threeOperators() {
            return ZoneRelay.query().then(ZoneRelay.downstream()).then(ZoneRelay.tally());
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void fails_after_a_batch() {
            assertThat(sim.runBatch(reading("a1", 10, 0), reading("b2", 11, 5), reading("b2", 12, 0)))
                    .outputs().containsExactly("a=1", "b=1");
            assertThat(sim.<String>state(1).value("seen", "b")).contains(2L);
        }
    }

    @ExampleOnly
    @TwsTest(strict = true)
    static class Strict {
        static TwsQuery<String, Reading, String> chain() {
            return ZoneRelay.chain();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void asserts_the_last_operators_view_of_the_outputs() {
            RunResult<String, Reading, String> run = sim.runBatch(reading("a1", 10, 0), reading("b1", 11, 0));
            RunResult<String, Reading, String> tally = run.operator(1);
            assertThat(tally).outputs().containsExactly("a=1", "b=1");
        }

        @Test
        void leaves_outputs_unread() {
            sim.runBatch(reading("a1", 10, 0), reading("a2", 11, 0));
            assertThat(sim.runBatch(reading("b1", 12, 0))).outputs().containsExactly("b=1");
        }

        @Test
        void leaves_a_due_timer_in_the_second_operator() {
            assertThat(sim.runBatch(reading("a1", 10, 0))).outputs().containsExactly("a=1");
            sim.state(1).registerTimer("a", Instant.ofEpochSecond(4));
        }
    }

    @ExampleOnly
    @TwsTest(strict = true)
    static class BoundedHistory {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator(keepHistory = false) TestSimulator<String, Reading, String> sim;

        @Test
        void keeps_the_last_calls() {
            for (int i = 0; i < 45; i++) {
                sim.runBatch(reading("a", 10 + i, 0));
            }
            assertThat(sim.history().batches()).isEmpty();
            assertThat(sim.output().readAll()).hasSize(45).endsWith("a=45");
            assertThat(sim.timeline()).startsWith("timeline of simulator 'sim' (TallyProcessor, EventTime mode, "
                            + "Update output, watermark on ts delayed PT5S): 45 calls, 90 batches; times in UTC\n"
                            + "(calls #1-#5 left out; with keepHistory = false the last 40 calls are kept)\n"
                            + "#6 runBatch(1 row)\n")
                    .contains("#45 runBatch(1 row)").doesNotContain("#5 runBatch");
        }

        @Test
        void keeps_the_last_batches_of_a_call() {
            Scenario.Builder<Reading> steps = Scenario.builder();
            for (int i = 0; i < 60; i++) {
                steps.batch(List.of(reading("a", 10 + i, 0)));
            }
            sim.run(steps.build());
            assertThat(sim.output().readAll()).hasSize(60);
            assertThat(sim.timeline()).contains("#1 run(scenario of 60 steps)\n  (20 earlier batches of this call left "
                    + "out; with keepHistory = false a call keeps its last 100)\n  batch 20 (data)")
                    .contains("key a, list state kinds: (none) -> [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0");
        }
    }

    @ExampleOnly
    @TwsTest(compareWithSpark = true)
    static class BoundedHistoryCompared {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator(keepHistory = false) TestSimulator<String, Reading, String> sim;

        @Test
        void never_runs() {}
    }

    @ExampleOnly
    @TwsTest(strict = true)
    static class RestartedWith {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void asserts_the_new_versions_outputs() {
            assertThat(sim.runBatch(reading("a", 10, 0))).outputs().containsExactly("a=1");
            TwsSimulator<String, Reading, String> v2 = sim.restartWith(TallyProcessor.query());
            assertThat(v2.runBatch(reading("a", 11, 0))).outputs().containsExactly("a=2");
        }

        @Test
        void leaves_the_new_versions_outputs_unread() {
            assertThat(sim.runBatch(reading("a", 10, 0))).outputs().containsExactly("a=1");
            sim.restartWith(TallyProcessor.query()).runBatch(reading("a", 11, 0));
        }
    }

    @ExampleOnly
    @TwsTest(compareWithSpark = true)
    static class RestartedWithCompared {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void deploys_a_new_version() {
            sim.runBatch(reading("a", 10, 0));
            sim.restartWith(TallyProcessor.query()).runBatch(reading("a", 11, 0));
        }
    }

    @ExampleOnly
    @TwsTest(strict = true)
    static class SharedInBeforeAll {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator static TestSimulator<String, Reading, String> shared;

        @BeforeAll
        static void warmUp() {
            assertThat(shared.runBatch(reading("a", 10, 0))).outputs().containsExactly("a=1");
        }

        @Test
        void goes_on_from_the_warm_up() {
            assertThat(shared.runBatch(reading("a", 11, 0)).lastBatch()).isNoDataBatch();
            assertThat(shared).batch(2).outputs().containsExactly("a=2");
        }
    }
}
