package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.ConcurrentCases;
import dev.twstester.sim.MultiOperatorQueryTest;
import dev.twstester.sim.TwsSimulator;

/**
 * Live runs started from several threads at once, as tests running in parallel start them: six
 * different queries (ProcessingTime with timers and TTL, EventTime, initial state, TTL of every
 * variable kind, three operators, each at its own partition count) on the one shared
 * {@link LiveSpark#session()}, each from its own thread, give what each gives alone: the same
 * batches (outputs by partition, fired timers, every operator's metrics), which are the
 * simulator's. Each run has its own session copy, checkpoint, source, sink, clock and task
 * reports, and reads the progress of its own query only.
 */
@Tag("live")
class LiveParallelRunsTest {
    private record Case<I>(String name, TwsQuery<?, I, ?> query, Scenario<I> scenario) {
        RunResult<?, ?, ?> live() {
            return LiveRunner.of(query).run(scenario);
        }

        RunResult<?, ?, ?> simulated() {
            return new TwsSimulator<>(query).run(scenario);
        }
    }

    private static List<Case<?>> cases() {
        return List.of(
                new Case<>("experiment", ConcurrentCases.experiment().withShufflePartitions(2),
                        ConcurrentCases.experimentScenario()),
                new Case<>("event time", ConcurrentCases.eventTime().withShufflePartitions(3),
                        ConcurrentCases.eventTimeScenario()),
                new Case<>("initial state", ConcurrentCases.initialState(), ConcurrentCases.initialStateScenario()),
                new Case<>("ttl", ConcurrentCases.ttl().withShufflePartitions(2), ConcurrentCases.ttlScenario()),
                new Case<>("three operators", MultiOperatorQueryTest.three(), MultiOperatorQueryTest.story()),
                new Case<>("experiment, 4 partitions", ConcurrentCases.experiment().withShufflePartitions(4),
                        ConcurrentCases.experimentScenario()));
    }

    @Test
    void six_queries_from_six_threads_at_once_each_give_what_they_give_alone() throws Exception {
        List<Case<?>> cases = cases();
        List<RunResult<?, ?, ?>> alone = new ArrayList<>();
        for (Case<?> c : cases) {
            alone.add(c.live());
        }
        List<RunResult<?, ?, ?>> together = runTogether(cases);

        for (int i = 0; i < cases.size(); i++) {
            String name = cases.get(i).name();
            assertThat(alone.get(i).outputs()).as(name).isNotEmpty();
            RunComparison.between("alone", "at once").assertSame(alone.get(i), together.get(i));
            ConcurrentCases.assertSameBatches(name, alone.get(i), together.get(i));
            RunComparison.simulatorVsSpark().assertSame(cases.get(i).simulated(), together.get(i));
        }
    }

    /** Every case's live run, each from its own thread, all released at once; results in case order. */
    private static List<RunResult<?, ?, ?>> runTogether(List<Case<?>> cases) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(cases.size());
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<RunResult<?, ?, ?>>> runs = new ArrayList<>();
            for (Case<?> c : cases) {
                runs.add(threads.submit(() -> {
                    go.await();
                    return c.live();
                }));
            }
            go.countDown();
            List<RunResult<?, ?, ?>> out = new ArrayList<>();
            for (Future<RunResult<?, ?, ?>> run : runs) {
                out.add(run.get(10, TimeUnit.MINUTES));
            }
            return out;
        } finally {
            threads.shutdownNow();
        }
    }
}
