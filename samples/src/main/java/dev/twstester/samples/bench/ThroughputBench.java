package dev.twstester.samples.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TwsTester;
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
import org.openjdk.jmh.infra.Blackhole;

import dev.twstester.TwsQuery;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.samples.counts.RunningCount;

import scala.Function1;
import scala.Option;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Benchmark (1): {@link RunningCount} (ValueState&lt;Long&gt;, TimeMode.None), 1,000,000 rows over
 * 10,000 keys, one call of 100 rows per key, on a fresh tester per operation: the simulator at
 * {@link Fidelity#FULL} and {@link Fidelity#FAST} ({@code TwsSimulator.test(key, rows)}, one
 * micro-batch per call) and Spark's own {@link TwsTester} ({@code test(key, rows)}) in the same JVM.
 * The score is rows per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class ThroughputBench {
    /** Rows per operation, the score's unit. */
    public static final int ROWS = Workloads.KEYS * Workloads.ROWS_PER_KEY;

    /** Sizes; the JMH run uses the issue's, the smoke test smaller ones. */
    int keyCount = Workloads.KEYS;
    int rowsPerKey = Workloads.ROWS_PER_KEY;

    TwsQuery<String, String, Tuple2<String, Long>> query;
    List<String> keys;
    List<List<String>> rows;
    List<scala.collection.immutable.List<String>> scalaRows;

    @Setup
    public void setUp() {
        query = RunningCount.query();
        keys = Workloads.keys(keyCount);
        rows = Workloads.rowsPerKey(keys, rowsPerKey);
        scalaRows = new ArrayList<>(rows.size());
        for (List<String> call : rows) {
            scalaRows.add(CollectionConverters.asScala(call).toList());
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void simulatorFull(Blackhole bh) {
        simulator(Fidelity.FULL, bh);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void simulatorFast(Blackhole bh) {
        simulator(Fidelity.FAST, bh);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void twsTester(Blackhole bh) {
        TwsTester<String, String, Tuple2<String, Long>> tester = newTwsTester();
        for (int i = 0; i < keys.size(); i++) {
            bh.consume(tester.test(keys.get(i), scalaRows.get(i)));
        }
    }

    /** Spark's TwsTester for a new RunningCount: no initial state, TimeMode.None, Update. */
    static TwsTester<String, String, Tuple2<String, Long>> newTwsTester() {
        return new TwsTester<>(new RunningCount(), scala.collection.immutable.List$.MODULE$.<Tuple2<String, Object>>empty(),
                TimeMode.None(), OutputMode.Update(), Option.<Function1<String, Object>>empty());
    }

    private void simulator(Fidelity fidelity, Blackhole bh) {
        TwsSimulator<String, String, Tuple2<String, Long>> sim = new TwsSimulator<>(query, fidelity);
        for (int i = 0; i < keys.size(); i++) {
            bh.consume(sim.test(keys.get(i), rows.get(i)));
        }
    }
}
