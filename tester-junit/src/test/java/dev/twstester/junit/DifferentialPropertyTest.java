package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.TwsQuery;
import dev.twstester.property.PropertyResult;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.sim.Fault;
import dev.twstester.sim.TwsSimulator;

/** The differential property against live Spark: it passes on the real simulator and catches a broken one. */
@Tag("live")
class DifferentialPropertyTest {

    private static TwsQuery<String, Reading, String> query(OutputMode outputMode) {
        return Reading.eventTimeQuery(EchoProcessor::new, outputMode);
    }

    private static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("a", "b").variants(2).timeMode(TimeMode.EventTime())
                .batches(2, 5).eventsPerBatch(0, 4)
                .eventTimeBase(Instant.parse("2024-05-01T10:00:00Z")).eventTimeSpread(Duration.ofSeconds(30))
                .watermarkDelay(Duration.ofSeconds(5));
    }

    private static DifferentialProperty<String, Reading, String> property(OutputMode mode) {
        return DifferentialProperty.of(query(mode), generator(), Reading::new);
    }

    @Test
    void shuffle_partitions_need_a_valid_range() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> property(OutputMode.Update()).shufflePartitions(0, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shufflePartitions(0, 2): need 1 <= min <= max");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> property(OutputMode.Update()).shufflePartitions(3, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shufflePartitions(3, 2): need 1 <= min <= max");
    }

    @TestFactory
    Stream<DynamicTest> the_simulator_agrees_with_spark_on_generated_scenarios() {
        return property(OutputMode.Update()).tries(5).dynamicTests();
    }

    @Test
    void a_simulator_with_the_late_filter_on_the_wrong_watermark_is_caught_and_shrunk(@TempDir Path failures) throws Exception {
        // Complete output mode: no no-data batches, so a data batch's late and eviction watermarks differ
        // only this property's simulators have the fault
        DifferentialProperty<String, Reading, String> property = property(OutputMode.Complete())
                .shrinkAttempts(40).saveFailuresTo(failures)
                .simulators(q -> Fault.inject(TwsSimulator.builder(q), Fault.LATE_FILTER_USES_CURRENT_WATERMARK).build());
        PropertyResult result = null;
        for (long seed = 1; seed <= 12 && (result == null || result.passed()); seed++) {
            result = property.checkSeed(seed);
        }
        assertThat(result.passed()).as("one of 12 seeds exposes the fault").isFalse();
        PropertyResult.Failure failure = result.failure().orElseThrow();
        assertThat(failure.shrunk().eventCount()).isLessThanOrEqualTo(3);
        assertThat(failure.message()).contains("batch");
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> property.assertAgreement(failure.seed()));
        assertThat(thrown).isInstanceOf(AssertionError.class).hasMessageContaining("-Dtwstester.seed=" + failure.seed());
        try (Stream<Path> saved = Files.list(failures.resolve("EchoProcessor-seed" + failure.seed()))) {
            assertThat(saved.map(p -> p.getFileName().toString())).contains("001.jsonl", "scenario.txt");
        }
        // the same seed on a property with the simulators Spark's rules give passes
        assertThat(property(OutputMode.Complete()).checkSeed(failure.seed()).passed()).isTrue();
    }
}
