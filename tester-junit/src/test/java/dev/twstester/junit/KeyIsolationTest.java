package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * {@code @Simulator(checkKeyIsolation = true)} and {@code TwsSimulator} injection, run on the
 * example classes of {@link KeyIsolationExamples} through EngineTestKit.
 */
class KeyIsolationTest {
    private static final String LEAK = "field 'rowsSeen' of dev.twstester.junit.LeakyTally was written while handling "
            + "key a and still held that value when handleInputRows started for key b";

    @TempDir
    Path traces;

    @Test
    void a_processor_field_that_carries_data_across_keys_fails_the_test_with_the_checks_report() {
        EngineExecutionResults results = Kit.run(KeyIsolationExamples.Leaky.class, traces);

        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable failure = Kit.failure(results);
        assertThat(failure).isInstanceOf(AssertionError.class);
        assertThat(failure.getMessage()).startsWith("@Simulator(checkKeyIsolation = true): simulator 'sim' (the "
                + "test's 1 step re-run with 1, 2, 3, 5 and 8 shuffle partitions): keys are not isolated; handlers run "
                + "one key after another on one processor instance per partition, so keep per-key data in state "
                + "variables, not fields:\n  - " + LEAK);
    }

    @Test
    void without_the_option_the_same_test_passes() {
        EngineExecutionResults results = Kit.run(KeyIsolationExamples.LeakyUnchecked.class, traces);

        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1).failed(0));
    }

    @Test
    void a_processor_that_keeps_keys_in_state_passes() {
        EngineExecutionResults results = Kit.run(KeyIsolationExamples.Clean.class, traces);

        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1).failed(0));
    }

    @Test
    void the_steps_before_a_failing_last_call_are_checked() {
        EngineExecutionResults results = Kit.run(KeyIsolationExamples.LeakyThenFailingCall.class, traces);

        Throwable failure = Kit.failure(results);
        assertThat(failure.getMessage()).startsWith("@Simulator(checkKeyIsolation = true): simulator 'sim' (the "
                + "test's 1 step before call #2 runBatch(1 row), which failed, re-run with 1, 2, 3, 5 and 8 shuffle "
                + "partitions): keys are not isolated;").contains(LEAK);
    }

    @Test
    void a_call_without_a_scenario_step_is_a_configuration_error() {
        EngineExecutionResults results = Kit.run(KeyIsolationExamples.ForcedWatermark.class, traces);

        Throwable failure = Kit.failure(results);
        assertThat(failure).isInstanceOf(ExtensionConfigurationException.class).hasMessage("@Simulator("
                + "checkKeyIsolation = true): simulator 'sim' call #2 advanceWatermarkTo(1970-01-01T00:00:20Z) cannot be "
                + "re-run as a scenario: Spark moves the watermark only from the event times of input rows; drive it "
                + "with input (runBatch) instead; or check this test without it (checkKeyIsolation = false)");
    }

    @Test
    void a_TwsSimulator_field_or_parameter_gets_the_simulator_itself() {
        EngineExecutionResults results = Kit.run(KeyIsolationExamples.Plain.class, traces);

        results.testEvents().assertStatistics(s -> s.started(2).succeeded(2).failed(0));
    }

    @Test
    void a_TwsSimulator_field_is_recorded_and_takes_the_check_too() {
        EngineExecutionResults results = Kit.run(KeyIsolationExamples.PlainWithKeyIsolation.class, traces);

        Throwable failure = Kit.failure(results);
        assertThat(failure).isInstanceOf(AssertionError.class);
        assertThat(failure.getMessage()).startsWith("@Simulator(checkKeyIsolation = true): simulator 'sim' (the "
                + "test's 1 step re-run with 1, 2, 3, 5 and 8 shuffle partitions): keys are not isolated;")
                .contains(LEAK);
    }

    @Test
    void a_TwsSimulator_parameter_is_recorded_for_the_spark_comparison_too() {
        EngineExecutionResults results = Kit.run(KeyIsolationExamples.PlainWithSparkComparison.class, traces);

        // the comparison sees the test's calls, up to the one Spark has no equivalent for
        assertThat(Kit.failure(results)).isInstanceOf(ExtensionConfigurationException.class).hasMessage("compareWith"
                + "Spark: simulator 'query' call #2 advanceWatermarkTo(1970-01-01T00:00:20Z) cannot be replayed on live "
                + "Spark: Spark moves the watermark only from the event times of input rows; drive it with input "
                + "(runBatch) instead; or leave this test out of the comparison (compareWithSpark = false)");
    }
}
