package dev.twstester.samples.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.LiveRunner;
import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;

/**
 * Benchmark (3): the CartWatch scenario suite, on the simulator (FULL and FAST, a new simulator
 * per scenario, as one test would) and on live Spark (a new streaming query per scenario, as
 * {@code LiveRunner.run} does). Two workloads: the cart story (three files, one micro-batch each)
 * and {@value Workloads#GENERATED_SCENARIOS} generated event-time scenarios (the generator of
 * {@code GeneratedScenariosTest.cart_watch}, seeds from {@value Workloads#FIRST_SEED}). The score
 * is the time per scenario.
 */
@State(Scope.Benchmark)
@Fork(1)
public class ScenarioSuiteBench {
    TwsQuery<String, CartEvent, CartAlert> query;
    Scenario<CartEvent> story;
    List<Scenario<CartEvent>> generated;

    @Setup
    public void setUp() {
        query = CartWatch.query();
        story = Workloads.cartStory();
        generated = Workloads.generatedCarts(Workloads.GENERATED_SCENARIOS);
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Warmup(iterations = 5, time = 5)
    @Measurement(iterations = 5, time = 5)
    public void storySimulatorFull(Blackhole bh) {
        bh.consume(new TwsSimulator<>(query, Fidelity.FULL).run(story));
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Warmup(iterations = 5, time = 5)
    @Measurement(iterations = 5, time = 5)
    public void storySimulatorFast(Blackhole bh) {
        bh.consume(new TwsSimulator<>(query, Fidelity.FAST).run(story));
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @OperationsPerInvocation(Workloads.GENERATED_SCENARIOS)
    @Warmup(iterations = 5, time = 5)
    @Measurement(iterations = 5, time = 5)
    public void generatedSimulatorFull(Blackhole bh) {
        for (Scenario<CartEvent> s : generated) {
            bh.consume(new TwsSimulator<>(query, Fidelity.FULL).run(s));
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @OperationsPerInvocation(Workloads.GENERATED_SCENARIOS)
    @Warmup(iterations = 5, time = 5)
    @Measurement(iterations = 5, time = 5)
    public void generatedSimulatorFast(Blackhole bh) {
        for (Scenario<CartEvent> s : generated) {
            bh.consume(new TwsSimulator<>(query, Fidelity.FAST).run(s));
        }
    }

    /** Live Spark: the trial's set-up started Spark. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2)
    @Measurement(iterations = 5)
    public void storyLive(LiveSession spark, Blackhole bh) {
        bh.consume(LiveRunner.of(query).run(story));
    }

    /** Live Spark: the trial's set-up started Spark and checked every scenario of the suite against the simulator once. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @OperationsPerInvocation(Workloads.GENERATED_SCENARIOS)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    public void generatedLive(Checked spark, Blackhole bh) {
        for (Scenario<CartEvent> s : generated) {
            bh.consume(LiveRunner.of(query).run(s));
        }
    }

    /** The live session, plus a one-off check that both engines agree on every scenario of the suite. */
    @State(Scope.Benchmark)
    public static class Checked extends LiveSession {
        @Setup(Level.Trial)
        public void check(ScenarioSuiteBench suite) {
            check("cart story", suite.query, suite.story);
            for (int i = 0; i < suite.generated.size(); i++) {
                check("generated cart scenario seed " + (Workloads.FIRST_SEED + i), suite.query, suite.generated.get(i));
            }
        }
    }
}
