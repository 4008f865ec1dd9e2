package dev.twstester.samples.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the benchmarks of issue 6 and writes their table ({@code target/bench/results.md}):
 * <ol>
 *   <li>{@code throughput}: {@link ThroughputBench} (JMH);</li>
 *   <li>{@code batches}: {@link MicroBatchBench} (JMH, with live Spark);</li>
 *   <li>{@code suite}: {@link ScenarioSuiteBench} (JMH, with live Spark);</li>
 *   <li>{@code startup}: {@link StartupBench} (subprocesses, wall clock);</li>
 *   <li>{@code memory}: {@link MemoryBench} (subprocesses, heap after GC);</li>
 *   <li>{@code coldsuite}: {@link ColdSuiteBench} (subprocesses, wall clock: a suite of 54 small tests from
 *       cold on the simulator FULL, Spark's TwsTester and the simulator FAST);</li>
 *   <li>{@code coldsuite2}: the same tests in the common shape ({@link ColdSuiteScenarios#SHORT}: 2 shuffle
 *       partitions, 3 to 8 batches);</li>
 *   <li>{@code newsim}: {@link NewSimulatorBench} (JMH: a new simulator for a query equal to one seen before);</li>
 *   <li>{@code profile} (only when asked for): {@link ThroughputBench}'s simulator benchmarks under
 *       JMH's JFR and GC profilers, hot frames by {@link JfrTop} in {@code target/bench/profile.md}.</li>
 * </ol>
 *
 * <pre>
 * mvn -B -q install -DskipTests &amp;&amp; mvn -B -q -pl samples exec:exec@bench -Dbench.args="[options] [JMH options]"
 *   --only throughput,batches,suite,startup,memory,coldsuite,coldsuite2,newsim,profile   sections (default: all but profile)
 *   --startup-runs N    measured JVM launches per start-up case (default 5)
 *   --coldsuite-runs N  measured rounds of each cold suite, after one unmeasured round (default 5)
 *   --memory-keys N     keys of the memory cases (default 1000000)
 *   --out DIR           where results go (default target/bench)
 *   anything else       JMH's own options, e.g. -wi 2 -i 3 -f 1 (they override the annotations)
 * </pre>
 */
public final class BenchMain {
    static final List<String> ALL = List.of("throughput", "batches", "suite", "startup", "memory", "coldsuite", "coldsuite2",
            "newsim", "profile");
    static final List<String> DEFAULT = List.of("throughput", "batches", "suite", "startup", "memory", "coldsuite",
            "coldsuite2", "newsim");

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        Set<String> sections = new LinkedHashSet<>(DEFAULT);
        int startupRuns = 5;
        int coldSuiteRuns = 5;
        int memoryKeys = MemoryBench.KEYS;
        Path out = Path.of("target", "bench");
        List<String> jmhArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--only" -> {
                    sections = new LinkedHashSet<>(Arrays.asList(args[++i].split(",")));
                    for (String s : sections) {
                        if (!ALL.contains(s)) {
                            throw new IllegalArgumentException("unknown section " + s + "; sections: " + ALL);
                        }
                    }
                }
                case "--startup-runs" -> startupRuns = Integer.parseInt(args[++i]);
                case "--coldsuite-runs" -> coldSuiteRuns = Integer.parseInt(args[++i]);
                case "--memory-keys" -> memoryKeys = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> jmhArgs.add(args[i]);
            }
        }
        Files.createDirectories(out);
        Report report = new Report();
        report.machine = machine();
        report.command = "exec:exec@bench " + String.join(" ", args);
        report.testerCore = testerCore();
        report.loadBefore = load();

        List<String> includes = new ArrayList<>();
        if (sections.contains("throughput")) {
            includes.add("\\.ThroughputBench\\.");
        }
        if (sections.contains("batches")) {
            includes.add("\\.MicroBatchBench\\.");
        }
        if (sections.contains("suite")) {
            includes.add("\\.ScenarioSuiteBench\\.");
        }
        if (sections.contains("newsim")) {
            includes.add("\\.NewSimulatorBench\\.");
        }
        if (!includes.isEmpty()) {
            ChainedOptionsBuilder b = new OptionsBuilder().parent(new CommandLineOptions(jmhArgs.toArray(String[]::new)))
                    .resultFormat(ResultFormatType.JSON).result(out.resolve("jmh.json").toString());
            includes.forEach(b::include);
            report.jmhSettings = jmhArgs.isEmpty() ? "none" : String.join(" ", jmhArgs);
            report.jmh(new Runner(b.build()).run());
        }
        if (sections.contains("startup")) {
            report.startup = StartupBench.run(startupRuns, ChildJvm.hostFlags());
        }
        if (sections.contains("memory")) {
            report.memory = MemoryBench.run(memoryKeys, ChildJvm.hostFlags());
        }
        if (sections.contains("coldsuite")) {
            report.coldSuite = ColdSuiteBench.run("coldsuite", ColdSuiteScenarios.DEFAULT, coldSuiteRuns,
                    ChildJvm.hostFlags(), out);
        }
        if (sections.contains("coldsuite2")) {
            report.coldSuite2 = ColdSuiteBench.run("coldsuite2", ColdSuiteScenarios.SHORT, coldSuiteRuns,
                    ChildJvm.hostFlags(), out);
        }
        if (sections.contains("profile")) {
            profile(jmhArgs, out);
        }
        report.loadAfter = load();
        String table = report.markdown();
        Files.writeString(out.resolve("results.md"), table);
        System.out.println();
        System.out.println(table);
        System.out.println("(written to " + out.resolve("results.md").toAbsolutePath() + ")");
    }

    /** ThroughputBench's simulator benchmarks under JFR and the GC profiler; hot frames to profile.md. */
    static void profile(List<String> jmhArgs, Path out) throws Exception {
        Path jfrDir = out.resolve("jfr").toAbsolutePath();
        ChainedOptionsBuilder b = new OptionsBuilder().parent(new CommandLineOptions(jmhArgs.toArray(String[]::new)))
                .include("\\.ThroughputBench\\.simulator")
                .include("\\.ScenarioSuiteBench\\.generatedSimulator")
                .addProfiler("jfr", "dir=" + jfrDir + ";stackDepth=256")
                .addProfiler("gc")
                .resultFormat(ResultFormatType.JSON).result(out.resolve("jmh-profile.json").toString());
        Collection<RunResult> results = new Runner(b.build()).run();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (PrintStream md = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            md.println("### Profile: benchmark (1) and (3) on the simulator (JFR execution samples, measurement iterations only)");
            md.println();
            for (RunResult r : results) {
                Result<?> primary = r.getPrimaryResult();
                md.printf(Locale.ROOT, "- %s: %,.1f %s under the profilers", shortName(r), primary.getScore(),
                        primary.getScoreUnit());
                Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
                if (alloc != null) {
                    md.printf(Locale.ROOT, "; %,.0f bytes allocated per %s", alloc.getScore(),
                            shortName(r).startsWith("Throughput") ? "row" : "scenario");
                }
                md.println();
            }
            for (Path jfr : JfrTop.find(jfrDir)) {
                md.println();
                JfrTop.print(out.toAbsolutePath().relativize(jfr.toAbsolutePath()), JfrTop.read(jfr), 15, md);
            }
        }
        String text = buffer.toString(StandardCharsets.UTF_8);
        Files.writeString(out.resolve("profile.md"), text);
        System.out.println(text);
    }

    static String shortName(RunResult r) {
        String fq = r.getParams().getBenchmark();
        int method = fq.lastIndexOf('.');
        int cls = fq.lastIndexOf('.', method - 1);
        return fq.substring(cls + 1);
    }

    /** Where tester-core was loaded from and when that jar or folder was written: the engine measured. */
    static String testerCore() {
        try {
            Path p = Path.of(dev.twstester.sim.TwsSimulator.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return p + " (written " + Files.getLastModifiedTime(p) + ")";
        } catch (Exception e) {
            return "unknown (" + e + ")";
        }
    }

    static String machine() {
        Runtime rt = Runtime.getRuntime();
        long totalMemory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        return String.format(Locale.ROOT, "%d cores, %.1f GB memory, %s %s (%s), %s %s", rt.availableProcessors(),
                totalMemory / 1e9, System.getProperty("java.vm.name"), System.getProperty("java.vm.version"),
                System.getProperty("java.vendor"), System.getProperty("os.name"), System.getProperty("os.version"));
    }

    /** The 1-minute load average: other work on the machine skews every figure. */
    static String load() {
        return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** The figures of one run and their table. */
    static final class Report {
        String machine;
        String command;
        String testerCore;
        String loadBefore;
        String loadAfter;
        String jmhSettings;
        final Map<String, RunResult> jmh = new TreeMap<>();
        List<StartupBench.Case> startup;
        List<MemoryBench.Case> memory;
        List<ColdSuiteBench.Case> coldSuite;
        List<ColdSuiteBench.Case> coldSuite2;

        void jmh(Collection<RunResult> results) {
            for (RunResult r : results) {
                jmh.put(shortName(r), r);
            }
        }

        /** Seconds per operation, or null when the benchmark did not run. */
        Double seconds(String name) {
            RunResult r = jmh.get(name);
            if (r == null) {
                return null;
            }
            Result<?> p = r.getPrimaryResult();
            String unit = p.getScoreUnit();
            double score = p.getScore();
            if (unit.endsWith("/op")) {
                return score * unitSeconds(unit.substring(0, unit.length() - 3));
            }
            if (unit.startsWith("ops/")) {
                return unitSeconds(unit.substring(4)) / score;
            }
            throw new IllegalStateException("unexpected unit " + unit);
        }

        /** Relative error (99.9% confidence half-width / score), NaN when JMH gave none. */
        double relError(String name) {
            Result<?> p = jmh.get(name).getPrimaryResult();
            return p.getScoreError() / p.getScore();
        }

        String samples(String name) {
            RunResult r = jmh.get(name);
            return r.getParams().getMeasurement().getCount() + " x "
                    + (r.getParams().getMode().shortLabel().equals("ss") ? "1 op"
                    : r.getParams().getMeasurement().getTime().toString());
        }

        static double unitSeconds(String unit) {
            return switch (unit) {
                case "s" -> 1;
                case "ms" -> 1e-3;
                case "us" -> 1e-6;
                case "ns" -> 1e-9;
                case "min" -> 60;
                default -> throw new IllegalStateException("unexpected time unit " + unit);
            };
        }

        String markdown() {
            StringBuilder md = new StringBuilder();
            md.append("## Results\n\n");
            md.append("- machine: ").append(machine).append('\n');
            md.append("- command: `").append(command.trim()).append("`\n");
            md.append("- tester-core: ").append(testerCore).append('\n');
            md.append("- load average (1 min) at start / end: ").append(loadBefore).append(" / ").append(loadAfter).append('\n');
            if (jmhSettings != null) {
                md.append("- JMH options given: `").append(jmhSettings).append("` (settings per benchmark at the end)\n");
            }
            throughput(md);
            batches(md);
            suite(md);
            startup(md);
            memory(md);
            coldSuite(md);
            coldSuite2(md);
            newSimulator(md);
            settings(md);
            return md.toString();
        }

        /** The JMH settings every benchmark actually ran with. */
        private void settings(StringBuilder md) {
            if (jmh.isEmpty()) {
                return;
            }
            md.append("\n### JMH settings as run\n\n| benchmark | mode | forks | warm-up | measurement | ops per invocation |\n"
                    + "|---|---|---:|---|---|---:|\n");
            jmh.forEach((name, r) -> {
                var p = r.getParams();
                boolean single = p.getMode() == org.openjdk.jmh.annotations.Mode.SingleShotTime;
                md.append(fmt("| %s | %s | %d | %s | %s | %,d |%n", name, p.getMode().longLabel(), p.getForks(),
                        p.getWarmup().getCount() + (single ? " x 1 op" : " x " + p.getWarmup().getTime()),
                        p.getMeasurement().getCount() + (single ? " x 1 op" : " x " + p.getMeasurement().getTime()),
                        p.getOpsPerInvocation()));
            });
        }

        private void newSimulator(StringBuilder md) {
            Double sim = seconds("NewSimulatorBench.simulatorForEqualQuery");
            if (sim == null) {
                return;
            }
            md.append("\n### (7) A new tester, warm: CartWatch simulator (FULL) for a query equal to one seen before\n\n");
            md.append("| operation | time | ± (99.9%) | target |\n|---|---:|---:|---|\n");
            for (String[] row : new String[][] {
                    {"new TwsSimulator for an equal query (new encoder instances)", "NewSimulatorBench.simulatorForEqualQuery", "well under 1 ms"},
                    {"CartWatch.query() and new TwsSimulator", "NewSimulatorBench.queryAndSimulator", "-"},
                    {"new Spark TwsTester (RunningCount; takes no encoders)", "NewSimulatorBench.twsTester", "-"}}) {
                Double t = seconds(row[1]);
                if (t != null) {
                    md.append(fmt("| %s | %.2f µs | %.1f%% | %s |%n", row[0], t * 1e6, 100 * relError(row[1]), row[2]));
                }
            }
        }

        private void throughput(StringBuilder md) {
            Double tester = seconds("ThroughputBench.twsTester");
            if (tester == null && seconds("ThroughputBench.simulatorFull") == null) {
                return;
            }
            md.append("\n### (1) Throughput: RunningCount, 1,000,000 rows, 10,000 keys, 100 rows per key per call\n\n");
            md.append("| engine | rows/s | ± (99.9%) | vs TwsTester | target | met |\n|---|---:|---:|---:|---|---|\n");
            row1(md, "Spark's TwsTester", "ThroughputBench.twsTester", tester, null);
            row1(md, "simulator FAST", "ThroughputBench.simulatorFast", tester, 1.0);
            row1(md, "simulator FULL", "ThroughputBench.simulatorFull", tester, 0.25);
        }

        private void row1(StringBuilder md, String label, String name, Double tester, Double target) {
            Double s = seconds(name);
            if (s == null) {
                return;
            }
            double rowsPerSec = 1 / s; // one JMH operation is one row (@OperationsPerInvocation)
            String ratio = tester == null ? "-" : fmt("%.2fx", tester / s);
            String met = target == null || tester == null ? "-" : (tester / s >= target ? "yes" : "**no**");
            md.append(fmt("| %s | %,.0f | %.1f%% | %s | %s | %s |%n", label, rowsPerSec, 100 * relError(name), ratio,
                    target == null ? "-" : fmt(">= %.2fx", target), met));
        }

        private void batches(StringBuilder md) {
            Double live = seconds("MicroBatchBench.liveSpark");
            if (live == null && seconds("MicroBatchBench.simulatorFull") == null) {
                return;
            }
            int rowsPerBatch = ThroughputBench.ROWS / Workloads.BATCHES;
            md.append("\n### (2) The same rows in 10 micro-batches of 100,000 rows (`runBatch` / live Spark), per batch\n\n");
            md.append("| engine | per batch | ± (99.9%) | rows/s | live Spark / this | measured |\n|---|---:|---:|---:|---:|---|\n");
            for (String[] e : new String[][] {{"simulator FULL", "MicroBatchBench.simulatorFull"},
                    {"simulator FAST", "MicroBatchBench.simulatorFast"},
                    {"live Spark (local[2], RocksDB)", "MicroBatchBench.liveSpark"}}) {
                Double s = seconds(e[1]);
                if (s != null) {
                    md.append(fmt("| %s | %s | %s | %,.0f | %s | %s |%n", e[0], time(s), pct(e[1]), rowsPerBatch / s,
                            live == null ? "-" : fmt("%,.1fx", live / s), samples(e[1])));
                }
            }
        }

        private void suite(StringBuilder md) {
            if (jmh.keySet().stream().noneMatch(k -> k.startsWith("ScenarioSuiteBench."))) {
                return;
            }
            md.append("\n### (3) Scenario suite (CartWatch), per scenario\n\n");
            md.append("| workload | simulator FULL | simulator FAST | live Spark | live / FULL | live / FAST | target >= 10,000x |\n"
                    + "|---|---:|---:|---:|---:|---:|---|\n");
            for (String[] w : new String[][] {{"cart story (3 files)", "story"},
                    {Workloads.GENERATED_SCENARIOS + " generated event-time scenarios (mean)", "generated"}}) {
                Double full = seconds("ScenarioSuiteBench." + w[1] + "SimulatorFull");
                Double fast = seconds("ScenarioSuiteBench." + w[1] + "SimulatorFast");
                Double live = seconds("ScenarioSuiteBench." + w[1] + "Live");
                md.append(fmt("| %s | %s | %s | %s | %s | %s | %s |%n", w[0], time(full), time(fast), time(live),
                        ratio(live, full), ratio(live, fast),
                        live == null || full == null ? "-" : (live / full >= 10_000 ? "yes" : "**no**")
                                + (fast == null ? "" : " (FAST: " + (live / fast >= 10_000 ? "yes" : "no") + ")")));
            }
        }

        /**
         * Benchmark (4), with issue 11's targets: RunningCount at FULL within 1 s, CartWatch at FULL
         * within 1.5 s and 2.5x Spark's TwsTester one-test JVM.
         */
        void startup(StringBuilder md) {
            if (startup == null) {
                return;
            }
            double tester = median(startup, "RunningCount, Spark's TwsTester");
            double beanCart = median(startup, "CartWatch, simulator FULL");
            double testerScalaRatio = median(startup, "CartWatch with case classes (Scala), Spark's TwsTester")
                    / median(startup, "CartWatch, Spark's TwsTester");
            md.append("\n### (4) Start-up: a fresh JVM running one test, wall clock (" + startup.get(0).wallMs().length
                    + " runs each)\n\n");
            md.append("| JVM | median | min - max | in the JVM: main / query built / tester built / test done"
                    + " (median ms after launch) | vs TwsTester | target |\n|---|---:|---:|---|---:|---|\n");
            for (StartupBench.Case c : startup) {
                double ratio = c.medianWallMs() / tester;
                md.append(fmt("| %s | %.0f ms | %.0f - %.0f ms | %.0f / %.0f / %.0f / %.0f | %.2fx | %s |%n", c.label(),
                        c.medianWallMs(), c.minWallMs(), c.maxWallMs(), ChildJvm.median(c.mainMs()),
                        ChildJvm.median(c.queryMs()), ChildJvm.median(c.simulatorMs()),
                        ChildJvm.median(c.testMs()), ratio, startupTarget(c.label(), c.medianWallMs(), ratio, beanCart, testerScalaRatio)));
            }
        }

        private static double median(List<StartupBench.Case> cases, String label) {
            return cases.stream().filter(c -> c.label().equals(label)).findFirst()
                    .map(StartupBench.Case::medianWallMs).orElse(Double.NaN);
        }

        /**
         * Issue 11's targets, and issue 26's: the case-class cart within 1.2x the bean cart (with, for the
         * bound, the same ratio of Spark's TwsTester on the two processors).
         */
        private static String startupTarget(String label, double wallMs, double vsTwsTester, double beanCartMs,
                double testerScalaRatio) {
            if (label.equals("CartWatch with case classes (Scala), simulator FULL")) {
                return fmt("<= 1.2x CartWatch with beans (%.2fx): %s; Spark's TwsTester, case classes against beans: %.2fx",
                        wallMs / beanCartMs, wallMs <= 1.2 * beanCartMs ? "yes" : "**no**", testerScalaRatio);
            }
            if (label.equals("RunningCount, simulator FULL")) {
                return "<= 1.0 s: " + (wallMs <= 1000 ? "yes" : "**no**");
            }
            if (label.equals("CartWatch, simulator FULL")) {
                return "<= 1.5 s and <= 2.5x TwsTester: " + (wallMs <= 1500 && vsTwsTester <= 2.5 ? "yes" : "**no**");
            }
            return "-";
        }

        private void memory(StringBuilder md) {
            if (memory == null) {
                return;
            }
            md.append(fmt("\n### (5) Memory: retained heap with %,d keys of state (used heap after full GC, loaded minus empty)\n\n",
                    memory.get(0).keys()));
            md.append("| state | engine | loaded through | MB | bytes/key | target < 300 MB |\n|---|---|---|---:|---:|---|\n");
            for (MemoryBench.Case c : memory) {
                String engine = c.engine().equals("TWSTESTER") ? "Spark's TwsTester" : "simulator " + c.engine();
                String load = c.load().equals("state") ? (c.engine().equals("TWSTESTER") ? "updateValueState per key"
                        : "state().setValue per key (state only)")
                        : "10 runBatch calls, 1 row per key (state + history)";
                boolean target = c.state().startsWith("ValueState<Long>") && !c.engine().equals("TWSTESTER");
                md.append(fmt("| %s | %s | %s | %.1f | %.0f | %s |%n", c.state(), engine, load, c.megabytes(),
                        c.bytesPerKey(), target ? (c.megabytes() < 300 ? "yes" : "**no**") : "-"));
            }
        }

        /** Benchmark (6): wall clock per engine, the children's milestones, and FULL against TwsTester (target <= 1.0x wall). */
        void coldSuite(StringBuilder md) {
            if (coldSuite != null) {
                coldSuiteTable(md, coldSuite, "(6) Cold test suite: %d small tests", "target (FULL) <= 1.0x wall", 1.0, false);
            }
        }

        /**
         * Benchmark (6b), the cold suite's variant (2 shuffle partitions, 3 to 8 batches): FULL against
         * TwsTester, target <= 1.3x in the suite (all done - inputs built), as issue 22 measures it.
         */
        void coldSuite2(StringBuilder md) {
            if (coldSuite2 != null) {
                coldSuiteTable(md, coldSuite2, "(6b) Cold test suite, the common shape (2 shuffle partitions, 3 to 8"
                        + " batches): %d small tests", "target (FULL) <= 1.3x suite", 1.3, true);
            }
        }

        /** One cold suite's table; {@code target} applies to FULL's suite ratio when {@code onSuite}, else its wall ratio. */
        private static void coldSuiteTable(StringBuilder md, List<ColdSuiteBench.Case> cases, String heading,
                String targetColumn, double target, boolean onSuite) {
            ColdSuiteBench.Case tester = engine(cases, "TWSTESTER");
            md.append(fmt("\n### " + heading + ", a new query (new encoders) and tester each, one fresh JVM"
                    + " per engine, wall clock (%d runs each)\n\n", tester.scenarios(), tester.wallMs().length));
            md.append("| engine | wall median | min - max | in the JVM: main / inputs built / first test done / all done"
                    + " (median ms after launch) | suite (all done - inputs) | per test | cart / fraud / counts / ttl (ms)"
                    + " | their first tests (ms) | wall vs TwsTester | suite vs TwsTester | " + targetColumn + " |\n"
                    + "|---|---:|---:|---|---:|---:|---|---|---:|---:|---|\n");
            for (ColdSuiteBench.Case c : cases) {
                double wallRatio = c.medianWallMs() / tester.medianWallMs();
                double suiteRatio = c.medianSuiteMs() / tester.medianSuiteMs();
                md.append(fmt("| %s | %.0f ms | %.0f - %.0f ms | %.0f / %.0f / %.0f / %.0f | %.0f ms | %.1f ms | %s | %s | %.2fx | %.2fx | %s |%n",
                        c.label(), c.medianWallMs(), c.minWallMs(), c.maxWallMs(), ChildJvm.median(c.mainMs()),
                        ChildJvm.median(c.inputsMs()), ChildJvm.median(c.firstMs()),
                        ChildJvm.median(c.doneMs()), c.medianSuiteMs(), c.meanPerTestMs(),
                        medians(c.familyMs()), medians(c.firstOfFamilyMs()), wallRatio, suiteRatio,
                        c.engine().equals("FULL") ? ((onSuite ? suiteRatio : wallRatio) <= target ? "yes" : "**no**") : "-"));
            }
            ColdSuiteBench.Case full = engine(cases, "FULL");
            ColdSuiteBench.Case withQueries = engine(cases, "TWSTESTER_QUERIES");
            if (full != null && withQueries != null) {
                md.append(fmt("%nThe simulator FULL against TwsTester whose tests also build the query definitions"
                        + " (the same Spark encoder inference): %.2fx wall, %.2fx suite.%n",
                        full.medianWallMs() / withQueries.medianWallMs(), full.medianSuiteMs() / withQueries.medianSuiteMs()));
            }
        }

        private static ColdSuiteBench.Case engine(List<ColdSuiteBench.Case> cases, String engine) {
            return cases.stream().filter(c -> c.engine().equals(engine)).findFirst().orElse(null);
        }

        /** The medians of each entry, joined with " / ". */
        private static String medians(Map<String, long[]> values) {
            StringBuilder joined = new StringBuilder();
            values.forEach((name, ms) -> joined.append(joined.length() == 0 ? "" : " / ")
                    .append(fmt("%.0f", ChildJvm.median(ms))));
            return joined.toString();
        }

        private String pct(String name) {
            double e = relError(name);
            return Double.isNaN(e) ? "-" : fmt("%.1f%%", 100 * e);
        }

        private static String ratio(Double slow, Double fast) {
            return slow == null || fast == null ? "-" : fmt("%,.0fx", slow / fast);
        }

        private static String time(Double seconds) {
            if (seconds == null) {
                return "-";
            }
            if (seconds >= 1) {
                return fmt("%.2f s", seconds);
            }
            if (seconds >= 1e-3) {
                return fmt("%.2f ms", seconds * 1e3);
            }
            return fmt("%.1f µs", seconds * 1e6);
        }

        private static String fmt(String format, Object... args) {
            return String.format(Locale.ROOT, format, args);
        }
    }
}
