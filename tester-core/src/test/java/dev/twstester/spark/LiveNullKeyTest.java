package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.util.List;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoders;
import org.apache.spark.api.java.function.FlatMapGroupsWithStateFunction;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.NullKeyInitialStateProcessor;
import dev.twstester.sim.NullKeyProcessor;
import dev.twstester.sim.TwsSimulator;

/**
 * A null grouping key (docs/semantics.md 1.6) on live Spark and on the simulator: it reaches
 * {@code handleInputRows}, and its first state or timer access fails the batch with Spark's
 * {@code INTERNAL_ERROR_TWS} naming the column family; with no access the batch runs.
 */
@Tag("live")
class LiveNullKeyTest {

    private static final Scenario<String> RUN = Scenario.<String>builder()
            .batchAt(Instant.ofEpochMilli(1000), List.of("x,1")).batchAt(Instant.ofEpochMilli(2000), List.of("x,2", "null,1"))
            .build();

    /** The first Spark error in the chain below STREAM_FAILED, as "class: message"; else the throwable. */
    static String error(Throwable t) {
        SparkThrowable st = LiveEvolutionTest.sparkError(t);
        return st == null ? String.valueOf(t) : st.getClass().getName() + ": " + ((Throwable) st).getMessage();
    }

    /** {@code expected} is "ok" or the start of the error both engines fail the second batch with. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "none|ok",
        "value-get|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=v",
        "value-exists|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=v",
        "value-update|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=v",
        "value-clear|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=v",
        "list-get|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=l",
        "list-exists|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=l",
        "list-append|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=l",
        "list-put|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=l",
        "list-clear|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=l",
        "map-get|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=m",
        "map-contains|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=m",
        "map-update|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=m",
        "map-keys|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=m",
        "map-iterator|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=m",
        "map-remove|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=m",
        "map-clear|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=m",
        "ttl-value-get|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=v",
        "ttl-list-append|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=l",
        "ttl-map-update|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=m",
        "timer-register|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=$procTimers_keyToTimestamp",
        "timer-list|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=$procTimers_keyToTimestamp",
        "timer-delete|[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=$procTimers_keyToTimestamp",
    })
    void a_null_key_fails_at_its_first_state_access_alike_on_both_engines(String access, String expected) {
        TwsQuery<String, String, String> query = NullKeyProcessor.query(access);
        Throwable liveError = null;
        RunResult<String, String, String> live = null;
        try {
            live = LiveRunner.of(query).run(RUN);
        } catch (LiveRunException e) {
            liveError = e;
        }
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query);
        Throwable simError = catchThrowable(() -> sim.run(RUN));
        if (expected.equals("ok")) {
            assertThat(liveError).as("live Spark").isNull();
            assertThat(simError).as("the simulator").isNull();
            RunComparison.simulatorVsSpark().assertSame(sim.history(), live);
            assertThat(live.batches().get(1).outputs()).containsExactly("null:none=- rows=1", "x:none=- rows=1");
            return;
        }
        assertThat(liveError).as("live Spark").isNotNull();
        assertThat(((LiveRunException) liveError).completed()).as("live batches before the failure").hasSize(1);
        assertThat(error(liveError)).as("live Spark")
                .isEqualTo("org.apache.spark.SparkException: " + expected + " SQLSTATE: XX000");
        assertThat(error(simError)).as("the simulator").isEqualTo(error(liveError));
    }

    private static final Scenario<NullKeyInitialStateProcessor.Row> TIMED = Scenario.<NullKeyInitialStateProcessor.Row>builder()
            .batchAt(Instant.ofEpochMilli(1000), List.of(new NullKeyInitialStateProcessor.Row("x", 10),
                    new NullKeyInitialStateProcessor.Row("null", 10)))
            .batchAt(Instant.ofEpochMilli(2000), List.of(new NullKeyInitialStateProcessor.Row("x", 30)))
            .batchAt(Instant.ofEpochMilli(3000), List.of(new NullKeyInitialStateProcessor.Row("null", 31)))
            .build();

    /**
     * The null key in initial state and in event time: {@code expected} is the outputs of every
     * batch both engines run ("|"-joined per batch, ";" between batches) or the start of the error
     * both fail batch 0 with.
     */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '#', value = {
        "init-none#null:rows=1,x:rows=1;x:rows=1;null:rows=1",
        "init-value-update#[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=v",
        "init-timer#[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=$procTimers_keyToTimestamp",
        "et-none#null:rows=1,x:rows=1;x:rows=1;null:rows=1",
        "et-timer#[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=$eventTimers_keyToTimestamp",
        "et-timer-list#[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=$eventTimers_keyToTimestamp",
    })
    void a_null_key_in_initial_state_and_event_time_fails_alike_on_both_engines(String access, String expected) {
        TwsQuery<String, NullKeyInitialStateProcessor.Row, String> query = NullKeyInitialStateProcessor.query(access);
        Throwable liveError = null;
        RunResult<String, NullKeyInitialStateProcessor.Row, String> live = null;
        try {
            live = LiveRunner.of(query).run(TIMED);
        } catch (LiveRunException e) {
            liveError = e;
        }
        TwsSimulator<String, NullKeyInitialStateProcessor.Row, String> sim = new TwsSimulator<>(query);
        Throwable simError = catchThrowable(() -> sim.run(TIMED));
        if (!expected.startsWith("[")) {
            assertThat(liveError).as("live Spark").isNull();
            assertThat(simError).as("the simulator").isNull();
            RunComparison.simulatorVsSpark().assertSame(sim.history(), live);
            assertThat(String.join(";", live.batches().stream().filter(b -> !b.outputs().isEmpty())
                    .map(b -> String.join(",", b.outputs())).toList())).isEqualTo(expected);
            return;
        }
        assertThat(liveError).as("live Spark").isNotNull();
        assertThat(((LiveRunException) liveError).completed()).as("live batches before the failure").isEmpty();
        assertThat(error(liveError)).as("live Spark")
                .isEqualTo("org.apache.spark.SparkException: " + expected + " SQLSTATE: XX000");
        assertThat(error(simError)).as("the simulator").isEqualTo(error(liveError));
    }

    /** Counts a key's rows in its {@code GroupState}; emits "key:count". */
    private static final FlatMapGroupsWithStateFunction<String, String, Long, String> COUNT = (key, rows, state) -> {
        long n = state.exists() ? state.get() : 0;
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        state.update(n);
        return List.of(key + ":" + n).iterator();
    };

    @Test
    void flat_map_groups_with_state_keeps_state_for_a_null_key_as_for_any_other() {
        TwsQuery<String, String, String> query = TwsQuery.flatMapGroupsWithState(COUNT, OutputMode.Update(),
                        Encoders.LONG(), GroupStateTimeout.NoTimeout())
                .keyBy(s -> s.startsWith("null,") ? null : s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING()).output(Encoders.STRING())
                .trigger(Trigger.ProcessingTime(1000))
                .build();
        Scenario<String> run = Scenario.<String>builder()
                .batchAt(Instant.ofEpochMilli(1000), List.of("x,1", "null,1"))
                .batchAt(Instant.ofEpochMilli(2000), List.of("null,2", "null,3")).build();

        RunResult<String, String, String> live = LiveRunner.of(query).run(run);

        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query);
        RunComparison.simulatorVsSpark().assertSame(sim.run(run), live);
        assertThat(live.batches().get(0).outputs()).containsExactly("null:1", "x:1");
        assertThat(live.batches().get(1).outputs()).containsExactly("null:3");
        assertThat(sim.state().keys()).containsExactly(null, "x");
    }
}
