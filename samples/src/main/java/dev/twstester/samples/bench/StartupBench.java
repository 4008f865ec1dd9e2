package dev.twstester.samples.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark (4): wall clock of a fresh JVM that runs one test from start to finish
 * ({@link StartupMain}), started as a subprocess with this JVM's flags and class path. One
 * unmeasured round first (file cache), then {@code runs} rounds, the cases interleaved.
 */
public final class StartupBench {
    /** The cases: label, then StartupMain's test and fidelity. */
    static final List<String[]> CASES = List.of(
            new String[] {"JVM only (noop main, same class path)", "noop", "FULL"},
            new String[] {"RunningCount, simulator FULL", "running-count", "FULL"},
            new String[] {"RunningCount, simulator FAST", "running-count", "FAST"},
            new String[] {"CartWatch, simulator FULL", "cart", "FULL"},
            new String[] {"CartWatch, simulator FAST", "cart", "FAST"},
            new String[] {"RunningCount, Spark's TwsTester", "twstester", "FULL"},
            new String[] {"CartWatch with case classes (Scala), simulator FULL", "cart-scala", "FULL"},
            new String[] {"CartWatch, Spark's TwsTester", "twstester-cart", "FULL"},
            new String[] {"CartWatch with case classes (Scala), Spark's TwsTester", "twstester-cart-scala", "FULL"});

    /** One case's runs: wall clock and the child's own phase times, in ms. */
    public record Case(String label, double[] wallMs, long[] mainMs, long[] queryMs, long[] simulatorMs, long[] testMs) {
        public double medianWallMs() {
            return ChildJvm.median(wallMs);
        }

        public double minWallMs() {
            return Arrays.stream(wallMs).min().orElse(0);
        }

        public double maxWallMs() {
            return Arrays.stream(wallMs).max().orElse(0);
        }
    }

    private StartupBench() {
    }

    public static List<Case> run(int runs, List<String> flags) {
        Map<String, List<ChildJvm.Result>> results = new LinkedHashMap<>();
        for (int round = 0; round <= runs; round++) {
            for (String[] c : CASES) {
                ChildJvm.Result r = ChildJvm.run(flags, StartupMain.class,
                        List.of(c[1], c[2], String.valueOf(System.currentTimeMillis())), 300);
                if (round > 0) {
                    results.computeIfAbsent(c[0], k -> new ArrayList<>()).add(r);
                }
            }
            System.out.println("[startup] round " + round + (round == 0 ? " (not counted)" : "") + " done");
        }
        List<Case> cases = new ArrayList<>();
        results.forEach((label, rs) -> cases.add(new Case(label,
                rs.stream().mapToDouble(ChildJvm.Result::wallMs).toArray(),
                rs.stream().mapToLong(r -> r.value("STARTUP", "main")).toArray(),
                rs.stream().mapToLong(r -> r.value("STARTUP", "query")).toArray(),
                rs.stream().mapToLong(r -> r.value("STARTUP", "simulator")).toArray(),
                rs.stream().mapToLong(r -> r.value("STARTUP", "test")).toArray())));
        return cases;
    }

    public static void main(String[] args) {
        for (Case c : run(args.length > 0 ? Integer.parseInt(args[0]) : 5, ChildJvm.hostFlags())) {
            System.out.printf("%s: wall %.0f ms (min %.0f, max %.0f)%n", c.label(), c.medianWallMs(), c.minWallMs(),
                    c.maxWallMs());
        }
    }
}
