package dev.twstester.spark;

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
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkThrowable;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.KeyValueGroupedDataset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.Event;
import dev.twstester.sim.LegacyInitialState;
import dev.twstester.sim.LegacyProbe;
import dev.twstester.sim.OutEvent;
import dev.twstester.sim.ReturnsNull;
import dev.twstester.sim.TwsSimulator;

import scala.Tuple2;

/**
 * Spark's {@code initialState} argument of the legacy operator on live Spark: each scenario of
 * {@code GroupsWithStateInitialStateTest} runs as the real {@code groupByKey(...).flatMapGroupsWithState(...,
 * initialState)} / {@code mapGroupsWithState(..., initialState)} query (the initial state a batch
 * {@code KeyValueGroupedDataset} of the rows) and on the simulator: every batch must be equal, and
 * errors the same. Also what a {@code mapGroupsWithState} function returning null does.
 */
@Tag("live")
class LiveGroupsWithStateInitialStateTest {
    private static final RunComparison SAME = RunComparison.simulatorVsSpark();

    /** Runs both engines; every batch must be equal. Returns the simulator's run. */
    private static <O> RunResult<String, Event, O> assertAgree(TwsQuery<String, Event, O> query, Scenario<Event> scenario) {
        RunResult<String, Event, O> sim = new TwsSimulator<>(query).run(scenario);
        RunResult<String, Event, O> live = LiveRunner.of(query).run(scenario);
        SAME.assertSame(sim, live);
        assertThat(live.batches()).isEqualTo(sim.batches());
        return sim;
    }

    @Test
    void initial_state_is_applied_in_batch_0_only_and_keys_with_only_initial_state_are_called_without_rows() {
        RunResult<String, Event, String> run = assertAgree(flat(NONE, ABC).build(), LegacyInitialState.batch0Only());
        assertThat(run.outputs()).containsExactly("a=6", "b=2", "c=1", "a=6", "b=3");
        assertThat(run.batches().get(0).metrics()).containsEntry("numUpdatedStateRows", 2L);
        // each partition's task: its keys with initial state or rows, in key order
        assertAgree(flat(NONE, ABC).shufflePartitions(2).build(), LegacyInitialState.batch0Only());
        RunResult<String, Event, String> mapped = assertAgree(map(NONE, ABC).build(), LegacyInitialState.batch0Only());
        assertThat(mapped.outputs()).containsExactly("a=6", "b=2", "c=1", "a=6", "b=3");
    }

    @Test
    void a_key_with_only_initial_state_keeps_it_in_the_checkpoint_without_a_write_by_the_function() {
        TwsQuery<String, Event, String> query = flat(NONE, ABC).build();
        Scenario<Event> scenario = Scenario.<Event>builder().batchAt(t(1000), List.of(e("b", 0, "inc"), e("c", 0, "inc")))
                .build();
        LiveOutcome<String, Event, String> live = LiveRunner.of(query).runWithEndState(scenario);
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(query);

        SAME.assertSame(sim.run(scenario), live.run());
        assertThat(live.run().outputs()).containsExactly("a=5", "b=3", "c=1");
        SAME.assertSameState(sim.snapshot(), live.endState());
        assertThat(sim.state().<Long>value(dev.twstester.GroupsWithState.STATE_VARIABLE, "a")).contains(5L);
    }

    @Test
    void initial_state_has_no_timeout_and_a_call_on_it_can_set_one() {
        RunResult<String, Event, String> run = assertAgree(flat(PROCESSING, TIMEOUTS).build(),
                LegacyInitialState.processingTimeouts());
        assertThat(run.outputs()).containsExactly("rearm1=7", "x=2", "x timed out 2", "rearm1 timed out 7");
    }

    @Test
    void with_event_time_timeout_an_initial_state_key_times_out_in_the_no_data_batch() {
        RunResult<String, Event, String> run = assertAgree(flat(EVENT, EVENT_TIMEOUTS).build(),
                LegacyInitialState.eventTimeouts());
        assertThat(run.batches().get(1).outputs()).containsExactly("rearm timed out 3");
        assertAgree(flat(EVENT, EVENT_TIMEOUTS).shufflePartitions(2).build(), LegacyInitialState.eventTimeouts());
    }

    @Test
    void a_key_given_twice_fails_batch_0_with_the_same_illegal_argument_exception() {
        TwsQuery<String, Event, String> query = flat(NONE, DUPLICATE).build();
        Throwable sim = catchThrowable(() -> new TwsSimulator<>(query).run(LegacyInitialState.oneBatch()));
        Throwable live = catchThrowable(() -> LiveRunner.of(query).run(LegacyInitialState.oneBatch()));

        assertThat(live).isInstanceOf(LiveRunException.class);
        assertThat(((LiveRunException) live).completed()).isEmpty();
        Throwable cause = causeOf(live, IllegalArgumentException.class);
        assertThat(cause).as("Spark's cause chain: %s", live).isNotNull();
        assertThat(sim).isExactlyInstanceOf(IllegalArgumentException.class).hasMessage(cause.getMessage());
    }

    private static Throwable causeOf(Throwable t, Class<?> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return c;
            }
        }
        return null;
    }

    /** Spark's own mapGroupsWithState(..., initialState) call on a Long state with an initial state of {@code encoder}. */
    private static <T> Throwable sparkCall(Encoder<T> encoder, T value) {
        return sparkCall(Encoders.LONG(), encoder, value);
    }

    /** Spark's own mapGroupsWithState(..., initialState) call with a state of {@code state} (the call is not run). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T> Throwable sparkCall(Encoder<?> state, Encoder<T> encoder, T value) {
        var spark = LiveSpark.session();
        KeyValueGroupedDataset<String, Event> grouped = SparkStreaming.memoryStream(Encoders.bean(Event.class), spark).toDS()
                .groupByKey((MapFunction<Event, String>) Event::getKey, Encoders.STRING());
        KeyValueGroupedDataset<String, T> initial = spark
                .createDataset(List.of(new Tuple2<>("a", value)), Encoders.tuple(Encoders.STRING(), encoder))
                .groupByKey((MapFunction<Tuple2<String, T>, String>) Tuple2::_1, Encoders.STRING())
                .mapValues((MapFunction<Tuple2<String, T>, T>) Tuple2::_2, encoder);
        KeyValueGroupedDataset<String, Long> asState = (KeyValueGroupedDataset) initial;
        return catchThrowable(() -> grouped.mapGroupsWithState(new LegacyProbe.AsMap(false), (Encoder<Long>) state,
                Encoders.STRING(), NONE, asState));
    }

    @Test
    void spark_refuses_the_initial_state_encoders_the_builder_refuses_with_the_same_error() {
        List<Object[]> cases = new ArrayList<>();
        cases.add(new Object[] {Encoders.STRING(), "5"});
        cases.add(new Object[] {Encoders.bean(OutEvent.class), new OutEvent("a", 1, "w")});
        for (Object[] c : cases) {
            @SuppressWarnings("unchecked")
            Encoder<Object> encoder = (Encoder<Object>) c[0];
            Throwable spark = sparkCall(encoder, c[1]);
            Throwable builder = catchThrowable(() -> flat(NONE, List.of(Map.entry("a", c[1])), encoder).build());
            assertThat(spark).as("Spark's call with %s", encoder).isInstanceOf(SparkThrowable.class);
            String condition = ((SparkThrowable) spark).getCondition();
            String sparkFirstLine = spark.getMessage().lines().findFirst().orElseThrow();
            assertThat(builder.getMessage()).startsWith("[" + condition + "] ").contains(sparkFirstLine.replace(
                    " SQLSTATE: 0A000", ""));
        }
        // Spark up-casts an INT initial state to a BIGINT state, BIGINT to a STRING state: accepted there,
        // refused as not modelled here
        assertThat(sparkCall(Encoders.INT(), 5)).isNull();
        assertThat(sparkCall(Encoders.STRING(), Encoders.LONG(), 5L)).isNull();
        assertThat(catchThrowable(() -> flat(NONE, List.of(Map.entry("a", 5)), Encoders.INT()).build()))
                .hasMessageContaining("is not modelled");
        // a bean state's fields are resolved by name: a field the initial state lacks fails Spark's call
        Throwable missingField = sparkCall(Encoders.bean(OutEvent.class), Encoders.LONG(), 5L);
        assertThat(missingField).isInstanceOf(SparkThrowable.class);
        assertThat(((SparkThrowable) missingField).getCondition()).isEqualTo("UNRESOLVED_COLUMN.WITH_SUGGESTION");
    }

    @Test
    void spark_does_not_skip_keys_with_only_initial_state_by_default() {
        assertThat(LiveSpark.session().conf().get(
                "spark.sql.streaming.flatMapGroupsWithState.skipEmittingInitialStateKeys")).isEqualTo("false");
    }

    @Test
    void an_initial_state_encoder_of_the_same_schema_agrees() {
        TwsQuery<String, Event, String> query = flat(NONE, List.<Map.Entry<String, Object>>of(Map.entry("a", 5L)),
                Encoders.scalaLong()).build();
        RunResult<String, Event, String> run = assertAgree(query, LegacyInitialState.oneBatch());
        assertThat(run.outputs()).containsExactly("a=5", "b=1", "c=1");
    }

    private static <O> TwsQuery<String, Event, O> returnsNull(O value, Encoder<O> output) {
        return TwsQuery.mapGroupsWithState(new ReturnsNull<>(value), Encoders.LONG(), NONE)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(output)
                .build();
    }

    @Test
    void a_map_groups_with_state_function_returning_null_emits_a_null_row_for_a_flat_output_and_fails_for_a_bean() {
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("a", 0, "x"), e("n", 0, "x")))
                .batchAt(t(2000), List.of(e("n", 0, "x")))
                .build();
        List<String> strings = new ArrayList<>();
        strings.add("x");
        strings.add(null);
        strings.add(null);
        assertThat(assertAgree(returnsNull("x", Encoders.STRING()), scenario).outputs()).isEqualTo(strings);
        List<Long> longs = new ArrayList<>();
        longs.add(7L);
        longs.add(null);
        longs.add(null);
        assertThat(assertAgree(returnsNull(7L, Encoders.LONG()), scenario).outputs()).isEqualTo(longs);

        TwsQuery<String, Event, OutEvent> bean = returnsNull(new OutEvent("a", 1, "x"), Encoders.bean(OutEvent.class));
        Throwable sim = catchThrowable(() -> new TwsSimulator<>(bean).run(scenario));
        Throwable live = catchThrowable(() -> LiveRunner.of(bean).run(scenario));
        assertThat(live).isInstanceOf(LiveRunException.class);
        assertThat(((LiveRunException) live).completed()).isEmpty();
        assertThat(sim).isInstanceOf(SparkThrowable.class);
        assertThat(((SparkThrowable) sim).getCondition()).isEqualTo("NOT_NULL_ASSERT_VIOLATION");
        assertThat(LiveGroupsWithStateTest.condition(live)).isEqualTo("NOT_NULL_ASSERT_VIOLATION");
    }
}
