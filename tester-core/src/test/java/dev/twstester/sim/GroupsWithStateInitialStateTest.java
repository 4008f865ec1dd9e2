package dev.twstester.sim;

import static dev.twstester.sim.LegacyInitialState.ABC;
import static dev.twstester.sim.LegacyInitialState.DUPLICATE;
import static dev.twstester.sim.LegacyInitialState.EVENT;
import static dev.twstester.sim.LegacyInitialState.EVENT_TIMEOUTS;
import static dev.twstester.sim.LegacyInitialState.NONE;
import static dev.twstester.sim.LegacyInitialState.PROCESSING;
import static dev.twstester.sim.LegacyInitialState.TIMEOUTS;
import static dev.twstester.sim.LegacyInitialState.e;
import static dev.twstester.sim.LegacyInitialState.flat;
import static dev.twstester.sim.LegacyInitialState.map;
import static dev.twstester.sim.LegacyInitialState.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.GroupsWithState;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

/**
 * Spark's {@code initialState} argument of {@code mapGroupsWithState} / {@code flatMapGroupsWithState}
 * (semantics.md 16.11), on the simulator; {@code LiveGroupsWithStateInitialStateTest} runs the same
 * scenarios ({@link LegacyInitialState}) on live Spark.
 */
class GroupsWithStateInitialStateTest {
    private static Long state(TwsSimulator<String, Event, String> sim, String key) {
        return sim.state().<Long>value(GroupsWithState.STATE_VARIABLE, key).orElse(null);
    }

    @Test
    void initial_state_is_applied_in_batch_0_only_and_keys_with_only_initial_state_are_called_without_rows() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(NONE, ABC).build());

        RunResult<String, Event, String> run = sim.run(LegacyInitialState.batch0Only());

        assertThat(run.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
        // batch 0: a (initial 5 + 1), b (initial only: called with no rows), c (rows only), in key order
        assertThat(run.batches().get(0).outputs()).containsExactly("a=6", "b=2", "c=1");
        // the initial value is written without counting; b's call wrote nothing, yet its row stays
        assertThat(run.batches().get(0).metrics()).containsEntry("numUpdatedStateRows", 2L);
        // after the restart: b counts on from its initial state, a's initial state is not applied again
        assertThat(run.batches().get(1).outputs()).containsExactly("a=6", "b=3");
        assertThat(run.batches().get(1).metrics()).containsEntry("numUpdatedStateRows", 1L);
        assertThat(state(sim, "a")).isEqualTo(6L);
        assertThat(state(sim, "b")).isEqualTo(3L);
        assertThat(state(sim, "c")).isEqualTo(1L);
    }

    @Test
    void map_groups_with_state_emits_a_row_for_a_key_with_only_initial_state() {
        RunResult<String, Event, String> run = new TwsSimulator<>(map(NONE, ABC).build()).run(LegacyInitialState.batch0Only());

        assertThat(run.outputs()).containsExactly("a=6", "b=2", "c=1", "a=6", "b=3");
    }

    @Test
    void initial_state_has_no_timeout_and_a_call_on_it_can_set_one() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(PROCESSING, TIMEOUTS).build());

        RunResult<String, Event, String> run = sim.run(LegacyInitialState.processingTimeouts());

        assertThat(run.batches().get(0).outputs()).containsExactly("rearm1=7", "x=2");
        // rearm1's state was not updated, but its timeout changed: its row is written
        assertThat(run.batches().get(0).metrics()).containsEntry("numUpdatedStateRows", 2L);
        assertThat(run.outputs()).containsExactly("rearm1=7", "x=2", "x timed out 2", "rearm1 timed out 7");
        assertThat(run.firedTimers()).containsExactly(new FiredTimer<>("x", t(1100)), new FiredTimer<>("rearm1", t(2000)));
        assertThat(sim.state().timers("rearm1")).containsExactly(t(3001));
    }

    @Test
    void with_event_time_timeout_an_initial_state_key_times_out_in_the_no_data_batch() {
        RunResult<String, Event, String> run = new TwsSimulator<>(flat(EVENT, EVENT_TIMEOUTS).build())
                .run(LegacyInitialState.eventTimeouts());

        assertThat(run.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L);
        assertThat(run.batches().get(0).outputs()).containsExactly("a=1", "b=2", "rearm=3");
        assertThat(run.batches().get(1).outputs()).containsExactly("rearm timed out 3");
        assertThat(run.batches().get(3).outputs()).containsExactly("a timed out 1", "b timed out 2", "rearm timed out 3");
        assertThat(run.batches().get(1).firedTimers()).containsExactly(new FiredTimer<>("rearm", t(1000)));
    }

    @Test
    void a_key_given_twice_fails_batch_0_with_sparks_illegal_argument_exception_and_commits_nothing() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(NONE, DUPLICATE).build());

        Throwable thrown = catchThrowable(() -> sim.run(LegacyInitialState.oneBatch()));

        assertThat(thrown).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("The initial state provided contained multiple rows(state) with the same key. "
                        + "Make sure to de-duplicate the initial state before passing it.");
        assertThat(sim.nextBatchId()).isZero();
        assertThat(state(sim, "a")).isNull();
        assertThat(state(sim, "b")).isNull();
    }

    @Test
    void fast_fidelity_retries_and_two_partitions_give_the_same_outputs() {
        TwsQuery<String, Event, String> query = flat(NONE, ABC).build();
        List<String> full = new TwsSimulator<>(query).run(LegacyInitialState.batch0Only()).outputs();
        assertThat(new TwsSimulator<>(query, Fidelity.FAST).run(LegacyInitialState.batch0Only()).outputs()).isEqualTo(full);
        assertThat(TwsSimulator.builder(query).checkRetries().build().run(LegacyInitialState.batch0Only()).outputs())
                .isEqualTo(full);
        assertThat(new TwsSimulator<>(flat(NONE, ABC).shufflePartitions(2).build()).run(LegacyInitialState.batch0Only())
                .outputs()).containsExactlyInAnyOrderElementsOf(full);
    }

    @Test
    void the_initial_state_encoder_must_have_the_state_encoders_schema_or_build_fails_as_spark_does() {
        assertThatThrownBy(() -> flat(NONE, List.of(Map.entry("a", "5")), Encoders.STRING()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("[CANNOT_UP_CAST_DATATYPE] Cannot up cast value from \"STRING\" to \"BIGINT\".");
        assertThatThrownBy(() -> flat(NONE, List.of(Map.entry("a", new OutEvent("a", 1, "w"))),
                Encoders.bean(OutEvent.class)).build())
                .hasMessageStartingWith("[UNSUPPORTED_DESERIALIZER.FIELD_NUMBER_MISMATCH] The deserializer is not "
                        + "supported: try to map \"STRUCT<key: STRING, outTs: TIMESTAMP, what: STRING>\" to Tuple1, but "
                        + "failed as the number of fields does not line up.");
        // Spark up-casts INT to BIGINT: not modelled
        assertThatThrownBy(() -> flat(NONE, List.of(Map.entry("a", 5)), Encoders.INT()).build())
                .hasMessageContaining("is not modelled: Spark reads the initial state's rows with the state encoder");
        // the same schema (nullability aside) is the state's type
        TwsQuery<String, Event, String> scalaLong = flat(NONE, List.<Map.Entry<String, Object>>of(Map.entry("a", 5L)), Encoders.scalaLong()).build();
        assertThat(new TwsSimulator<>(scalaLong).runBatch(e("a", 0, "inc")).outputs()).containsExactly("a=6");
    }
}
