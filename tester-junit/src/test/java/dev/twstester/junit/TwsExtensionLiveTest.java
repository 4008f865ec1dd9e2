package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** {@code @TwsTest(compareWithSpark = true)}: the test's calls replayed on live Spark (about 2 s each). */
@Tag("live")
class TwsExtensionLiveTest {
    @TempDir
    Path traces;

    @Test
    void a_test_whose_calls_spark_runs_the_same_way_passes_even_when_both_fail_alike() {
        EngineExecutionResults results = Kit.run(TwsExtensionExamples.ComparedWithSpark.class, traces);

        results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
    }

    @Test
    void a_simulator_that_differs_from_spark_fails_the_test_with_the_first_difference() {
        // GIVEN a simulator that filters late rows with the current batch's watermark (@SimulatorFaults)
        // WHEN
        EngineExecutionResults results = Kit.run(TwsExtensionExamples.ComparedWithSparkOnAFaultySimulator.class, traces);

        // THEN
        Throwable failure = Kit.failure(results);
        assertThat(failure).isExactlyInstanceOf(AssertionError.class).hasMessage("""
                simulator 'sim' and live Spark differ on this test's calls
                batch 1 (data batch): dropped late rows differ (compared as multisets)
                  simulator: [b@1970-01-01T00:00:03Z#0]
                  spark:     []
                  only in simulator: [b@1970-01-01T00:00:03Z#0]
                  only in spark:     []""");
        assertThat(failure.getSuppressed()).singleElement().isInstanceOf(SimulatorTrace.class);
    }

    @Test
    void the_configuration_parameter_compares_every_twstest_test_and_skips_those_spark_cannot_replay() {
        EngineExecutionResults results = Kit.run(SuiteComparisonExamples.Replayable.class, traces,
                TwsTest.COMPARE_WITH_SPARK_PROPERTY, "true");

        results.testEvents().assertStatistics(s -> s.started(2).succeeded(1).aborted(1).failed(0));
        assertThat(results.testEvents().aborted().list()).singleElement()
                .extracting(e -> e.getTestDescriptor().getDisplayName()).isEqualTo("forces_the_watermark()");
    }

    @Test
    void the_configuration_parameter_fails_a_test_whose_simulator_differs_from_spark() {
        EngineExecutionResults results = Kit.run(SuiteComparisonExamples.Differing.class, traces,
                TwsTest.COMPARE_WITH_SPARK_PROPERTY, "true");

        assertThat(Kit.failure(results)).isExactlyInstanceOf(AssertionError.class)
                .hasMessageStartingWith("simulator 'sim' and live Spark differ on this test's calls\n"
                        + "batch 1 (data batch): dropped late rows differ");
    }
}
