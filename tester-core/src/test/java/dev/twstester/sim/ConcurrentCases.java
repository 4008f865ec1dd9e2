package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/**
 * Queries of different shapes with a scenario each, for the tests that run many of them at once
 * (the simulator's {@code ConcurrentSimulatorsTest}, the live {@code LiveParallelRunsTest}): the
 * recorded ProcessingTime and EventTime experiments (whose queries {@code LiveAgreementTest} runs
 * too), initial state, TTL of every variable kind.
 */
public final class ConcurrentCases {
    private ConcurrentCases() {}

    /**
     * Fails unless {@code together}'s batches have, operator by operator, the metrics, fired timers
     * and outputs (partition by partition) of {@code alone}'s.
     */
    public static void assertSameBatches(String name, RunResult<?, ?, ?> alone, RunResult<?, ?, ?> together) {
        assertThat(together.batches()).as(name).hasSameSizeAs(alone.batches());
        for (int b = 0; b < alone.batches().size(); b++) {
            List<BatchResult<?, ?, ?>> mine = alone.batches().get(b).operators();
            List<BatchResult<?, ?, ?>> theirs = together.batches().get(b).operators();
            assertThat(theirs).as(name + ", batch " + b).hasSameSizeAs(mine);
            for (int op = 0; op < mine.size(); op++) {
                assertThat(theirs.get(op).metrics()).as(name + ", batch " + b + ", operator " + op + ": metrics")
                        .isEqualTo(mine.get(op).metrics());
                assertThat(theirs.get(op).firedTimers()).as(name + ", batch " + b + ", operator " + op + ": timers")
                        .isEqualTo(mine.get(op).firedTimers());
                assertThat(theirs.get(op).outputsByPartition()).as(name + ", batch " + b + ", operator " + op)
                        .isEqualTo(mine.get(op).outputsByPartition());
            }
        }
    }

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    public static TwsQuery<String, String, String> experiment() {
        return TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
    }

    /** Timers, map, list and TTL state of the recorded ProcessingTime experiment. */
    public static Scenario<String> experimentScenario() {
        return Scenario.<String>builder()
                .batchAt(t(1000), List.of("x,reg:70000", "x,reg:2000", "x,reg:1000", "x,reg:300", "x,del:999",
                        "b,reg:5000", "a,reg:5000", "ccc,reg:5000", "aa,reg:4000", "x,smap:b=1;a=2;c=3;aa=4",
                        "x,imap:1=1;256=2;2=3;-1=4", "x,lst:z;y;x", "x,show", "y,ttlset:v1", "y,ttlget"))
                .tick(t(2000))
                .batchAt(t(3000), List.of("y,ttlget", "x,show", "x,smapclear"))
                .restart()
                .batchAt(t(5000), List.of("y,ttlget", "y,ttlset:v2"))
                .tick(t(6000))
                .batchAt(t(8000), List.of("y,ttlget", "q,nullvalue"))
                .build();
    }

    public static TwsQuery<String, Event, OutEvent> eventTime() {
        return TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", Duration.ofSeconds(10))
                .build();
    }

    public static Scenario<Event> eventTimeScenario() {
        return Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 10000, "timer+5"), new Event("b", 20000, "timer+5"),
                        new Event("z", 1000, "reg:0")))
                .batch(List.of(new Event("a", 10000, "eq-wm"), new Event("a", 10001, "timer+5"),
                        new Event("c", 5000, "old"), new Event("d", 30000, "x")))
                .batchAt(t(2500), List.of(new Event("e", 19999, "late-vs-prev?"), new Event("e", 20001, "emitold")))
                .batch(List.of())
                .batch(List.of(new Event("f", 100000, "x")))
                .build();
    }

    public static TwsQuery<String, String, String> initialState() {
        return TwsQuery.builder(InitialStateProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .initialState(List.of(Map.entry("c", 30L), Map.entry("b", 20L), Map.entry("a", 10L), Map.entry("b", 21L)),
                        Encoders.LONG())
                .build();
    }

    public static Scenario<String> initialStateScenario() {
        return Scenario.<String>builder()
                .batchAt(t(2000), List.of("a,x", "d,x", "e,x"))
                .tick(t(3000))
                .batchAt(t(4000), List.of("b,y"))
                .tick(t(5000))
                .build();
    }

    public static TwsQuery<String, String, String> ttl() {
        return TwsQuery.builder(TtlProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
    }

    /** Values, lists and maps with a 3 s TTL, read before and after they expire. */
    public static Scenario<String> ttlScenario() {
        return Scenario.<String>builder()
                .batchAt(t(1000), List.of("a,set:1", "a,append:x", "b,mput:k=v", "b,put:p;q", "c,set:3", "a,get"))
                .batchAt(t(2500), List.of("b,mput:j=w", "c,append:y", "b,get", "c,get"))
                .batchAt(t(4200), List.of("a,get", "b,get", "c,get"))
                .restart()
                .batchAt(t(9000), List.of("a,get", "b,get", "c,get", "d,set:4", "d,get"))
                .build();
    }
}
