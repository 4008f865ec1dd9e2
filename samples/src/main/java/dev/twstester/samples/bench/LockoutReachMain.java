package dev.twstester.samples.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import dev.twstester.property.Generation;
import dev.twstester.property.PropertyResult;
import dev.twstester.samples.lockout.LockoutProperty;

/**
 * Benchmark (10), the plain variant of {@link LockoutCoverageBench}: for uniform and for
 * feedback-directed generation, over base seeds 1 to N (the second argument, default 5) of 200
 * tries each, the share of tries that reach {@code unlocked}, the committed batches, input rows and
 * outputs per try, and the CPU time per try of this thread (steadier than wall time on a shared
 * machine). Each round runs every seed in both modes, one after the other and in turns (uniform
 * first for odd seeds, feedback first for even ones), so a slower or faster spell of the machine
 * weighs on both; the last line is the CPU per try of the rounds after the first third, summed,
 * feedback over uniform. The first argument is the number of rounds (default 30); the ratio falls
 * for about 60 rounds while the JIT compiles the feedback's code, so 150 rounds give the warm cost.
 *
 * <pre>{@code
 * java $(cat cli/target/launcher/jvm-flags.txt) -cp samples/target/classes:$(cat /tmp/cp.txt) \
 *     dev.twstester.samples.bench.LockoutReachMain 150       # 150 rounds over base seeds 1 to 5
 * }</pre>
 */
public final class LockoutReachMain {
    private static final int TRIES = 200;

    private LockoutReachMain() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int seeds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));   // the engine prints each run's table
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        double[] measured = new double[Generation.values().length];
        for (int round = 1; round <= rounds; round++) {
            Tally[] tally = {new Tally(), new Tally()};
            for (long seed = 1; seed <= seeds; seed++) {
                Generation[] order = seed % 2 == 1 ? new Generation[] {Generation.UNIFORM, Generation.FEEDBACK}
                        : new Generation[] {Generation.FEEDBACK, Generation.UNIFORM};
                for (Generation g : order) {
                    tally[g.ordinal()].run(g, seed, cpu);
                }
            }
            for (Generation g : Generation.values()) {
                Tally t = tally[g.ordinal()];
                double tries = (double) TRIES * seeds;
                out.printf("round %d %-8s unlocked %5.1f%% of tries (mean of %d seeds), %5.1f batches/try, %4.1f rows/try,"
                        + " %4.2f outputs/try, %.4f ms CPU/try%n", round, g, 100 * t.reach / seeds, seeds,
                        t.batches / tries, t.rows / tries, t.outputs / tries, t.cpuNanos / 1e6 / tries);
                if (round > rounds / 3) {
                    measured[g.ordinal()] += t.cpuNanos;
                }
            }
        }
        out.printf("CPU per try, feedback / uniform, rounds %d to %d: %.2f%n", rounds / 3 + 1, rounds,
                measured[Generation.FEEDBACK.ordinal()] / measured[Generation.UNIFORM.ordinal()]);
    }

    /** One mode's sums over a round's seeds. */
    private static final class Tally {
        private long batches;
        private long rows;
        private long outputs;
        private double reach;
        private long cpuNanos;

        void run(Generation g, long seed, ThreadMXBean cpu) {
            long start = cpu.getCurrentThreadCpuTime();
            PropertyResult r = LockoutProperty.property(TRIES, seed).generation(g).check(run -> {
                batches += run.batches().size();
                outputs += run.outputs().size();
                run.batches().forEach(b -> rows += b.input().size());
                return LockoutProperty.locksAlternate(run);
            });
            reach += r.assertPassed().coverage().share("unlocked");
            cpuNanos += cpu.getCurrentThreadCpuTime() - start;
        }
    }
}
