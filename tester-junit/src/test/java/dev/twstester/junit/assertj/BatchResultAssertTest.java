package dev.twstester.junit.assertj;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.junit.assertj.TwsAssertions.catchThrowable;

import java.time.Instant;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.junit.Reading;
import dev.twstester.junit.TallyProcessor;
import dev.twstester.sim.TwsSimulator;

/**
 * One nested class per {@link BatchResultAssert} method. Batch 2 is a data batch that dropped
 * {@code b@3s} as late (watermark 6 s); batch 3 the no-data batch after it, which fired b's timer.
 */
class BatchResultAssertTest {
    BatchResult<String, Reading, String> data;
    BatchResult<String, Reading, String> noData;

    @BeforeEach
    void run() {
        TwsSimulator<String, Reading, String> sim = new TwsSimulator<>(TallyProcessor.query());
        sim.runBatch(reading("a", 10, 0), reading("b", 11, 1));
        RunResult<String, Reading, String> run = sim.runBatch(reading("a", 20, 0), reading("b", 3, 0));
        data = run.batches().get(0);
        noData = run.batches().get(1);
    }

    @Nested
    class hasBatchId {
        @Test
        void passes_on_the_id() {
            assertThat(data).hasBatchId(2);
        }

        @Test
        void shows_both_ids() {
            Throwable error = catchThrowable(() -> assertThat(data).hasBatchId(4));

            assertThat(error).isInstanceOf(AssertionFailedError.class).hasMessage("\nExpecting batch 2 to have id 4");
            assertThat(((AssertionFailedError) error).getActual().getValue()).isEqualTo(2L);
        }
    }

    @Nested
    class isDataBatch {
        @Test
        void passes_on_a_data_batch() {
            assertThat(data).isDataBatch();
        }

        @Test
        void says_what_a_no_data_batch_is() {
            assertThat(catchThrowable(() -> assertThat(noData).isDataBatch())).hasMessage("\nExpecting batch 3 to be a "
                    + "data batch, but it is a no-data batch (run after the watermark moved or on a clock tick)");
        }
    }

    @Nested
    class isNoDataBatch {
        @Test
        void passes_on_a_no_data_batch() {
            assertThat(noData).isNoDataBatch();
        }

        @Test
        void counts_the_input() {
            assertThat(catchThrowable(() -> assertThat(data).isNoDataBatch()))
                    .hasMessage("\nExpecting batch 2 to be a no-data batch, but it is a data batch with 2 input rows");
        }
    }

    @Nested
    class hasLateWatermark {
        @Test
        void passes_on_the_previous_batch_watermark() {
            assertThat(data).hasLateWatermark(Instant.ofEpochSecond(6));
        }

        @Test
        void shows_both_times() {
            Throwable error = catchThrowable(() -> assertThat(data).hasLateWatermark(Instant.EPOCH));

            assertThat(error).isInstanceOf(AssertionFailedError.class).hasMessage("""

                    Expecting late watermark of batch 2:
                      1970-01-01T00:00:06Z
                    to be:
                      1970-01-01T00:00:00Z""");
        }
    }

    @Nested
    class hasEvictionWatermark {
        @Test
        void passes_on_the_batch_watermark() {
            assertThat(noData).hasEvictionWatermark(Instant.ofEpochSecond(15));
        }

        @Test
        void shows_both_times() {
            assertThat(catchThrowable(() -> assertThat(noData).hasEvictionWatermark(Instant.ofEpochSecond(6))))
                    .hasMessage("""

                    Expecting eviction watermark of batch 3:
                      1970-01-01T00:00:15Z
                    to be:
                      1970-01-01T00:00:06Z""");
        }
    }

    @Nested
    class hasBatchTimestamp {
        @Test
        void passes_on_the_processing_time() {
            assertThat(noData).hasBatchTimestamp(Instant.EPOCH);
        }

        @Test
        void shows_both_times() {
            assertThat(catchThrowable(() -> assertThat(noData).hasBatchTimestamp(Instant.ofEpochSecond(60))))
                    .hasMessage("""

                    Expecting batch timestamp of batch 3:
                      1970-01-01T00:00:00Z
                    to be:
                      1970-01-01T00:01:00Z""");
        }
    }

    @Nested
    class hasInputCount {
        @Test
        void counts_late_rows_too() {
            assertThat(data).hasInputCount(2);
        }

        @Test
        void shows_the_input() {
            assertThat(catchThrowable(() -> assertThat(data).hasInputCount(1))).hasMessage("\nExpecting batch 2 to have "
                    + "received 1 input row, but it received 2 input rows: [a@1970-01-01T00:00:20Z#0, b@1970-01-01T00:00:03Z#0]");
        }
    }

    @Nested
    class outputs {
        @Test
        void passes_on_the_outputs() {
            assertThat(noData).outputs().containsExactly("b timer 1970-01-01T00:00:13Z");
        }

        @Test
        void names_the_batch() {
            assertThat(catchThrowable(() -> assertThat(data).outputs().isEmpty()))
                    .hasMessage("[outputs of batch 2] \nExpecting empty but was: [\"a=2\"]");
        }
    }

    @Nested
    class firedTimers {
        @Test
        void passes_on_the_timers_in_firing_order() {
            assertThat(noData).firedTimers().containsExactly(new FiredTimer<>("b", Instant.ofEpochSecond(13)));
        }

        @Test
        void names_the_batch() {
            assertThat(catchThrowable(() -> assertThat(noData).firedTimers().isEmpty()))
                    .hasMessage("[timers fired in batch 3] \nExpecting empty but was: [b@1970-01-01T00:00:13Z]");
        }
    }

    @Nested
    class droppedLate {
        @Test
        void passes_on_the_late_rows() {
            assertThat(data).droppedLate().containsExactly(reading("b", 3, 0));
        }

        @Test
        void names_the_batch() {
            assertThat(catchThrowable(() -> assertThat(data).droppedLate().isEmpty()))
                    .hasMessage("[rows dropped as late in batch 2] \nExpecting empty but was: [b@1970-01-01T00:00:03Z#0]");
        }
    }

    @Nested
    class input {
        @Test
        void passes_on_the_rows_in_arrival_order() {
            assertThat(data).input().containsExactly(reading("a", 20, 0), reading("b", 3, 0));
        }

        @Test
        void names_the_batch() {
            assertThat(catchThrowable(() -> assertThat(noData).input().isNotEmpty()))
                    .hasMessage("[input of batch 3] \nExpecting actual not to be empty");
        }
    }
}
