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
 * tries each, the share of tries that reach {@code unlocked}, the committed batches and outputs per
 * try, and the CPU time per try of this thread (steadier than wall time on a shared machine). Rounds repeat the lot so the JIT warms
 * up; read the last rounds. The first argument is the number of rounds (default 6).
 *
 * <pre>{@code
 * java $(cat cli/target/launcher/jvm-flags.txt) -cp samples/target/classes:$(cat /tmp/cp.txt) \
 *     dev.twstester.samples.bench.LockoutReachMain 16        # 16 rounds over base seeds 1 to 5
 * }</pre>
 */
public final class LockoutReachMain {
    private static final int TRIES = 200;

    private LockoutReachMain() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int seeds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));   // the engine prints each run's table
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (int round = 1; round <= rounds; round++) {
            for (Generation g : Generation.values()) {
                long[] batches = {0};
                long[] outputs = {0};
                double reach = 0;
                long start = cpu.getCurrentThreadCpuTime();
                for (long seed = 1; seed <= seeds; seed++) {
                    PropertyResult r = LockoutProperty.property(TRIES, seed).generation(g).check(run -> {
                        batches[0] += run.batches().size();
                        outputs[0] += run.outputs().size();
                        return LockoutProperty.locksAlternate(run);
                    });
                    reach += r.assertPassed().coverage().share("unlocked");
                }
                double tries = (double) TRIES * seeds;
                out.printf("round %d %-8s unlocked %5.1f%% of tries (mean of %d seeds), %5.1f batches/try, %4.2f outputs/try,"
                        + " %.3f ms CPU/try%n", round, g, 100 * reach / seeds, seeds, batches[0] / tries, outputs[0] / tries,
                        (cpu.getCurrentThreadCpuTime() - start) / 1e6 / tries);
            }
        }
    }
}
