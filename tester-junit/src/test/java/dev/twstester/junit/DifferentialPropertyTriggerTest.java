package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.TwsQuery;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.sim.TwsSimulator;

/**
 * The differential property with trigger intervals: generated scenarios with intervals of 0, 1 s
 * and 5 s, stops and starts, at 2 to 5 shuffle partitions agree with live Spark; a simulator that
 * ignores the scenario's interval is caught, and the shrunk failure keeps the interval and saves it.
 */
@Tag("live")
class DifferentialPropertyTriggerTest {

    private static final TwsQuery<String, Reading, String> QUERY = Reading.eventTimeQuery(EchoProcessor::new, OutputMode.Update());

    private static ScenarioGenerator generator(Duration... intervals) {
        return ScenarioGenerator.create().keys("a", "b").variants(2).timeMode(TimeMode.EventTime())
                .batches(2, 5).eventsPerBatch(0, 4)
                .eventTimeBase(Instant.parse("2024-05-01T10:00:00Z")).eventTimeSpread(Duration.ofSeconds(30))
                .watermarkDelay(Duration.ofSeconds(5)).interestingDurations(Duration.ofSeconds(2))
                .restartChance(0.3).triggerIntervals(intervals);
    }

    @TestFactory
    Stream<DynamicTest> the_simulator_agrees_with_spark_under_trigger_intervals_and_restarts() {
        return DifferentialProperty.of(QUERY, generator(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(5)),
                Reading::new).shufflePartitions(2, 5).tries(4).dynamicTests();
    }

    @Test
    void a_simulator_that_ignores_the_trigger_interval_is_caught_and_the_interval_is_saved(@TempDir Path failures)
            throws Exception {
        DifferentialProperty<String, Reading, String> property = DifferentialProperty
                .of(QUERY, generator(Duration.ofSeconds(1)), Reading::new).shrinkAttempts(12).saveFailuresTo(failures)
                .simulators(q -> new TwsSimulator<>(q.withTrigger(Trigger.ProcessingTime(0))));

        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> property.assertAgreement(7));

        // THEN the first batch already differs (the simulator runs the added rows at once), and the
        // shrunk scenario keeps its 1 s interval: with 0 both engines agree
        assertThat(thrown).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Rerun only this case: -Dtwstester.seed=7")
                .hasMessageContaining("batch 0")
                .hasMessageContaining("Shrunk from")
                .hasMessageContaining("GenScenario: EventTime mode, watermark delay 5s, trigger interval 1s, ");
        assertThat(Files.readString(failures.resolve("EchoProcessor-seed7").resolve("scenario.txt")))
                .contains("# trigger interval: 1s (run the query with withTrigger(Trigger.ProcessingTime(1000)); replay"
                        + " with --trigger-interval PT1S)\n")
                .contains("\nadd 001.jsonl\n");
    }
}
