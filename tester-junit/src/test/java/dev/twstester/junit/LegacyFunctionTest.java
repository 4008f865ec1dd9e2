package dev.twstester.junit;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.spark.api.java.function.FlatMapGroupsWithStateFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.FiredTimer;
import dev.twstester.GroupsWithState;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.property.Property;
import dev.twstester.property.ScenarioGenerator;

/** A flatMapGroupsWithState query in a {@code @TwsTest} class: simulators, assertions and the timeline work as for a processor. */
@TwsTest
class LegacyFunctionTest {
    /** Counts a sensor's readings; 10 s of watermark without one times the sensor out. */
    static final class Silence implements FlatMapGroupsWithStateFunction<String, Reading, Long, String> {
        @Override
        public java.util.Iterator<String> call(String sensor, java.util.Iterator<Reading> readings,
                org.apache.spark.sql.streaming.GroupState<Long> state) {
            List<String> out = new ArrayList<>();
            if (state.hasTimedOut()) {
                out.add(sensor + " silent after " + state.get());
                state.remove();
                return out.iterator();
            }
            long count = state.exists() ? state.get() : 0L;
            long last = 0;
            while (readings.hasNext()) {
                count++;
                last = Math.max(last, readings.next().getTs().getTime());
            }
            state.update(count);
            state.setTimeoutTimestamp(last + 10_000);
            return out.iterator();
        }
    }

    static TwsQuery<String, Reading, String> query() {
        return builder().build();
    }

    private static TwsQuery.Builder<String, Reading, String> builder() {
        return TwsQuery.flatMapGroupsWithState(new Silence(), OutputMode.Append(), Encoders.LONG(),
                        GroupStateTimeout.EventTimeTimeout())
                .keyBy(Reading::getSensor, Encoders.STRING())
                .input(Encoders.bean(Reading.class))
                .output(Encoders.STRING())
                .outputMode(OutputMode.Append())
                .watermark("ts", Duration.ofSeconds(5));
    }

    @Simulator TestSimulator<String, Reading, String> sim;

    @Test
    void a_sensor_times_out_once_the_watermark_passes_its_timeout() {
        sim.runBatch(reading("a", 10, 0), reading("b", 12, 0));
        assertThat(sim).valueState(GroupsWithState.STATE_VARIABLE, "a").contains(1L);
        assertThat(sim).timers("a").containsExactly(Instant.ofEpochSecond(20));

        RunResult<String, Reading, String> run = sim.runBatch(reading("b", 26, 0));

        assertThat(run).outputs().containsExactly("a silent after 1");
        assertThat(run).firedTimers().containsExactly(new FiredTimer<>("a", Instant.ofEpochSecond(20)));
        assertThat(sim).hasNoStateFor("a");
        assertThat(sim.output().readAll()).containsExactly("a silent after 1");
        assertThat(sim.toString()).isEqualTo("TestSimulator 'sim' (Silence, EventTime mode, Append output, "
                + "watermark on ts delayed PT5S)");
    }

    @Test
    @Tag("live")
    void the_differential_property_runs_a_legacy_query_on_both_engines() {
        agreesOnThreeSeeds(query(), 0);
    }

    /** {@code DifferentialProperty} on both engines, 3 seeds, sensors a and b, batches of {@code minRows} to 3 readings. */
    private static void agreesOnThreeSeeds(TwsQuery<String, Reading, String> query, int minRows) {
        DifferentialProperty<String, Reading, String> property = DifferentialProperty.of(query,
                ScenarioGenerator.create().keys("a", "b").eventTimeBase(Instant.ofEpochSecond(10))
                        .eventTimeSpread(Duration.ofSeconds(40)).interestingDurations(Duration.ofSeconds(10))
                        .batches(2, 5).eventsPerBatch(minRows, 3).restartChance(0.2),
                Reading::new);
        for (long seed : Property.trySeeds(0, 3)) {
            property.assertAgreement(seed);
        }
    }

    /** Spark's initialState argument: b starts from 5; c, with initial state only, times out 10 s after the epoch. */
    @Test
    @Tag("live")
    void the_differential_property_runs_a_legacy_query_with_initial_state_on_both_engines() {
        TwsQuery<String, Reading, String> withInitialState = builder()
                .initialState(List.of(Map.entry("b", 5L), Map.entry("c", 2L)), Encoders.LONG())
                .build();
        agreesOnThreeSeeds(withInitialState, 1); // batch 0 has readings: the initial state is applied with them
        RunResult<String, Reading, String> run = new dev.twstester.sim.TwsSimulator<>(withInitialState)
                .runBatch(reading("b", 30, 0));
        assertThat(run).outputs().containsExactly("c silent after 2");
    }
}
