package dev.twstester.junit;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.sim.Fault;

/** Example test classes for {@link ChainLiveTest}; each runs only through {@link Kit}. */
final class ChainLiveExamples {
    private ChainLiveExamples() {}

    @ExampleOnly
    @TwsTest(compareWithSpark = true)
    static class ComparedWithSpark {
        static TwsQuery<String, Reading, String> chain() {
            return ZoneRelay.chain();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void two_operators_agree_with_spark() {
            assertThat(sim.runBatch(reading("a1", 10, 1), reading("a2", 11, 0), reading("b1", 12, 5)))
                    .outputs().containsExactly("a=2");
            sim.runBatchAt(Instant.ofEpochSecond(60), List.of(reading("a1", 20, 0), reading("b1", 3, 0)));
            sim.setProcessingTime(Instant.ofEpochSecond(90));
        }
    }

    /**
     * Its simulators filter late rows with the current batch's watermark, which Spark does not. With a
     * trigger interval the second batch takes the place of the no-data batch the first asks for, so
     * its late-row filter and its eviction use different watermarks.
     */
    @ExampleOnly
    @TwsTest(compareWithSpark = true)
    @SimulatorFaults(Fault.LATE_FILTER_USES_CURRENT_WATERMARK)
    static class ComparedWithSparkOnAFaultySimulator {
        static TwsQuery<String, Reading, String> chain() {
            return ZoneRelay.chain().withTrigger(Trigger.ProcessingTime(1000));
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void a_late_row_by_the_previous_watermark() {
            sim.runBatch(reading("a1", 10, 0));
            sim.runBatch(reading("b1", 3, 0));
        }
    }
}
