package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/** {@code TwsQuery.Builder#mapValues} in the simulator (pinned live by {@code LiveMapValuesTest}). */
class MapValuesTest {

    static TwsQuery<String, Event, String> tallyOfCommands() {
        return TwsQuery.builder(Tally::new)
                .mapValues(Event::getCmd, Encoders.STRING())
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.EventTime())
                .watermark("ts", Duration.ofSeconds(5))
                .build();
    }

    /** Batch 0, its no-data batch (watermark 15 s fires a@12 s), then a row 12 s behind the watermark. */
    static Scenario<Event> lateRowScenario() {
        return Scenario.<Event>builder()
                .batch(List.of(new Event("a", 10_000, "timer:12000"), new Event("b", 20_000, "x")))
                .batch(List.of(new Event("a", 3_000, "late")))
                .build();
    }

    @Test
    void the_processor_gets_the_mapped_values_and_no_row_is_dropped_as_late() {
        RunResult<String, Event, String> run = new TwsSimulator<>(tallyOfCommands()).run(lateRowScenario());

        assertThat(run.batches()).hasSize(3);
        assertThat(run.batches().get(0).outputs()).containsExactly("a:timer:12000#1@0", "b:x#1@0");
        assertThat(run.batches().get(1).outputs()).containsExactly("a:timer@12000");
        // mapValues projects the event-time column away, so the operator has no late-row filter
        assertThat(run.batches().get(2).droppedLate()).isEmpty();
        assertThat(run.batches().get(2).outputs()).containsExactly("a:late#2@15000");
    }

    @Test
    void the_query_reports_the_users_processor_and_the_mapping() {
        TwsQuery<String, Event, String> query = tallyOfCommands();

        assertThat(query.userClass()).isEqualTo(Tally.class);
        assertThat(query.valueMapping()).get().extracting(m -> m.encoder()).isEqualTo(Encoders.STRING());
        assertThat(query.valueMapping().get().newProcessor()).isInstanceOf(Tally.class);
    }

    /** Counts the lengths it is handed, starting from the initial state. */
    public static class LengthSum extends StatefulProcessorWithInitialState<String, Integer, Long, Long> {
        private transient org.apache.spark.sql.streaming.ValueState<Long> sum;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            sum = getHandle().getValueState("sum", Encoders.LONG(), org.apache.spark.sql.streaming.TTLConfig.NONE());
        }

        @Override
        public void handleInitialState(String key, Long initial, TimerValues timerValues) {
            sum.update(initial);
        }

        @Override
        public scala.collection.Iterator<Long> handleInputRows(String key, scala.collection.Iterator<Integer> lengths,
                TimerValues timerValues) {
            long s = sum.exists() ? sum.get() : 0;
            while (lengths.hasNext()) {
                s += lengths.next();
            }
            sum.update(s);
            return scala.jdk.javaapi.CollectionConverters.asScala(List.of(s).iterator());
        }
    }

    @Test
    void a_processor_with_initial_state_gets_it_and_the_mapped_values() {
        TwsQuery<String, Event, Long> query = TwsQuery.builder(LengthSum::new)
                .mapValues((MapFunction<Event, Integer>) e -> e.getCmd().length(), Encoders.INT())
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.LONG())
                .initialState(List.of(Map.entry("a", 100L)), Encoders.LONG())
                .build();
        TwsSimulator<String, Event, Long> sim = new TwsSimulator<>(query);

        assertThat(sim.runBatch(List.of(new Event("a", 1, "abc"), new Event("a", 2, "de"))).outputs())
                .containsExactly(105L);
        assertThat(sim.runBatch(List.of(new Event("b", 3, "xyz"))).outputs()).containsExactly(3L);
    }

    @Test
    void mapValues_after_keyBy_or_on_a_legacy_function_is_refused_with_what_to_do() {
        assertThatThrownBy(() -> TwsQuery.builder(Tally::new)
                .input(Encoders.STRING())
                .mapValues((MapFunction<Event, String>) Event::getCmd, Encoders.STRING()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("right after TwsQuery.builder(...) and before keyBy(...) and input(...)");
        assertThatThrownBy(() -> TwsQuery.<String, String, Long, String>mapGroupsWithState(
                        (k, values, state) -> k, Encoders.LONG(), GroupStateTimeout.NoTimeout())
                .mapValues((MapFunction<Event, String>) Event::getCmd, Encoders.STRING()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("transformWithState processors only, not for mapGroupsWithState");
    }
}
