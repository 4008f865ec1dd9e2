package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/** Fidelity.FAST keeps objects by reference but runs the same batches, orders and timers as FULL. */
class FastFidelityTest {

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    @Test
    void the_processing_time_experiment_runs_the_same_in_both_fidelities() {
        TwsQuery<String, String, String> query = TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING()).output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime()).build();
        Scenario<String> scenario = Scenario.<String>builder()
                .batchAt(t(1000), List.of("x,reg:70000", "x,reg:2000", "x,reg:1", "b,reg:5000", "a,reg:5000",
                        "ccc,reg:5000", "dd,reg:5000", "x,smap:b=1;a=2;c=3;aa=4;bbb=5;B=6", "x,imap:1=1;256=2;-1=4",
                        "x,show", "y,ttlset:v1"))
                .tick(t(2000)).batchAt(t(4000), List.of("y,ttlget", "x,show")).tick(t(5000)).build();
        Log.drain();
        RunResult<String, String, String> full = new TwsSimulator<>(query).run(scenario);
        List<String> fullLog = Log.drain();
        RunResult<String, String, String> fast = new TwsSimulator<>(query, Fidelity.FAST).run(scenario);
        assertThat(fast).isEqualTo(full);
        assertThat(Log.drain()).isEqualTo(fullLog);
    }

    @Test
    void the_event_time_experiment_runs_the_same_in_both_fidelities() {
        TwsQuery<String, Event, OutEvent> query = TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class)).output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime()).watermark("ts", Duration.ofSeconds(10)).build();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a", 10000, "timer+5"), new Event("b", 20000, "timer+5"), new Event("z", 1000, "reg:0")))
                .batch(List.of(new Event("a", 10000, "eq-wm"), new Event("a", 10001, "timer+5"), new Event("d", 30000, "x")))
                .batch(List.of(new Event("f", 100000, "x"))).build();
        assertThat(new TwsSimulator<>(query, Fidelity.FAST).run(scenario)).isEqualTo(new TwsSimulator<>(query).run(scenario));
    }

    /** Keeps a mutable list in state, then changes the list after update. */
    public static class MutatesAfterUpdate extends StatefulProcessor<String, String, String> {
        private transient ValueState<ArrayList<String>> names;

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public void init(OutputMode outputMode, TimeMode timeMode) {
            names = getHandle().getValueState("names", (org.apache.spark.sql.Encoder) Encoders.kryo(ArrayList.class),
                    TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            ArrayList<String> list = new ArrayList<>(List.of("first"));
            names.update(list);
            list.add("after-update");
            return Log.it(List.of(String.valueOf(names.get())));
        }
    }

    @Test
    void fast_keeps_state_by_reference_full_keeps_an_encoded_copy() {
        TwsQuery<String, String, String> query = TwsQuery.builder(MutatesAfterUpdate::new)
                .keyBy(s -> s, Encoders.STRING()).input(Encoders.STRING()).output(Encoders.STRING()).build();
        assertThat(new TwsSimulator<>(query).runBatch("k").outputs()).containsExactly("[first]");
        assertThat(new TwsSimulator<>(query, Fidelity.FAST).runBatch("k").outputs()).containsExactly("[first, after-update]");
    }
}
