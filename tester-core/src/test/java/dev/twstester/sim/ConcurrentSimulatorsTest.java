package dev.twstester.sim;

import static dev.twstester.sim.ConcurrentCases.eventTime;
import static dev.twstester.sim.ConcurrentCases.eventTimeScenario;
import static dev.twstester.sim.ConcurrentCases.experiment;
import static dev.twstester.sim.ConcurrentCases.experimentScenario;
import static dev.twstester.sim.ConcurrentCases.initialState;
import static dev.twstester.sim.ConcurrentCases.initialStateScenario;
import static dev.twstester.sim.ConcurrentCases.ttl;
import static dev.twstester.sim.ConcurrentCases.ttlScenario;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.twstester.RunComparison;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;

/**
 * Many simulators at once in one JVM give what each gives alone: {@value #PARTITIONS} shuffle
 * partition counts of ten queries (ProcessingTime with TTL and timers, in UnsafeRow and in Avro
 * state encoding, EventTime with a watermark, initial state, TTL of every variable kind, three operators, legacy functions with
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
            add(experiment().withShufflePartitions(p).withStateEncoding(StateEncoding.AVRO), experimentScenario(),
                    q -> name.apply(q) + " avro");
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
        assertThat(alone).filteredOn(o -> !o.run().firedTimers().isEmpty()).hasSizeGreaterThanOrEqualTo(6 * PARTITIONS);
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
            Map<Integer, Future<Outcome>> futures = new HashMap<>();
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
        ConcurrentCases.assertSameBatches(name, alone.run(), together.run());
    }
}
