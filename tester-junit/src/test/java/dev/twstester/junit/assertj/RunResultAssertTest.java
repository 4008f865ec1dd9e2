package dev.twstester.junit.assertj;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.junit.assertj.TwsAssertions.catchThrowable;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.junit.Reading;
import dev.twstester.junit.TallyProcessor;
import dev.twstester.sim.TwsSimulator;

/** One nested class per {@link RunResultAssert} method, on the run of batches 2 and 3 (see {@link BatchResultAssertTest}). */
class RunResultAssertTest {
    TwsSimulator<String, Reading, String> sim;
    RunResult<String, Reading, String> run;

    @BeforeEach
    void run() {
        sim = new TwsSimulator<>(TallyProcessor.query());
        sim.runBatch(reading("a", 10, 0), reading("b", 11, 1));
        run = sim.runBatch(reading("a", 20, 0), reading("b", 3, 0));
    }

    @Nested
    class hasBatchIds {
        @Test
        void passes_on_the_ids_in_order() {
            assertThat(run).hasBatchIds(2, 3);
        }

        @Test
        void shows_both_lists() {
            Throwable error = catchThrowable(() -> assertThat(run).hasBatchIds(2));

            assertThat(error).isInstanceOf(AssertionFailedError.class)
                    .hasMessage("\nExpecting the run to consist of batches:\n  [2]\nbut it ran:\n  [2, 3]");
            assertThat(((AssertionFailedError) error).getActual().getValue()).isEqualTo(List.of(2L, 3L));
        }
    }

    @Nested
    class isEmpty {
        @Test
        void passes_when_no_batch_ran() {
            assertThat(sim.advanceProcessingTime(Duration.ofMinutes(1))).isEmpty();
        }

        @Test
        void names_the_batches_that_ran() {
            assertThat(catchThrowable(() -> assertThat(run).isEmpty()))
                    .hasMessage("\nExpecting no batch to run, but batches 2-3 ran");
        }
    }

    @Nested
    class outputs {
        @Test
        void passes_on_the_outputs_of_all_batches() {
            assertThat(run).outputs().containsExactly("a=2", "b timer 1970-01-01T00:00:13Z");
        }

        @Test
        void names_the_batches() {
            assertThat(catchThrowable(() -> assertThat(run).outputs().containsExactly("a=2")))
                    .hasMessage("""
                    [outputs of batches 2-3]\s
                    Expecting actual:
                      ["a=2", "b timer 1970-01-01T00:00:13Z"]
                    to contain exactly (and in same order):
                      ["a=2"]
                    but some elements were not expected:
                      ["b timer 1970-01-01T00:00:13Z"]
                    """);
        }
    }

    @Nested
    class firedTimers {
        @Test
        void passes_on_the_timers() {
            assertThat(run).firedTimers().containsExactly(new FiredTimer<>("b", Instant.ofEpochSecond(13)));
        }

        @Test
        void names_the_batches() {
            assertThat(catchThrowable(() -> assertThat(run).firedTimers().isEmpty()))
                    .hasMessage("[timers fired in batches 2-3] \nExpecting empty but was: [b@1970-01-01T00:00:13Z]");
        }
    }

    @Nested
    class droppedLate {
        @Test
        void passes_on_the_late_rows() {
            assertThat(run).droppedLate().containsExactly(reading("b", 3, 0));
        }

        @Test
        void names_the_batches() {
            assertThat(catchThrowable(() -> assertThat(run).droppedLate().isEmpty()))
                    .hasMessage("[rows dropped as late in batches 2-3] \nExpecting empty but was: [b@1970-01-01T00:00:03Z#0]");
        }
    }

    @Nested
    class lastBatch {
        @Test
        void navigates_to_the_last_batch() {
            assertThat(run).lastBatch().hasBatchId(3).isNoDataBatch();
        }

        @Test
        void fails_when_no_batch_ran() {
            assertThat(catchThrowable(() -> assertThat(new RunResult<String, Reading, String>(List.of())).lastBatch()))
                    .hasMessage("\nExpecting the run to have a last batch, but no batch ran");
        }
    }

    @Nested
    class batch {
        @Test
        void navigates_to_a_batch_by_id() {
            assertThat(run).batch(2).isDataBatch();
        }

        @Test
        void names_the_batches_that_ran() {
            assertThat(catchThrowable(() -> assertThat(run).batch(0)))
                    .hasMessage("\nExpecting the run to have batch 0, but it ran [2, 3]");
        }
    }
}
