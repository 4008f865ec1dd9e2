package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunComparison;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/**
 * Many simulators at once in one JVM give what each gives alone: {@value #PARTITIONS} shuffle
 * partition counts of nine queries (ProcessingTime with TTL and timers, EventTime with a
 * watermark, initial state, TTL of every variable kind, three operators, legacy functions with
 * processing-time, event-time and no timeouts) run together on {@value #THREADS} threads, in
 * shuffled start orders, and each run's batches (outputs by partition, fired timers, late rows,
 * watermarks, every operator's metrics) and end state (every operator's state and timers, the
 * query's position) equal the same run done alone on this thread. The simulators share only the
 * codecs' caches ({@code RowCodec}, resolved encoders, Avro writers, the per-thread row buffers),
 * so a race there shows up as a differing row, state value or timer.
 */
class ConcurrentSimulatorsTest {
    private static final int PARTITIONS = 8;
    private static final int THREADS = 8;
    private static final RunComparison<Object> SAME = RunComparison.between("alone", "concurrent");

    /** One query and the scenario it runs; the query differs from every other case's. */
    private record Case<I>(String name, TwsQuery<?, I, ?> query, Scenario<I> scenario) {
        Outcome run() {
            TwsSimulator<?, I, ?> sim = new TwsSimulator<>(query);
            RunResult<?, ?, ?> ran = sim.run(scenario);
            return new Outcome(ran, sim.snapshot());
        }
    }

    private record Outcome(RunResult<?, ?, ?> run, StateSnapshot end) {}

    private static List<Case<?>> cases;
    private static List<Outcome> alone;

    @BeforeAll
    static void runEachAlone() {
        cases = new ArrayList<>();
        for (int p = 1; p <= PARTITIONS; p++) {
            int partitions = p;
            Function<TwsQuery<?, ?, ?>, String> name = q -> q.userClass().getSimpleName() + " x" + partitions;
            add(experiment().withShufflePartitions(p), experimentScenario(), name);
            add(eventTime().withShufflePartitions(p), eventTimeScenario(), name);
            add(initialState().withShufflePartitions(p), initialStateScenario(), name);
            add(ttl().withShufflePartitions(p), ttlScenario(), name);
            add(MultiOperatorQueryTest.three().withShufflePartitions(p), MultiOperatorQueryTest.story(), name);
            add(GroupsWithStateTest.flat(GroupsWithStateTest.PROCESSING).shufflePartitions(p).build(),
                    LegacyInitialState.processingTimeouts(), name);
            add(GroupsWithStateTest.eventTime(GroupsWithStateTest.EVENT).withShufflePartitions(p),
                    LegacyInitialState.eventTimeouts(), name);
            add(LegacyInitialState.map(GroupStateTimeout.NoTimeout(), LegacyInitialState.ABC).shufflePartitions(p).build(),
                    LegacyInitialState.batch0Only(), name);
            add(GroupsWithStateTest.map(GroupsWithStateTest.PROCESSING).shufflePartitions(p).build(),
                    LegacyInitialState.processingTimeouts(), name);
        }
        alone = cases.stream().map(Case::run).toList();
    }

    @AfterAll
    static void dropTheProcessorsLog() {
        Log.drain();
    }

    private static <I> void add(TwsQuery<?, I, ?> query, Scenario<I> scenario,
            Function<TwsQuery<?, ?, ?>, String> name) {
        cases.add(new Case<>(name.apply(query) + " #" + cases.size(), query, scenario));
    }

    @Test
    void the_runs_alone_cover_outputs_timers_state_and_several_operators() {
        assertThat(cases).hasSizeGreaterThanOrEqualTo(64);
        assertThat(cases.stream().map(c -> c.query().userClass()).distinct()).hasSizeGreaterThanOrEqualTo(7);
        for (int i = 0; i < cases.size(); i++) {
            assertThat(alone.get(i).run().outputs()).as(cases.get(i).name()).isNotEmpty();
        }
        assertThat(alone).filteredOn(o -> !o.run().firedTimers().isEmpty()).hasSizeGreaterThanOrEqualTo(5 * PARTITIONS);
        assertThat(alone).filteredOn(o -> o.end().operatorCount() == 3).hasSize(PARTITIONS);
    }

    @Test
    void simulators_of_different_queries_at_once_give_what_each_gives_alone() throws Exception {
        Random random = new Random(23);
        for (int round = 0; round < 3; round++) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++) {
                order.add(i);
            }
            Collections.shuffle(order, random);
            List<Outcome> together = runConcurrently(order);
            for (int i = 0; i < cases.size(); i++) {
                assertSameOutcome(cases.get(i).name() + ", round " + round, alone.get(i), together.get(i));
            }
        }
    }

    /** Every case once, started in {@code order} on {@value #THREADS} threads released together; outcomes by case index. */
    private static List<Outcome> runConcurrently(List<Integer> order) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch go = new CountDownLatch(1);
            Map<Integer, Future<Outcome>> futures = new java.util.HashMap<>();
            for (int i : order) {
                futures.put(i, pool.submit(() -> {
                    go.await();
                    return cases.get(i).run();
                }));
            }
            go.countDown();
            List<Outcome> outcomes = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++) {
                outcomes.add(futures.get(i).get(60, TimeUnit.SECONDS));
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void assertSameOutcome(String name, Outcome alone, Outcome together) {
        SAME.assertSame(alone.run(), together.run());
        List<RunDifference> state = SAME.stateDifferences(alone.end(), together.end());
        assertThat(state).as(name + ": end state").isEmpty();
        assertThat(together.run().batches()).as(name).hasSameSizeAs(alone.run().batches());
        for (int b = 0; b < alone.run().batches().size(); b++) {
            List<BatchResult<?, ?, ?>> mine = alone.run().batches().get(b).operators();
            List<BatchResult<?, ?, ?>> theirs = together.run().batches().get(b).operators();
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

    // ------------------------------------------------------------------ the queries and their scenarios

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static TwsQuery<String, String, String> experiment() {
        return TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
    }

    /** Timers, map, list and TTL state of the recorded ProcessingTime experiment. */
    private static Scenario<String> experimentScenario() {
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

    private static TwsQuery<String, Event, OutEvent> eventTime() {
        return TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", Duration.ofSeconds(10))
                .build();
    }

    private static Scenario<Event> eventTimeScenario() {
        return Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 10000, "timer+5"), new Event("b", 20000, "timer+5"),
                        new Event("z", 1000, "reg:0")))
                .batch(List.of(new Event("a", 10000, "eq-wm"), new Event("a", 10001, "timer+5"),
                        new Event("c", 5000, "old"), new Event("d", 30000, "x")))
                .batchAt(t(2500), List.of(new Event("e", 19999, "late"), new Event("e", 20001, "emitold")))
                .batch(List.of())
                .batch(List.of(new Event("f", 100000, "x")))
                .build();
    }

    private static TwsQuery<String, String, String> initialState() {
        return TwsQuery.builder(InitialStateProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .initialState(List.of(Map.entry("c", 30L), Map.entry("b", 20L), Map.entry("a", 10L), Map.entry("b", 21L)),
                        Encoders.LONG())
                .build();
    }

    private static Scenario<String> initialStateScenario() {
        return Scenario.<String>builder()
                .batchAt(t(2000), List.of("a,x", "d,x", "e,x"))
                .tick(t(3000))
                .batchAt(t(4000), List.of("b,y"))
                .tick(t(5000))
                .build();
    }

    private static TwsQuery<String, String, String> ttl() {
        return TwsQuery.builder(TtlProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
    }

    /** Values, lists and maps with a 3 s TTL, read before and after they expire. */
    private static Scenario<String> ttlScenario() {
        return Scenario.<String>builder()
                .batchAt(t(1000), List.of("a,set:1", "a,append:x", "b,mput:k=v", "b,put:p;q", "c,set:3", "a,get"))
                .batchAt(t(2500), List.of("b,mput:j=w", "c,append:y", "b,get", "c,get"))
                .batchAt(t(4200), List.of("a,get", "b,get", "c,get"))
                .restart()
                .batchAt(t(9000), List.of("a,get", "b,get", "c,get", "d,set:4", "d,get"))
                .build();
    }
}
