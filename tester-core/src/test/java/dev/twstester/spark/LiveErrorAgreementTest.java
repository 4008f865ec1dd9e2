package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.ErrorProcessor;
import dev.twstester.sim.SparkLine;
import dev.twstester.sim.TwsSimulator;

/**
 * The error matrix of docs/semantics.md, section 10, on live Spark: each misuse fails the live query with the
 * error class the simulator raises (or, for the cases Spark accepts, neither fails), on the Spark of
 * the class path. The last column is what Spark 4.0 does where it differs: it wraps no user
 * exception, and its driver-side init gets null state variables.
 */
@Tag("live")
class LiveErrorAgreementTest {

    private static TimeMode mode(String name) {
        return switch (name) {
            case "none" -> TimeMode.None();
            case "proc" -> TimeMode.ProcessingTime();
            default -> TimeMode.EventTime();
        };
    }

    /** The first error class in the cause chain below Spark's STREAM_FAILED wrapper; "none" if nothing failed. */
    private static String condition(Throwable t) {
        if (t == null) {
            return "none";
        }
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SparkThrowable st && st.getCondition() != null && !"STREAM_FAILED".equals(st.getCondition())) {
                return st.getCondition();
            }
        }
        return "no error class: " + t;
    }

    /** Spark 4.0 wraps no user exception: "unwrapped" expects no error class in the chain. */
    private static void assertCondition(Throwable t, String expected, String engine) {
        if (expected.equals("unwrapped")) {
            assertThat(condition(t)).as(engine).startsWith("no error class: ");
        } else {
            assertThat(condition(t)).as(engine).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0}@{1}: {2} (on Spark 4.0: {3})")
    @CsvSource(delimiter = '|', value = {
        "getstate-in-handle|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|",
        "timer-none-mode|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE|",
        "list-timers-none-mode|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE|",
        "list-null|none|ILLEGAL_STATE_STORE_VALUE.NULL_VALUE|",
        "list-empty|none|ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE|",
        "map-null-key|none|ILLEGAL_STATE_STORE_VALUE.NULL_VALUE|",
        "ttl-eventtime|event|STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL|",
        "ttl-negative|proc|STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE|",
        "deleteIfExists-in-handle|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|",
        "boom|none|TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR|unwrapped",
        "boom-checked|none|TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR|unwrapped",
        "bean-null|none|NOT_NULL_ASSERT_VIOLATION|",
        "timer-in-init|proc|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|",
        "state-get-in-init|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|INTERNAL_ERROR",
        "close-timer|proc|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|",
        "dup-value-list|none|STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED|",
        "boom-init|none|TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR|unwrapped",
        "dup-map|none|none|",
        "value-null|none|none|",
    })
    void simulator_and_spark_fail_with_the_same_error_class(String mode, String time, String expected, String on40) {
        TwsQuery<String, String, String> query = TwsQuery.builder(() -> new ErrorProcessor(mode))
                .keyBy(s -> s, Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(mode(time))
                .build();
        Scenario<String> scenario = Scenario.<String>builder()
                .batchAt(java.time.Instant.ofEpochMilli(1000), List.of("k1")).build();
        Throwable sim = catchThrowable(() -> new TwsSimulator<>(query).run(scenario));
        Throwable live = catchThrowable(() -> LiveRunner.of(query).run(scenario));
        String want = SparkLine.onClassPath() == SparkLine.V4_0 && on40 != null ? on40 : expected;
        assertCondition(live, want, "live Spark " + SparkLine.classPathVersion());
        assertCondition(sim, want, "simulator");
    }

    @org.junit.jupiter.api.Test
    void an_error_thrown_by_the_processor_is_not_wrapped_on_either_engine() {
        TwsQuery<String, String, String> query = TwsQuery.builder(() -> new ErrorProcessor("boom-error"))
                .keyBy(s -> s, Encoders.STRING()).input(Encoders.STRING()).output(Encoders.STRING()).build();
        Scenario<String> scenario = Scenario.<String>builder().batch(List.of("k1")).build();
        Throwable sim = catchThrowable(() -> new TwsSimulator<>(query).run(scenario));
        Throwable live = catchThrowable(() -> LiveRunner.of(query).run(scenario));
        assertThat(condition(live)).startsWith("no error class: ");
        assertThat(org.assertj.core.util.Throwables.getRootCause(live)).isExactlyInstanceOf(AssertionError.class)
                .hasMessage("user assertion");
        assertThat(sim).isExactlyInstanceOf(AssertionError.class).hasMessage("user assertion");
    }

    @org.junit.jupiter.api.Test
    void a_transient_field_initialised_in_its_declaration_is_null_in_the_task_on_both_engines() {
        TwsQuery<String, String, String> query = TwsQuery.builder(dev.twstester.sim.ProcessorInstancesTest.TransientBuffer::new)
                .keyBy(s -> s, Encoders.STRING()).input(Encoders.STRING()).output(Encoders.STRING()).build();
        Scenario<String> scenario = Scenario.<String>builder().batch(List.of("k")).build();
        Throwable sim = catchThrowable(() -> new TwsSimulator<>(query).run(scenario));
        Throwable live = catchThrowable(() -> LiveRunner.of(query).run(scenario));
        String want = SparkLine.onClassPath() == SparkLine.V4_0 ? "unwrapped" : "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR";
        assertCondition(live, want, "live Spark " + SparkLine.classPathVersion());
        assertCondition(sim, want, "simulator");
        assertThat(sim.getCause()).isInstanceOf(NullPointerException.class);
    }
}
