package dev.twstester.samples.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark (6): a suite of small tests run from cold, one fresh JVM per engine
 * ({@link ColdSuiteMain}, with this JVM's flags and class path), timed by wall clock from
 * {@code ProcessBuilder.start()} to exit. The engines: the simulator at {@code FULL} (the default
 * a user gets), Spark's {@code TwsTester}, the simulator at {@code FAST}, and TwsTester with each
 * test also building the simulator's query definition ({@code TWSTESTER_QUERIES}: what the query
 * definitions' encoders cost, apart from the engines).
 *
 * <p>The expected outputs are computed once, in this JVM, on the simulator at FAST and on
 * TwsTester, which must agree where their semantics do ({@link ColdSuiteScenarios}); every child
 * then checks its own outputs against them and fails the benchmark if they differ. One unmeasured
 * round first (file cache), then {@code runs} rounds with the engines interleaved.
 */
public final class ColdSuiteBench {
    /** The engines: label, then ColdSuiteMain's engine argument. */
    static final List<String[]> ENGINES = List.of(
            new String[] {"twstester simulator FULL (default)", "FULL"},
            new String[] {"Spark's TwsTester", "TWSTESTER"},
            new String[] {"twstester simulator FAST", "FAST"},
            new String[] {"Spark's TwsTester, each test also building the query definition", "TWSTESTER_QUERIES"});

    /** The families, in the suite's order. */
    static final List<String> FAMILIES = List.of("cart", "fraud", "counts", "ttl");

    /**
     * One engine's runs: wall clock and the child's own milestones, in ms after launch, and ms per
     * family and in each family's first test.
     */
    public record Case(String label, String engine, int scenarios, double[] wallMs, long[] mainMs, long[] inputsMs,
            long[] firstMs, long[] doneMs, Map<String, long[]> familyMs, Map<String, long[]> firstOfFamilyMs) {
        public double medianWallMs() {
            return ChildJvm.median(wallMs);
        }

        public double minWallMs() {
            return Arrays.stream(wallMs).min().orElse(0);
        }

        public double maxWallMs() {
            return Arrays.stream(wallMs).max().orElse(0);
        }

        /** Median of (all tests done - inputs built): the suite itself, without the JVM's start. */
        public double medianSuiteMs() {
            double[] suite = new double[doneMs.length];
            for (int i = 0; i < suite.length; i++) {
                suite[i] = doneMs[i] - inputsMs[i];
            }
            return ChildJvm.median(suite);
        }

        public double meanPerTestMs() {
            return medianSuiteMs() / scenarios;
        }
    }

    private ColdSuiteBench() {
    }

    /**
     * Computes the expected outcomes of the suite in this JVM (simulator FAST and TwsTester, which
     * must agree on every scenario's comparable rows) and writes them to {@code file}, one line per
     * scenario. Throws {@link IllegalStateException} naming the first scenario where they differ.
     */
    static List<ColdSuiteScenarios.Outcome> expectations(ColdSuiteScenarios.Sizes sizes, Path file) {
        List<ColdSuiteScenarios.Outcome> outcomes = new ArrayList<>();
        for (ColdSuiteScenarios.Scenario<?, ?, ?> s : ColdSuiteScenarios.suite(sizes)) {
            List<Object> simulator = ColdSuiteScenarios.run(s, "FAST");
            List<Object> tester = ColdSuiteScenarios.run(s, "TWSTESTER");
            ColdSuiteScenarios.Outcome sim = ColdSuiteScenarios.outcomeOf(s, simulator);
            ColdSuiteScenarios.Outcome tws = ColdSuiteScenarios.outcomeOf(s, tester);
            if (sim.outputs() != tws.outputs() || !sim.comparable().equals(tws.comparable())) {
                throw new IllegalStateException("scenario " + s.name() + ": the simulator and Spark's TwsTester disagree"
                        + " where their semantics agree; simulator " + ColdSuiteScenarios.comparableRows(s, simulator)
                        + ", TwsTester " + ColdSuiteScenarios.comparableRows(s, tester));
            }
            outcomes.add(sim);
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, outcomes.stream().map(ColdSuiteScenarios.Outcome::line).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return outcomes;
    }

    /**
     * The benchmark on the suite of {@code sizes}: expectations to {@code out/NAME-expected.txt},
     * then the rounds; {@code name} ({@code coldsuite} or {@code coldsuite2}) also labels the progress lines.
     */
    public static List<Case> run(String name, ColdSuiteScenarios.Sizes sizes, int runs, List<String> flags, Path out) {
        Path expected = out.resolve(name + "-expected.txt").toAbsolutePath();
        List<ColdSuiteScenarios.Outcome> outcomes = expectations(sizes, expected);
        System.out.println("[" + name + "] " + outcomes.size() + " scenarios, "
                + outcomes.stream().mapToInt(ColdSuiteScenarios.Outcome::outputs).sum()
                + " outputs expected (simulator FAST and TwsTester agree), written to " + expected);
        Map<String, List<ChildJvm.Result>> results = new LinkedHashMap<>();
        for (int round = 0; round <= runs; round++) {
            for (String[] e : ENGINES) {
                ChildJvm.Result r = ChildJvm.run(flags, ColdSuiteMain.class,
                        List.of(e[1], String.valueOf(System.currentTimeMillis()), expected.toString(), sizes.toArg()), 900);
                System.out.printf("[%s] round %d%s %s: %.0f ms wall, %d ms in the suite%n", name, round,
                        round == 0 ? " (not counted)" : "", e[1], r.wallMs(),
                        r.value("COLDSUITE", "done") - r.value("COLDSUITE", "inputs"));
                if (round > 0) {
                    results.computeIfAbsent(e[0], k -> new ArrayList<>()).add(r);
                }
            }
        }
        List<Case> cases = new ArrayList<>();
        for (String[] e : ENGINES) {
            cases.add(toCase(e[0], e[1], results.get(e[0])));
        }
        return cases;
    }

    static Case toCase(String label, String engine, List<ChildJvm.Result> rs) {
        Map<String, long[]> families = new LinkedHashMap<>();
        Map<String, long[]> firsts = new LinkedHashMap<>();
        for (String f : FAMILIES) {
            families.put(f, rs.stream().mapToLong(r -> r.value("COLDSUITE", f)).toArray());
            firsts.put(f, rs.stream().mapToLong(r -> r.value("COLDSUITE", f + "1")).toArray());
        }
        return new Case(label, engine, (int) rs.get(0).value("COLDSUITE", "scenarios"),
                rs.stream().mapToDouble(ChildJvm.Result::wallMs).toArray(),
                rs.stream().mapToLong(r -> r.value("COLDSUITE", "main")).toArray(),
                rs.stream().mapToLong(r -> r.value("COLDSUITE", "inputs")).toArray(),
                rs.stream().mapToLong(r -> r.value("COLDSUITE", "first")).toArray(),
                rs.stream().mapToLong(r -> r.value("COLDSUITE", "done")).toArray(), families, firsts);
    }

    /**
     * {@code [runs] [coldsuite|coldsuite2]}: the rounds of one suite (default 5 rounds of the
     * default suite), printed per engine.
     */
    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        boolean variant = args.length > 1 && args[1].equals("coldsuite2");
        List<Case> cases = run(variant ? "coldsuite2" : "coldsuite", variant ? ColdSuiteScenarios.SHORT
                : ColdSuiteScenarios.DEFAULT, runs, ChildJvm.hostFlags(), Path.of("target", "bench"));
        for (Case c : cases) {
            System.out.printf("%s: wall %.0f ms (min %.0f, max %.0f), suite %.0f ms, %.1f ms per test%n", c.label(),
                    c.medianWallMs(), c.minWallMs(), c.maxWallMs(), c.medianSuiteMs(), c.meanPerTestMs());
        }
    }
}
