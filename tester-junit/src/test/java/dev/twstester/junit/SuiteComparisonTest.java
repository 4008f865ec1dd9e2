package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.TestAbortedException;

/**
 * {@code twstester.compareWithSpark=true} without Spark: tests Spark cannot replay are skipped with
 * the reason, a test that fails on the simulator still fails. The replays themselves are in
 * {@link TwsExtensionLiveTest}.
 */
class SuiteComparisonTest {
    @TempDir
    Path traces;

    @Test
    void tests_spark_cannot_replay_are_skipped_with_the_reason() {
        EngineExecutionResults results = Kit.run(SuiteComparisonExamples.NotReplayable.class, traces,
                TwsTest.COMPARE_WITH_SPARK_PROPERTY, "true");

        results.testEvents().assertStatistics(s -> s.started(4).aborted(3).failed(1).succeeded(0));
        assertThat(abortReason(results, "forces_the_watermark()")).isEqualTo("not compared with live Spark "
                + "(twstester.compareWithSpark=true): compareWithSpark: simulator 'sim' call #2 "
                + "advanceWatermarkTo(1970-01-01T00:00:20Z) cannot be replayed on live Spark: Spark moves the watermark "
                + "only from the event times of input rows; drive it with input (runBatch) instead");
        assertThat(abortReason(results, "uses_the_class_simulator()")).isEqualTo("not compared with live Spark "
                + "(twstester.compareWithSpark=true): compareWithSpark: simulator 'shared' is shared by the test class, "
                + "and the comparison replays one test's calls on a new Spark query; give the test a simulator of its "
                + "own to compare it");
        assertThat(abortReason(results, "keeps_no_history()")).isEqualTo("not compared with live Spark "
                + "(twstester.compareWithSpark=true): compareWithSpark: simulator 'forgetful' keeps no history "
                + "(@Simulator(keepHistory = false)), and the comparison replays every call of the test");
        assertThat(Kit.failure(results, "fails_on_the_simulator()")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("a=2");
    }

    @Test
    void without_the_parameter_the_same_tests_pass_uncompared() {
        EngineExecutionResults results = Kit.run(SuiteComparisonExamples.NotReplayable.class, traces,
                TwsTest.COMPARE_WITH_SPARK_PROPERTY, "false");

        results.testEvents().assertStatistics(s -> s.started(4).succeeded(3).failed(1).aborted(0));
    }

    @Test
    void a_value_other_than_true_or_false_is_refused() {
        EngineExecutionResults results = Kit.run(SuiteComparisonExamples.NotReplayable.class, traces,
                TwsTest.COMPARE_WITH_SPARK_PROPERTY, "yes");

        results.testEvents().assertStatistics(s -> s.started(0));
        assertThat(Kit.containerFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("configuration parameter twstester.compareWithSpark is 'yes'; use true (compare every "
                        + "@TwsTest test with live Spark) or false");
    }

    private static String abortReason(EngineExecutionResults results, String test) {
        List<Event> aborted = results.testEvents().aborted().list().stream()
                .filter(e -> e.getTestDescriptor().getDisplayName().equals(test)).toList();
        assertThat(aborted).as("aborted %s", test).hasSize(1);
        Throwable reason = aborted.get(0).getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable)
                .orElseThrow();
        assertThat(reason).isInstanceOf(TestAbortedException.class);
        return reason.getMessage();
    }
}
