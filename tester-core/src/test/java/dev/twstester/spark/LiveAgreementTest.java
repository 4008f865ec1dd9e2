package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.Event;
import dev.twstester.sim.EventTimeProcessor;
import dev.twstester.sim.ExperimentProcessor;
import dev.twstester.sim.InitialStateProcessor;
import dev.twstester.sim.OutEvent;
import dev.twstester.sim.TwsSimulator;

/**
 * The recorded experiments behind docs/semantics.md run on live Spark 4.2.0 and on the simulator:
 * every batch must agree.
 */
@Tag("live")
class LiveAgreementTest {

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static <K, I, O> void assertAgree(TwsQuery<K, I, O> query, Scenario<I> scenario) {
        RunResult<K, I, O> sim = new TwsSimulator<>(query).run(scenario);
        RunResult<K, I, O> live = LiveRunner.of(query).run(scenario);
        assertThat(live.outputs()).as("the live run emitted rows").isNotEmpty();
        assertThat(live.firedTimers()).as("the live run fired timers").isNotEmpty();
        assertThat(live.batches()).hasSameSizeAs(sim.batches());
        for (int i = 0; i < sim.batches().size(); i++) {
            assertThat(live.batches().get(i)).as("batch %d", i).isEqualTo(sim.batches().get(i));
        }
    }

    @Test
    void processing_time_experiment_agrees() {
        TwsQuery<String, String, String> query = TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
        Scenario<String> scenario = Scenario.<String>builder()
                .batchAt(t(1000), List.of("x,reg:70000", "x,reg:2000", "x,reg:1000", "x,reg:300", "x,reg:256", "x,reg:1",
                        "x,del:999", "b,reg:5000", "a,reg:5000", "ccc,reg:5000", "dd,reg:5000", "aa,reg:4000",
                        "chain1,reg:6000", "x,smap:b=1;a=2;c=3;aa=4;bbb=5;B=6", "x,imap:1=1;256=2;2=3;-1=4;65536=5",
                        "x,lst:z;y;x", "x,show", "y,ttlset:v1", "y,ttlget", "late,reg:500", "zz,reg:1000"))
                .tick(t(2000))
                .batchAt(t(3000), List.of("y,ttlget", "x,show", "x,smapclear"))
                .batchAt(t(4000), List.of("y,ttlget"))
                .batchAt(t(5000), List.of("y,ttlget", "y,ttlset:v2"))
                .tick(t(6000))
                .batchAt(t(8000), List.of("y,ttlget", "q,nullvalue"))
                .build();
        assertAgree(query, scenario);
    }

    @Test
    void event_time_experiment_agrees() {
        TwsQuery<String, Event, OutEvent> query = TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", Duration.ofSeconds(10))
                .build();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 10000, "timer+5"), new Event("b", 20000, "timer+5"),
                        new Event("z", 1000, "reg:0")))
                .batch(List.of(new Event("a", 10000, "eq-wm"), new Event("a", 10001, "timer+5"),
                        new Event("c", 5000, "old"), new Event("d", 30000, "x")))
                .batchAt(t(2500), List.of(new Event("e", 19999, "late-vs-prev?"), new Event("e", 20001, "emitold")))
                .batch(List.of())
                .batch(List.of(new Event("f", 100000, "x")))
                .build();
        assertAgree(query, scenario);
    }

    @Test
    void initial_state_agrees() {
        TwsQuery<String, String, String> query = TwsQuery.builder(InitialStateProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .initialState(List.of(Map.entry("c", 30L), Map.entry("b", 20L), Map.entry("a", 10L), Map.entry("b", 21L)),
                        Encoders.LONG())
                .build();
        assertAgree(query, Scenario.<String>builder()
                .batchAt(t(2000), List.of("a,x", "d,x", "e,x"))
                .tick(t(3000))
                .batchAt(t(4000), List.of("b,y"))
                .tick(t(5000))
                .build());
    }
}
