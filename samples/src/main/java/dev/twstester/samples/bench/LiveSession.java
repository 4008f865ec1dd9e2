package dev.twstester.samples.bench;

import java.util.List;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.LiveRunner;
import dev.twstester.spark.LiveSpark;
import dev.twstester.samples.counts.RunningCount;

/**
 * JMH state of the live benchmarks: the JVM's shared SparkSession ({@link LiveSpark}: local[2],
 * RocksDB state store, one shuffle partition), started and warmed with one small streaming query
 * before the first iteration, so no iteration pays for Spark's start-up. Only live benchmark
 * methods take it, so the simulator benchmarks run in forks without a SparkSession.
 */
@State(Scope.Benchmark)
public class LiveSession {
    @Setup(Level.Trial)
    public void start() {
        LiveSpark.session();
        Scenario<String> warm = Scenario.<String>builder().batch(List.of("a", "b", "a")).batch(List.of("b")).build();
        LiveRunner.of(RunningCount.query()).run(warm);
    }

    /** Runs {@code scenario} on both engines once and prints whether they agree (they should: it is not timed). */
    static <K, I, O> void check(String name, TwsQuery<K, I, O> query, Scenario<I> scenario) {
        RunResult<K, I, O> sim = new TwsSimulator<>(query).run(scenario);
        RunResult<K, I, O> live = LiveRunner.of(query).run(scenario);
        String verdict = RunComparison.simulatorVsSpark().ignoreBatchTimestamps(true).firstDifference(sim, live)
                .map(d -> "DIFFERENT: " + d.message())
                .orElse("same " + live.batches().size() + " batches and " + live.outputs().size() + " outputs");
        System.out.println("[check] " + name + ": simulator vs live Spark: " + verdict);
    }
}
