package dev.twstester.junit;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.junit.assertj.TwsAssertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.streaming.OutputMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import dev.twstester.ProcessorException;
import dev.twstester.TwsQuery;
import dev.twstester.sim.Fault;
import dev.twstester.sim.TwsSimulator;

/** Example test classes for {@link TwsExtensionTest}; each runs only through {@link Kit}. */
final class TwsExtensionExamples {
    private TwsExtensionExamples() {}

    @ExampleOnly
    @TwsTest
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class Passing {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim;
        @Simulator static TestSimulator<String, Reading, String> shared;
        TestSimulator<String, Reading, String> fromBeforeEach;

        @BeforeEach
        void keep(TestSimulator<String, Reading, String> byParameter) {
            fromBeforeEach = byParameter;
        }

        @Test
        @Order(1)
        void a_field_and_a_parameter_get_simulators(TestSimulator<String, Reading, String> byParameter) {
            sim.runBatch(reading("a", 10, 0));
            shared.runBatch(reading("s", 10, 0));
            assertThat(sim).valueState("count", "a").contains(1L);
            assertThat((Object) byParameter).isNotSameAs(sim).isSameAs(fromBeforeEach);
            assertThat(byParameter.name()).isEqualTo("query");
            assertThat(sim.name()).isEqualTo("sim");
        }

        @Test
        @Order(2)
        void each_test_gets_a_new_instance_simulator_and_shares_the_static_one() {
            assertThat(sim.nextBatchId()).isZero();
            assertThat(shared.nextBatchId()).isEqualTo(2L);
        }

        @Nested
        class Inner {
            @Simulator TestSimulator<String, Reading, String> inner;

            @Test
            void the_query_source_of_the_enclosing_class_serves_a_nested_class() {
                assertThat(inner.runBatch(reading("n", 1, 0))).outputs().containsExactly("n=1");
                assertThat(sim).isNotNull();
            }
        }
    }

    @ExampleOnly
    @TwsTest
    static class Failing {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void fails() {
            sim.runBatch(reading("a", 10, 0), reading("b", 11, 1));
            sim.state().setValue("count", "a", 41L);
            sim.runBatch(reading("a", 20, 0), reading("b", 3, 0));
            assertThat(sim).valueState("count", "a").contains(41L);
        }
    }

    @ExampleOnly
    @TwsTest
    static class ThrowingProcessor {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Test
        void a_processor_error_fails_the_test(TestSimulator<String, Reading, String> sim) {
            sim.runBatch(reading("a", 10, 0));
            TestSimulator<String, Reading, String> mine = TestSimulator.of("mine", TallyProcessor.query());
            mine.runBatch(reading("z", 1, 0));
            sim.runBatch(reading("a", 11, 7));
        }
    }

    @ExampleOnly
    @TwsTest
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class UsedAfterClose {
        static TestSimulator<String, Reading, String> leaked;

        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        @Order(1)
        void keeps_it() {
            leaked = sim;
        }

        @Test
        @Order(2)
        void uses_it_later() {
            leaked.runBatch(reading("a", 1, 0));
        }
    }

    // ---- strict mode

    @ExampleOnly
    @TwsTest(strict = true)
    static class Strict {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void leaves_outputs_unread() {
            sim.runBatch(reading("a", 10, 0), reading("b", 11, 0));
            sim.runBatch(reading("a", 12, 0));
            assertThat(sim.output().readNext()).isEqualTo("a=1");
        }

        @Test
        void reads_them_all() {
            sim.runBatch(reading("a", 10, 0), reading("b", 11, 0));
            assertThat(sim.output().readAll()).containsExactly("a=1", "b=1");
        }

        @Test
        void asserts_them() {
            assertThat(sim.runBatch(reading("a", 10, 0))).outputs().containsExactly("a=1");
            sim.runBatch(reading("a", 11, 0));
            assertThat(sim).lastBatch().isNoDataBatch();
            assertThat(sim).batch(2).outputs().containsExactly("a=2");
        }

        @Test
        void leaves_a_due_timer() {
            sim.runBatch(reading("a", 10, 0));
            assertThat(sim).outputs().containsExactly("a=1");
            sim.state().registerTimer("a", Instant.parse("1970-01-01T00:00:04Z"));
        }

        @Test
        void fails_on_its_own() {
            sim.runBatch(reading("a", 10, 0));
            assertThat(sim).valueState("count", "a").contains(5L);
        }
    }

    // ---- misuse

    @ExampleOnly
    @TwsTest
    static class WrongFieldType {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator dev.twstester.RunResult<String, Reading, String> sim;

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class FinalField {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator final TestSimulator<String, Reading, String> sim = null;

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class InitializedField {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim = TestSimulator.of(query());

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class NoQuery {
        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class TwoQueries {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        static final TwsQuery<String, Reading, String> OTHER = TallyProcessor.query();

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class UnknownQuery {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator(query = "quuery") TestSimulator<String, Reading, String> sim;

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class NotAQuery {
        static String name() {
            return "tally";
        }

        @Simulator(query = "name") TestSimulator<String, Reading, String> sim;

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class QueryThrows {
        static TwsQuery<String, Reading, String> query() {
            return TwsQuery.builder(TallyProcessor::new).build();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class NullQuery {
        static TwsQuery<String, Reading, String> query;

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class StaticSimulatorInstanceQuery {
        TwsQuery<String, Reading, String> query = TallyProcessor.query();

        @Simulator static TestSimulator<String, Reading, String> shared;

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class InitFails {
        static TwsQuery<String, Reading, String> query() {
            return TwsQuery.builder(DuplicateStateProcessor::new)
                    .keyBy(Reading::getSensor, org.apache.spark.sql.Encoders.STRING())
                    .input(org.apache.spark.sql.Encoders.bean(Reading.class))
                    .output(org.apache.spark.sql.Encoders.STRING())
                    .build();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void test() {
            sim.runBatch(reading("a", 1, 0)); // Spark plans the driver-side init() with the first batch: it fails here
        }
    }

    @ExampleOnly
    @TwsTest
    static class WrongParameterType {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Test
        void test(@Simulator List<String> sim) {}
    }

    @ExampleOnly
    @TwsTest
    static class ConstructorParameter {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        ConstructorParameter(TestSimulator<String, Reading, String> sim) {}

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    static class ExternalQuery {
        @Simulator(query = "dev.twstester.junit.TallyProcessor#query") TestSimulator<String, Reading, String> sim;

        @Test
        void test() {
            assertThat(sim.runBatch(reading("x", 1, 0))).outputs().containsExactly("x=1");
        }
    }

    // ---- live Spark comparison without Spark: calls that cannot be replayed

    @ExampleOnly
    @TwsTest(compareWithSpark = true)
    static class NotReplayable {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void forces_the_watermark() {
            sim.runBatch(reading("a", 10, 1));
            sim.advanceWatermarkTo(Instant.parse("1970-01-01T00:00:20Z"));
            assertThat(sim).outputs().containsExactly("a=1", "a timer 1970-01-01T00:00:12Z");
        }
    }

    @ExampleOnly
    @TwsTest(compareWithSpark = true)
    static class SharedAndCompared {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator static TestSimulator<String, Reading, String> shared;

        @Test
        void test() {}
    }

    @ExampleOnly
    @TwsTest
    @SimulatorFaults(Fault.LATE_FILTER_USES_CURRENT_WATERMARK)
    static class WithAFaultySimulator {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query(OutputMode.Complete());
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void the_extensions_simulators_have_the_fault_and_one_made_by_hand_does_not(
                TestSimulator<String, Reading, String> byParameter) {
            TestSimulator<String, Reading, String> byHand = TestSimulator.of("byHand", query());
            // Complete output mode, no no-data batch: the watermark after batch 0 is 5 s, batch 1 filters with 0
            for (TestSimulator<String, Reading, String> s : List.of(sim, byParameter, byHand)) {
                s.runBatch(reading("a", 10, 0));
            }
            assertThat(sim.runBatch(reading("b", 3, 0)).droppedLate()).containsExactly(reading("b", 3, 0));
            assertThat(byParameter.runBatch(reading("b", 3, 0)).droppedLate()).containsExactly(reading("b", 3, 0));
            assertThat(byHand.runBatch(reading("b", 3, 0)).droppedLate()).isEmpty();
        }
    }

    // ---- live Spark comparison (run by TwsExtensionLiveTest)

    @ExampleOnly
    @TwsTest(compareWithSpark = true)
    static class ComparedWithSpark {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void agrees_with_spark_up_to_the_same_error() {
            sim.runBatch(reading("a", 10, 1), reading("b", 11, 0));
            sim.runBatchAt(Instant.ofEpochSecond(60), List.of(reading("a", 20, 0), reading("b", 3, 0)));
            sim.setProcessingTime(Instant.ofEpochSecond(90));
            assertThatThrownBy(() -> sim.runBatch(reading("b", 30, 7))).isInstanceOf(ProcessorException.class);
        }
    }

    /** Its simulators filter late rows with the current batch's watermark, which Spark does not. */
    @ExampleOnly
    @TwsTest(compareWithSpark = true)
    @SimulatorFaults(Fault.LATE_FILTER_USES_CURRENT_WATERMARK)
    static class ComparedWithSparkOnAFaultySimulator {
        static TwsQuery<String, Reading, String> query() {
            return TallyProcessor.query(OutputMode.Complete());
        }

        @Simulator TestSimulator<String, Reading, String> sim;

        @Test
        void a_late_row_by_the_previous_watermark() {
            sim.runBatch(reading("a", 10, 0));
            sim.runBatch(reading("b", 3, 0));
        }
    }
}
