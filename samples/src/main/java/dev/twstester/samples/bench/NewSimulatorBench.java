package dev.twstester.samples.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.spark.sql.streaming.TwsTester;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.twstester.TwsQuery;
import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.sim.TwsSimulator;

import scala.Tuple2;

/**
 * Benchmark (7): what a test that builds its own query pays before its first batch, warm. Each
 * operation takes the next of 1,000 {@link CartWatch} queries, built beforehand, each with its own
 * new {@code Encoders.bean(...)} instances (equal to the others, not the same), and builds a
 * {@link TwsSimulator} for it at the default {@code Fidelity.FULL} (the driver-side init/close pass,
 * the processor's serialization, the codecs). For comparison: the query built too, and a new Spark
 * {@link TwsTester} for RunningCount, which takes no encoders.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class NewSimulatorBench {
    private static final int QUERIES = 1_000;

    private final List<TwsQuery<String, CartEvent, CartAlert>> queries = new ArrayList<>(QUERIES);
    private int next;

    @Setup
    public void setUp() {
        for (int i = 0; i < QUERIES; i++) {
            queries.add(CartWatch.query());
        }
    }

    /** A simulator for a query equal to ones seen before (new encoder instances). */
    @Benchmark
    public TwsSimulator<String, CartEvent, CartAlert> simulatorForEqualQuery() {
        TwsQuery<String, CartEvent, CartAlert> query = queries.get(next);
        next = (next + 1) % QUERIES;
        return new TwsSimulator<>(query);
    }

    /** The query too, as a test writes it: {@code CartWatch.query()} calls {@code Encoders.bean} twice. */
    @Benchmark
    public TwsSimulator<String, CartEvent, CartAlert> queryAndSimulator() {
        return new TwsSimulator<>(CartWatch.query());
    }

    /** Spark's TwsTester for a new RunningCount. */
    @Benchmark
    public TwsTester<String, String, Tuple2<String, Long>> twsTester() {
        return ThroughputBench.newTwsTester();
    }
}
