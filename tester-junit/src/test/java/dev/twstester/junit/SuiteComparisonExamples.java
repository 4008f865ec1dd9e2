package dev.twstester.junit;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import dev.twstester.TwsQuery;
import dev.twstester.sim.Fault;

/**
 * Example classes for the suite-wide comparison ({@code twstester.compareWithSpark=true}): plain
 * {@code @TwsTest} classes, run only through {@link Kit} by {@link SuiteComparisonTest} and
 * {@link TwsExtensionLiveTest}.
 */
final class SuiteComparisonExamples {
    private SuiteComparisonExamples() {}

    /** Tests Spark cannot replay: each is skipped with its reason; no Spark starts. */
    @ExampleOnly
    @TwsTest
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class NotReplayable {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator static TestSimulator<String, Reading, String> shared;

        @Simulator TestSimulator<String, Reading, String> sim;

        @Simulator(keepHistory = false) TestSimulator<String, Reading, String> forgetful;

        @Test
        @Order(1)
        void forces_the_watermark() {
            sim.runBatch(reading("a", 10, 1));
            sim.advanceWatermarkTo(Instant.parse("1970-01-01T00:00:20Z"));
            assertThat(sim).outputs().containsExactly("a=1", "a timer 1970-01-01T00:00:12Z");
        }

        @Test
        @Order(2)
        void uses_the_class_simulator() {
            assertThat(shared.runBatch(reading("a", 10, 1))).outputs().containsExactly("a=1");
        }

        @Test
        @Order(3)
        void keeps_no_history() {
            assertThat(forgetful.runBatch(reading("b", 10, 1))).outputs().containsExactly("b=1");
        }

        @Test
        @Order(4)
        void fails_on_the_simulator() {
            assertThat(sim.runBatch(reading("a", 10, 1))).outputs().containsExactly("a=2");
        }
    }

    /** One test Spark replays the same way, one it cannot replay. */
    @ExampleOnly
    @TwsTest
    static class Replayable {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void counts_per_key(TestSimulator<String, Reading, String> other) {
            sim.runBatch(reading("a", 10, 0), reading("b", 11, 0));
            assertThat(sim.runBatch(reading("a", 20, 0))).outputs().containsExactly("a=2");
            assertThat(other.runBatch(reading("c", 5, 0))).outputs().containsExactly("c=1");
        }

        @Test
        void forces_the_watermark() {
            sim.advanceWatermarkTo(Instant.parse("1970-01-01T00:00:20Z"));
        }
    }

    /** Its simulators filter late rows with the current batch's watermark, which Spark does not. */
    @ExampleOnly
    @TwsTest
    @SimulatorFaults(Fault.LATE_FILTER_USES_CURRENT_WATERMARK)
    static class Differing {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query(org.apache.spark.sql.streaming.OutputMode.Complete());
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void a_late_row_by_the_previous_watermark() {
            sim.runBatch(reading("a", 10, 0));
            sim.runBatch(reading("b", 3, 0));
        }
    }
}
