package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;

import org.apache.spark.SparkException;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.twstester.ProcessorException;
import dev.twstester.TwsQuery;

/**
 * The error matrix of docs/semantics.md, section 10, as recorded on live Spark 4.2.0: the
 * same error class and message Spark 4.2.0 raised, thrown where Spark raised it (when the query
 * starts, i.e. the simulator's constructor, or in the first batch).
 */
class ErrorMatrixTest {

    @BeforeEach
    void clearLog() {
        Log.drain();
    }

    private static TwsQuery<String, String, String> query(String mode, TimeMode timeMode) {
        return TwsQuery.builder(() -> new ErrorProcessor(mode))
                .keyBy(s -> s, Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(timeMode)
                .build();
    }

    private static TimeMode mode(String name) {
        return switch (name) {
            case "none" -> TimeMode.None();
            case "proc" -> TimeMode.ProcessingTime();
            default -> TimeMode.EventTime();
        };
    }

    @ParameterizedTest(name = "{0}@{1} fails in the first batch with {2}")
    @CsvSource(delimiter = '|', value = {
        "getstate-in-handle|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|operation=get_value_state with invalid handle state=INITIALIZED",
        "timer-none-mode|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE|operation=register_timer with invalid timeMode=NoTime",
        "list-timers-none-mode|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE|operation=list_timers with invalid timeMode=NoTime",
        "list-null|none|ILLEGAL_STATE_STORE_VALUE.NULL_VALUE|Cannot write null values to State Store for StateName l",
        "list-empty|none|ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE|Cannot write empty list values to State Store for StateName l",
        "list-put-null-elem|none|ILLEGAL_STATE_STORE_VALUE.NULL_VALUE|Cannot write null values to State Store for StateName l",
        "map-null-value|none|ILLEGAL_STATE_STORE_VALUE.NULL_VALUE|Cannot write null values to State Store for StateName m",
        "map-null-key|none|ILLEGAL_STATE_STORE_VALUE.NULL_VALUE|Cannot write null values to State Store for StateName m",
        "ttl-eventtime|event|STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL|Cannot use TTL for state=v in timeMode=EventTime, use TimeMode.ProcessingTime() instead",
        "ttl-eventtime|none|STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL|Cannot use TTL for state=v in timeMode=NoTime, use TimeMode.ProcessingTime() instead",
        "ttl-negative|proc|STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE|TTL duration must be greater than zero for State store operation=update on state=v",
        "deleteIfExists-in-handle|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|operation=delete_if_exists with invalid handle state=INITIALIZED",
        "boom|none|TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR|An error occurred in the user-defined function handleInputRows of the StatefulProcessor. Reason: user boom.",
        "bean-null|none|NOT_NULL_ASSERT_VIOLATION|NULL value appeared in non-nullable field",
    })
    void spec_6_state_api_misuse_fails_the_batch_with_sparks_error_class(String mode, String time, String condition,
            String message) {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query(mode, mode(time)));
        Throwable thrown = catchThrowable(() -> sim.runBatch("k1"));
        assertThat(thrown).isInstanceOf(SparkThrowable.class).hasMessageContaining(message);
        assertThat(((SparkThrowable) thrown).getCondition()).isEqualTo(condition);
        assertThat(sim.nextBatchId()).as("the failed batch commits nothing").isZero();
    }

    @ParameterizedTest(name = "{0}@{1} fails the first batch with {2}")
    @CsvSource(delimiter = '|', value = {
        "timer-in-init|proc|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|operation=register_timer with invalid handle state=PRE_INIT",
        "state-get-in-init|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|operation=v.get with invalid handle state=PRE_INIT",
        "close-state|none|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|operation=v.get with invalid handle state=PRE_INIT",
        "close-timer|proc|STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE|operation=register_timer with invalid handle state=PRE_INIT",
        "dup-value|none|STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED|State variable with name x has already been defined in the StatefulProcessor",
        "dup-value-list|none|STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED|State variable with name x has already been defined in the StatefulProcessor",
        "boom-init|none|TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR|An error occurred in the user-defined function init of the StatefulProcessor. Reason: boom in init.",
    })
    void spec_1_1_driver_side_errors_fail_the_first_batch(String mode, String time, String condition, String message) {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query(mode, mode(time))); // Spark starts the query
        Throwable thrown = catchThrowable(() -> sim.runBatch("k1"));
        assertThat(thrown).isInstanceOf(SparkThrowable.class).hasMessageContaining(message);
        assertThat(((SparkThrowable) thrown).getCondition()).isEqualTo(condition);
        assertThat(sim.nextBatchId()).as("batch 0 failed: nothing committed").isZero();
        // every start runs the driver pass again, and batch 0 fails again
        Throwable again = catchThrowable(sim::start);
        assertThat(((SparkThrowable) again).getCondition()).isEqualTo(condition);
        assertThat(sim.history().failures()).extracting(f -> f.batchId()).containsExactly(0L, 0L);
    }

    @Test
    void spec_6_get_map_state_twice_with_one_name_is_accepted() {
        assertThatCode(() -> new TwsSimulator<>(query("dup-map", TimeMode.None())).runBatch("k1")).doesNotThrowAnyException();
    }

    @Test
    void spec_6_value_update_null_with_nullable_encoder_acts_like_clear() {
        new TwsSimulator<>(query("value-null", TimeMode.None())).runBatch("k1");
        assertThat(Log.drain()).containsExactly("value-null ok get=null exists=false");
    }

    @Test
    void spec_15_7_user_exception_names_function_key_and_batch_and_keeps_the_cause() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query("boom", TimeMode.None()));
        ProcessorException e = (ProcessorException) catchThrowable(() -> sim.runBatch("k1"));
        assertThat(e.function()).isEqualTo("handleInputRows");
        assertThat(e.key()).contains("k1");
        assertThat(e.batchId()).isZero();
        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class).hasMessage("user boom");
        assertThat(e).hasMessageContaining("[twstester: function=handleInputRows, key=k1, batch=0]");
    }

    @Test
    void spec_15_7_lazy_iterator_exception_has_no_error_class() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query("lazy-boom", TimeMode.None()));
        ProcessorException e = (ProcessorException) catchThrowable(() -> sim.runBatch("k1"));
        assertThat(e.getCondition()).isNull();
        assertThat(e).hasMessageStartingWith("Job aborted due to stage failure");
        assertThat(e.getCause()).hasMessage("lazy boom");
    }

    @Test
    void spec_15_7_a_failing_batch_commits_nothing_and_earlier_batches_stand() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query("plain", TimeMode.None()));
        sim.runBatch("k1", "k1");
        assertThat(sim.state().<Long>value("v", "k1")).contains(2L);

        TwsSimulator<String, String, String> boom = new TwsSimulator<>(query("boom", TimeMode.None()));
        boom.state().setValue("v", "k0", 7L);
        catchThrowable(() -> boom.runBatch("k1"));
        // the processor wrote 42 for k1 before throwing: rolled back
        assertThat(boom.state().<Long>value("v", "k1")).isEmpty();
        assertThat(boom.state().<Long>value("v", "k0")).contains(7L);
        assertThat(boom.history().batches()).isEmpty();
    }

    @Test
    void an_undeclared_checked_exception_is_wrapped_like_any_other_and_its_batch_commits_nothing() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query("boom-checked", TimeMode.None()));
        ProcessorException e = (ProcessorException) catchThrowable(() -> sim.runBatch("k1"));
        assertThat(e.getCondition()).isEqualTo("TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR");
        assertThat(e.getCause()).isInstanceOf(java.io.IOException.class).hasMessage("checked boom");
        assertThat(sim.state().<Long>value("v", "k1")).isEmpty();
        assertThat(sim.nextBatchId()).isZero();
    }

    @Test
    void an_error_is_not_wrapped_and_its_batch_commits_nothing() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query("boom-error", TimeMode.None()));
        Throwable e = catchThrowable(() -> sim.runBatch("k1"));
        assertThat(e).isExactlyInstanceOf(AssertionError.class).hasMessage("user assertion");
        assertThat(sim.state().<Long>value("v", "k1")).isEmpty();
        assertThat(sim.nextBatchId()).isZero();
        assertThat(sim.history().batches()).isEmpty();
    }

    @Test
    void spark_4_0_wraps_no_user_exception_a_task_fails_its_stage_with_the_users_cause() {
        TwsSimulator<String, String, String> sim = TwsSimulator.builder(query("boom", TimeMode.None()))
                .sparkLine(SparkLine.V4_0).build();
        ProcessorException e = (ProcessorException) catchThrowable(() -> sim.runBatch("k1"));
        assertThat(e.getCondition()).isNull();
        assertThat(e).hasMessageStartingWith("Job aborted due to stage failure: handleInputRows threw"
                + " java.lang.IllegalStateException: user boom");
        assertThat(e.getCause()).isExactlyInstanceOf(IllegalStateException.class).hasMessage("user boom");
        assertThat(sim.state().<Long>value("v", "k1")).isEmpty();
    }

    @Test
    void spark_4_0_lets_an_exception_of_the_driver_side_init_through_as_it_is() {
        Throwable e = catchThrowable(() -> TwsSimulator.builder(query("boom-init", TimeMode.None()))
                .sparkLine(SparkLine.V4_0).build().runBatch("k1")); // the driver pass fails the first batch
        assertThat(e).isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("boom in init");
    }

    @Test
    void spark_4_0_hands_null_state_variables_to_the_driver_side_init_and_plans_the_npe_as_internal_error() {
        Throwable e = catchThrowable(() -> TwsSimulator.builder(query("state-get-in-init", TimeMode.None()))
                .sparkLine(SparkLine.V4_0).build().runBatch("k1"));
        assertThat(e).isInstanceOf(SparkException.class);
        assertThat(((SparkException) e).getCondition()).isEqualTo("INTERNAL_ERROR");
        assertThat(e).hasMessageStartingWith("[INTERNAL_ERROR] The Spark SQL phase planning failed with an internal error.");
        assertThat(e.getCause()).isInstanceOf(NullPointerException.class);
    }

    @Test
    void spark_4_1_wraps_as_4_2_does() {
        TwsSimulator<String, String, String> sim = TwsSimulator.builder(query("boom", TimeMode.None()))
                .sparkLine(SparkLine.V4_1).build();
        ProcessorException e = (ProcessorException) catchThrowable(() -> sim.runBatch("k1"));
        assertThat(e.getCondition()).isEqualTo("TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR");
    }

    @Test
    void spec_1_1_fields_set_in_driver_init_reach_the_executor_copy() {
        ErrorProcessor.INITS.set(0);
        new TwsSimulator<>(query("driverfield", TimeMode.None())).runBatch("k1");
        assertThat(Log.drain()).containsExactly("executor sees driverMark=set-in-init#1");
    }

    @Test
    void spec_6_a_processor_that_is_not_serializable_fails_like_task_not_serializable() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query("nonser", TimeMode.None()));
        Throwable thrown = catchThrowable(() -> sim.runBatch(List.of("k1")));
        assertThat(thrown).isInstanceOf(SparkException.class).hasMessageStartingWith("Task not serializable");
        assertThat(thrown.getCause()).isInstanceOf(java.io.NotSerializableException.class);
    }
}
