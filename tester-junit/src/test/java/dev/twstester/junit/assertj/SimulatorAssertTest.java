package dev.twstester.junit.assertj;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.junit.assertj.TwsAssertions.catchThrowable;
import static dev.twstester.junit.assertj.TwsAssertions.entry;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import dev.twstester.junit.Reading;
import dev.twstester.junit.TallyProcessor;
import dev.twstester.junit.TestSimulator;
import dev.twstester.sim.TwsSimulator;

/**
 * One nested class per {@link SimulatorAssert} method: a passing call and the exact message of a
 * failing one. The simulator ran {@code a@10s} and {@code b@11s} (kind 1: a timer at 13 s), so
 * batches 0 (data) and 1 (no data, watermark 6 s).
 */
class SimulatorAssertTest {
    TestSimulator<String, Reading, String> sim;

    @BeforeEach
    void runTwoReadings() {
        sim = TestSimulator.of("sim", TallyProcessor.query());
        sim.runBatch(reading("a", 10, 0), reading("b", 11, 1));
    }

    private static Instant second(int s) {
        return Instant.ofEpochSecond(s);
    }

    @Nested
    class valueState {
        @Test
        void passes_on_the_value_of_the_key() {
            assertThat(sim).valueState("count", "a").contains(1L);
            assertThat(sim).valueState("count", "nobody").isEmpty();
        }

        @Test
        void names_variable_key_and_batch_and_shows_both_values() {
            Throwable error = catchThrowable(() -> assertThat(sim).valueState("count", "a").contains(2L));

            assertThat(error).isInstanceOf(AssertionFailedError.class).hasMessage("""
                    [value state 'count' of key "a" after batch 1]\s
                    Expecting actual:
                      Optional[1]
                    to contain:
                      2L
                    but did not.""");
            assertThat(((AssertionFailedError) error).getExpected().getValue()).isEqualTo(2L);
            assertThat(((AssertionFailedError) error).getActual().getValue()).isEqualTo(1L);
        }

        @Test
        void names_the_right_accessor_for_another_kind_of_state() {
            assertThat(catchThrowable(() -> assertThat(sim).valueState("kinds", "a")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("'kinds' is a list state, not a value state; use list(\"kinds\", key)");
        }
    }

    @Nested
    class listState {
        @Test
        void passes_on_the_elements_in_append_order() {
            sim.runBatch(reading("a", 12, 3));
            assertThat(sim).<Integer>listState("kinds", "a").containsExactly(0, 3);
        }

        @Test
        void names_variable_key_and_batch() {
            assertThat(catchThrowable(() -> assertThat(sim).<Integer>listState("kinds", "b").containsExactly(2)))
                    .isInstanceOf(AssertionFailedError.class).hasMessage("""
                    [list state 'kinds' of key "b" after batch 1]\s
                    Expecting actual:
                      [1]
                    to contain exactly (and in same order):
                      [2]
                    but some elements were not found:
                      [2]
                    and others were not expected:
                      [1]
                    """);
        }
    }

    @Nested
    class mapState {
        @Test
        void passes_on_the_entries() {
            assertThat(sim).<Integer, Long>mapState("perKind", "b").containsExactly(entry(1, 1L));
        }

        @Test
        void names_variable_key_and_batch() {
            assertThat(catchThrowable(() -> assertThat(sim).<Integer, Long>mapState("perKind", "b").containsEntry(1, 2L)))
                    .hasMessage("""
                    [map state 'perKind' of key "b" after batch 1]\s
                    Expecting map:
                      {1=1L}
                    to contain entries:
                      [1=2L]
                    but the following map entries had different values:
                      [1=1L (expected: 2L)]""");
        }
    }

    @Nested
    class timers {
        @Test
        void passes_on_the_timers_of_the_key() {
            assertThat(sim).timers("b").containsExactly(second(13));
            assertThat(sim).timers("a").isEmpty();
        }

        @Test
        void names_key_and_batch() {
            assertThat(catchThrowable(() -> assertThat(sim).timers("a").containsExactly(second(12))))
                    .hasMessage("""
                    [timers of key "a" after batch 1]\s
                    Expecting actual:
                      []
                    to contain exactly (and in same order):
                      [1970-01-01T00:00:12Z]
                    but could not find the following elements:
                      [1970-01-01T00:00:12Z]
                    """);
        }
    }

    @Nested
    class keysWithState {
        @Test
        void passes_on_the_keys_in_spark_order() {
            assertThat(sim).keysWithState().containsExactly("a", "b");
        }

        @Test
        void names_the_batch() {
            assertThat(catchThrowable(() -> assertThat(sim).keysWithState().containsExactly("a")))
                    .hasMessageStartingWith("[keys with state after batch 1] \nExpecting actual:\n  [\"a\", \"b\"]\n");
        }
    }

    @Nested
    class hasNoStateFor {
        @Test
        void passes_when_the_state_of_the_key_is_gone() {
            sim.runBatch(reading("b", 12, 9));
            assertThat(sim).hasNoStateFor("b").hasNoStateFor("nobody");
        }

        @Test
        void lists_what_the_key_still_has() {
            Throwable error = catchThrowable(() -> assertThat(sim).hasNoStateFor("b"));

            assertThat(error).isInstanceOf(AssertionFailedError.class).hasMessage("""

                    Expecting key "b" of simulator 'sim' to have no state after batch 1, but it has:
                      value state 'count': 1L
                      list state 'kinds': [1]
                      map state 'perKind': {1=1L}
                      timers: [1970-01-01T00:00:13Z]""");
            assertThat(((AssertionFailedError) error).getExpected().getValue()).isEqualTo(Map.of());
        }
    }

    @Nested
    class hasStateFor {
        @Test
        void passes_when_the_key_has_state() {
            assertThat(sim).hasStateFor("a");
        }

        @Test
        void says_the_key_has_none() {
            assertThat(catchThrowable(() -> assertThat(sim).hasStateFor("c"))).hasMessage(
                    "\nExpecting key \"c\" of simulator 'sim' to have state after batch 1, but it has none");
        }
    }

    @Nested
    class hasWatermark {
        @Test
        void passes_on_the_current_watermark() {
            assertThat(sim).hasWatermark(second(6));
        }

        @Test
        void shows_both_times_for_an_ide_diff() {
            Throwable error = catchThrowable(() -> assertThat(sim).hasWatermark(second(5)));

            assertThat(error).isInstanceOf(AssertionFailedError.class).hasMessage("""

                    Expecting watermark of simulator 'sim' after batch 1:
                      1970-01-01T00:00:06Z
                    to be:
                      1970-01-01T00:00:05Z""");
            assertThat(((AssertionFailedError) error).getActual().getValue()).isEqualTo(second(6));
        }

        @Test
        void calls_an_unrecorded_simulator_the_simulator() {
            TwsSimulator<String, Reading, String> plain = new TwsSimulator<>(TallyProcessor.query());

            assertThat(catchThrowable(() -> assertThat(plain).hasWatermark(second(5)))).hasMessage("""

                    Expecting watermark of the simulator before the first batch:
                      1970-01-01T00:00:00Z
                    to be:
                      1970-01-01T00:00:05Z""");
        }
    }

    @Nested
    class hasProcessingTime {
        @Test
        void passes_on_the_current_processing_time() {
            assertThat(sim).hasProcessingTime(Instant.EPOCH);
        }

        @Test
        void shows_both_times() {
            assertThat(catchThrowable(() -> assertThat(sim).hasProcessingTime(second(1)))).hasMessage("""

                    Expecting processing time of simulator 'sim' after batch 1:
                      1970-01-01T00:00:00Z
                    to be:
                      1970-01-01T00:00:01Z""");
        }
    }

    @Nested
    class outputs {
        @Test
        void passes_on_the_outputs_of_every_batch() {
            sim.runBatch(reading("a", 20, 0));
            assertThat(sim).outputs().containsExactly("a=1", "b=1", "a=2", "b timer 1970-01-01T00:00:13Z");
        }

        @Test
        void names_the_batches() {
            assertThat(catchThrowable(() -> assertThat(sim).outputs().containsExactly("a=1")))
                    .hasMessageStartingWith("[outputs of batches 0-1 of simulator 'sim'] \nExpecting actual:\n  [\"a=1\", \"b=1\"]\n");
        }
    }

    @Nested
    class lastBatch {
        @Test
        void navigates_to_the_last_batch() {
            assertThat(sim).lastBatch().hasBatchId(1).isNoDataBatch();
        }

        @Test
        void fails_when_no_batch_ran() {
            TestSimulator<String, Reading, String> fresh = TestSimulator.of("fresh", TallyProcessor.query());

            assertThat(catchThrowable(() -> assertThat(fresh).lastBatch()))
                    .hasMessage("\nExpecting simulator 'fresh' to have run a batch, but none ran");
        }
    }

    @Nested
    class batch {
        @Test
        void navigates_to_a_batch_by_id() {
            assertThat(sim).batch(0).isDataBatch().hasInputCount(2);
        }

        @Test
        void names_the_batches_that_ran() {
            assertThat(catchThrowable(() -> assertThat(sim).batch(7)))
                    .hasMessage("\nExpecting simulator 'sim' to have run batch 7, but it ran [0, 1]");
        }
    }

    @Nested
    class history {
        @Test
        void navigates_to_every_batch_so_far() {
            assertThat(sim).history().hasBatchIds(0, 1);
        }

        @Test
        void fails_like_a_run() {
            assertThat(catchThrowable(() -> assertThat(sim).history().hasBatchIds(0)))
                    .hasMessage("\nExpecting the run to consist of batches:\n  [0]\nbut it ran:\n  [0, 1]");
        }
    }

    @Test
    void a_null_simulator_fails_as_in_assertj() {
        assertThat(catchThrowable(() -> assertThat((TwsSimulator<String, Reading, String>) null).hasWatermark(second(1))))
                .hasMessage("\nExpecting actual not to be null");
        assertThat(List.of(1)).hasSize(1);
    }
}
