package dev.twstester.samples.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.twstester.property.Generation;
import dev.twstester.property.PropertyResult;
import dev.twstester.samples.lockout.LockoutProperty;

/**
 * Benchmark (10): the cost of a property try on the login-lockout sample, uniform against
 * feedback-directed generation. One operation is a property run of {@link #TRIES} tries (the
 * engine runs each try on a new simulator with its coverage recorder, then the invariant); the
 * cost per try is the score divided by {@link #TRIES}. The base seed is fixed, so every operation
 * runs the same tries.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class LockoutCoverageBench {
    /** Tries per operation. */
    public static final int TRIES = 200;

    @Param({"UNIFORM", "FEEDBACK"})
    public Generation generation;

    /** One property run of 200 tries; the result so the work is not dropped. */
    @Benchmark
    public PropertyResult propertyRun() {
        return LockoutProperty.check(TRIES, 25L, generation);
    }
}
