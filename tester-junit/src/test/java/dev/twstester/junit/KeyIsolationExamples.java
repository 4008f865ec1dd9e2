package dev.twstester.junit;

import static dev.twstester.junit.TallyProcessor.reading;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

/** Example test classes for {@link KeyIsolationTest}; each runs only through {@link Kit}. */
final class KeyIsolationExamples {
    private KeyIsolationExamples() {}

    @ExampleOnly
    @TwsTest
    static class Leaky {
        static TwsQuery<String, Reading, String> query() {
            return LeakyTally.query();
        }

        @Simulator(checkKeyIsolation = true) TestSimulator<String, Reading, String> sim;

        @Test
        void two_keys_in_one_batch() {
            // on one partition the instance counts a's row for b too
            assertThat(sim.runBatch(reading("a", 10, 0), reading("b", 11, 0)).outputs()).containsExactly("a=1", "b=2");
        }
    }

    @ExampleOnly
    @TwsTest
    static class LeakyUnchecked {
        static TwsQuery<String, Reading, String> query() {
            return LeakyTally.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void two_keys_in_one_batch() {
            assertThat(sim.runBatch(reading("a", 10, 0), reading("b", 11, 0)).outputs()).containsExactly("a=1", "b=2");
        }
    }

    @ExampleOnly
    @TwsTest
    static class Clean {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator(checkKeyIsolation = true) TestSimulator<String, Reading, String> sim;

        @Test
        void keys_kept_in_state() {
            sim.runBatch(reading("a", 10, 0), reading("b", 11, 0), reading("c", 12, 0));
            sim.runBatch(reading("a", 13, 0), reading("c", 14, 1));
            assertThat(sim.history().outputs()).containsExactly("a=1", "b=1", "c=1", "a=2", "c=2");
        }
    }

    @ExampleOnly
    @TwsTest
    static class LeakyThenFailingCall {
        static TwsQuery<String, Reading, String> query() {
            return LeakyTally.query();
        }

        @Simulator(checkKeyIsolation = true) TestSimulator<String, Reading, String> sim;

        @Test
        void a_failing_last_call() {
            sim.runBatch(reading("a", 10, 0), reading("b", 11, 0));
            assertThatThrownBy(() -> sim.runBatch(reading("a", 12, 7))).hasMessageContaining("kind 7 is not allowed");
        }
    }

    @ExampleOnly
    @TwsTest
    static class ForcedWatermark {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator(checkKeyIsolation = true) TestSimulator<String, Reading, String> sim;

        @Test
        void watermark_forced() {
            sim.runBatch(reading("a", 10, 0));
            sim.advanceWatermarkTo(Instant.ofEpochSecond(20));
        }
    }

    @ExampleOnly
    @TwsTest
    static class Plain {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TwsSimulator<String, Reading, String> sim;

        @Test
        void a_field_gets_the_simulator_itself(@Simulator TwsSimulator<String, Reading, String> byParameter) {
            assertThat(sim.runBatch(reading("a", 10, 0)).outputs()).containsExactly("a=1");
            assertThat(byParameter).isNotSameAs(sim);   // as for TestSimulator: a parameter is not the field
            assertThat(byParameter.nextBatchId()).isZero();
            assertThat(sim.state().value("count", "a")).contains(1L);
        }

        @Test
        void and_a_new_one_each_test() {
            assertThat(sim.nextBatchId()).isZero();
        }
    }

    @ExampleOnly
    @TwsTest
    static class PlainWithKeyIsolation {
        static TwsQuery<String, Reading, String> query() {
            return LeakyTally.query();
        }

        @Simulator(checkKeyIsolation = true) TwsSimulator<String, Reading, String> sim;

        @Test
        void two_keys_in_one_batch() {
            assertThat(sim.runBatch(reading("a", 10, 0), reading("b", 11, 0)).outputs()).containsExactly("a=1", "b=2");
        }
    }

    @ExampleOnly
    @TwsTest(compareWithSpark = true)
    static class PlainWithSparkComparison {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Test
        void forces_the_watermark(@Simulator TwsSimulator<String, Reading, String> sim) {
            sim.runBatch(reading("a", 10, 0));
            sim.advanceWatermarkTo(Instant.ofEpochSecond(20));
        }
    }
}
