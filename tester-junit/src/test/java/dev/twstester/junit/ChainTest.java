package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * The extension with queries of several operators, {@code keepHistory = false}, {@code restartWith}
 * and a simulator shared with {@code @BeforeAll}, run on {@link ChainExamples} through EngineTestKit.
 */
class ChainTest {
    @TempDir
    Path traces;

    @Test
    void a_query_of_three_operators_gets_a_simulator_and_its_timeline_shows_every_operator() {
        EngineExecutionResults results = Kit.run(ChainExamples.ThreeOperators.class, traces);

        Throwable failure = Kit.failure(results);
        assertThat(failure.getMessage()).contains("Optional[1]");
        String timeline = failure.getSuppressed()[0].getMessage();
        assertThat(timeline).startsWith("timeline of simulator 'sim' (ZoneRelay (EventTime mode, Update output, "
                + "watermark on ts delayed PT5S) then ZoneRelay (EventTime mode, Update output) then TallyProcessor "
                + "(EventTime mode, Update output)): 1 call, 2 batches; times in UTC").contains(String.join("\n",
                "    operator 0: timers fired: none, outputs: 2",
                "      a@1970-01-01T00:00:10Z#0",
                "      b@1970-01-01T00:00:12Z#0",
                "    operator 1: received 2 rows, dropped late: none, timers fired: none, outputs: 2",
                "      a@1970-01-01T00:00:10Z#0",
                "      b@1970-01-01T00:00:12Z#0",
                "    operator 2: received 2 rows, dropped late: none, timers fired: none",
                "    outputs: 2",
                "      a=1",
                "      b=1"),
                "    operator 0, key b2, value state seen: (none) -> 2",
                "    operator 1, key b, value state seen: (none) -> 1",
                "    operator 2, key b, value state count: (none) -> 1");
        assertThat(traces.resolve("dev.twstester.junit.ChainExamples$ThreeOperators/fails_after_a_batch/sim"
                + "/_timeline.html")).exists();
    }

    @Test
    void strict_mode_counts_the_querys_outputs_and_every_operators_due_timers() {
        EngineExecutionResults results = Kit.run(ChainExamples.Strict.class, traces);

        results.testEvents().assertStatistics(s -> s.started(3).succeeded(1).failed(2));
        assertThat(Kit.failure(results, "leaves_outputs_unread()")).hasMessage("""
                strict mode (@TwsTest(strict = true)): simulator 'sim' left 1 output row unread:
                  batch 0: a=2
                read them with sim.output().readAll() or assert them with TwsAssertions.assertThat(...).outputs()""");
        assertThat(Kit.failure(results, "leaves_a_due_timer_in_the_second_operator()")).hasMessage("""
                strict mode (@TwsTest(strict = true)): simulator 'sim' has 1 due timer that did not fire (at or before \
                the watermark 1970-01-01T00:00:05Z):
                  operator 1, key a at 1970-01-01T00:00:04Z
                run another batch so they fire, e.g. sim.runBatch()""");
    }

    @Test
    void keep_history_false_keeps_the_last_calls_and_the_last_batches_of_a_call() {
        EngineExecutionResults results = Kit.run(ChainExamples.BoundedHistory.class, traces);

        Kit.assertPassed(results, 2);
    }

    @Test
    void keep_history_false_cannot_take_a_check_that_replays_every_call() {
        EngineExecutionResults results = Kit.run(ChainExamples.BoundedHistoryCompared.class, traces);

        assertThat(Kit.failure(results)).isInstanceOf(ExtensionConfigurationException.class).hasMessage("@Simulator "
                + "field 'sim' of BoundedHistoryCompared keeps no history (@Simulator(keepHistory = false)), but "
                + "@TwsTest(compareWithSpark = true) replays every call of the test; keep the history or leave the "
                + "check out");
    }

    @Test
    void after_restart_with_the_new_versions_outputs_count_for_strict_mode() {
        EngineExecutionResults results = Kit.run(ChainExamples.RestartedWith.class, traces);

        results.testEvents().assertStatistics(s -> s.started(2).succeeded(1).failed(1));
        assertThat(Kit.failure(results, "leaves_the_new_versions_outputs_unread()")).hasMessageContaining("""
                simulator 'sim' left 1 output row unread:
                  batch 2: a=2""");
    }

    @Test
    void a_restart_with_a_new_version_cannot_be_compared_with_spark() {
        EngineExecutionResults results = Kit.run(ChainExamples.RestartedWithCompared.class, traces);

        assertThat(Kit.failure(results)).isInstanceOf(ExtensionConfigurationException.class).hasMessage("compareWith"
                + "Spark: simulator 'sim' call #2 restartWith(next) cannot be replayed on live Spark: restartWith(next) "
                + "deploys a new version of the query, which a replay of one query cannot; compare a new version with "
                + "Spark by LiveRunner.runThenRestartWith; or leave this test out of the comparison "
                + "(compareWithSpark = false)");
    }

    @Test
    void outputs_asserted_in_before_all_count_as_read() {
        EngineExecutionResults results = Kit.run(ChainExamples.SharedInBeforeAll.class, traces);

        Kit.assertPassed(results, 1);
    }
}
