package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * A query of two operators ({@link ZoneRelay#chain()}) against live Spark: the extension's
 * comparison of a test's calls, and the differential property on generated scenarios.
 */
@Tag("live")
class ChainLiveTest {
    @TempDir
    Path traces;

    @Test
    void a_test_of_a_chain_whose_calls_spark_runs_the_same_way_passes() {
        EngineExecutionResults results = Kit.run(ChainLiveExamples.ComparedWithSpark.class, traces);

        Kit.assertPassed(results, 1);
    }

    @Test
    void a_simulator_of_a_chain_that_differs_from_spark_fails_the_test_with_the_first_difference() {
        EngineExecutionResults results = Kit.run(ChainLiveExamples.ComparedWithSparkOnAFaultySimulator.class, traces);

        Throwable failure = Kit.failure(results);
        assertThat(failure).isExactlyInstanceOf(AssertionError.class)
                .hasMessageStartingWith("simulator 'sim' and live Spark differ on this test's calls\nbatch 1 (data batch)")
                .hasMessageContaining("dropped late rows differ");
    }

    @TestFactory
    Stream<DynamicTest> the_simulator_agrees_with_spark_on_generated_scenarios_of_a_chain() {
        return DifferentialProperty.of(ZoneRelay.chain(), ChainPropertyTest.generator(), Reading::new).tries(4)
                .dynamicTests();
    }
}
