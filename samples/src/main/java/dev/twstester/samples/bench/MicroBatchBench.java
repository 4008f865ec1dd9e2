package dev.twstester.samples.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.LiveRunner;
import dev.twstester.samples.counts.RunningCount;

import scala.Tuple2;

/**
 * Benchmark (2): the 1,000,000 rows of benchmark (1) in 10 micro-batches of 100,000 rows (10 rows
 * of each of the 10,000 keys per batch), through the simulator's {@code run(scenario)} (one
 * {@code runBatch} per step) at FULL and FAST fidelity, and through live Spark ({@link LiveRunner}:
 * a streaming query over a memory source, local[2], RocksDB). The score is the time per micro-batch;
 * every operation is a whole run of 10 batches on a fresh simulator or a fresh streaming query.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class MicroBatchBench {
    int keyCount = Workloads.KEYS;
    int rowsPerKey = Workloads.ROWS_PER_KEY;

    TwsQuery<String, String, Tuple2<String, Long>> query;
    Scenario<String> scenario;

    @Setup
    public void setUp() {
        query = RunningCount.query();
        scenario = Workloads.microBatches(Workloads.keys(keyCount), rowsPerKey, Workloads.BATCHES);
    }

    @Benchmark
    @OperationsPerInvocation(Workloads.BATCHES)
    @Warmup(iterations = 3, time = 5)
    @Measurement(iterations = 5, time = 5)
    public RunResult<String, String, Tuple2<String, Long>> simulatorFull() {
        return new TwsSimulator<>(query, Fidelity.FULL).run(scenario);
    }

    @Benchmark
    @OperationsPerInvocation(Workloads.BATCHES)
    @Warmup(iterations = 3, time = 5)
    @Measurement(iterations = 5, time = 5)
    public RunResult<String, String, Tuple2<String, Long>> simulatorFast() {
        return new TwsSimulator<>(query, Fidelity.FAST).run(scenario);
    }

    /** One run of 10 batches per iteration; the trial's set-up started Spark and ran a small query. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OperationsPerInvocation(Workloads.BATCHES)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    public RunResult<String, String, Tuple2<String, Long>> liveSpark(LiveSession spark) {
        return LiveRunner.of(query).run(scenario);
    }
}
