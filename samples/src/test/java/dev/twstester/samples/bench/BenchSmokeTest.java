package dev.twstester.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.infra.Blackhole;

import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.fraud.FraudAlert;
import dev.twstester.samples.ttl.SessionClosed;

import scala.Tuple2;

/**
 * The benchmarks still start: every simulator and TwsTester benchmark method once with tiny
 * sizes, the start-up, memory and cold-suite programs in this JVM, without JMH forks or live Spark. The
 * benchmarks themselves are run by {@code exec:exec@bench} (BENCHMARKS.md), never by {@code mvn verify}.
 */
@Isolated("startupProgramRunsEveryCase replaces System.out to read what the programs print: another test's printing would be lost meanwhile")
class BenchSmokeTest {
    private final Blackhole bh = new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

    @Test
    void jmhGeneratedTheBenchmarkList() throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("META-INF/BenchmarkList")) {
            assertThat(in).as("META-INF/BenchmarkList from JMH's annotation processor").isNotNull();
            String list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(list).contains("ThroughputBench", "twsTester", "MicroBatchBench", "liveSpark",
                    "ScenarioSuiteBench", "generatedLive");
        }
    }

    @Test
    void newSimulatorBenchmarksRunAndGiveWorkingTesters() {
        NewSimulatorBench b = new NewSimulatorBench();
        b.setUp();
        var first = b.simulatorForEqualQuery();
        var second = b.simulatorForEqualQuery();
        assertThat(second).isNotSameAs(first);
        assertThat(second.query()).isNotSameAs(first.query());
        assertThat(second.encoderPaths()).containsEntry("input", "native").containsEntry("output", "native");
        var sim = b.queryAndSimulator();
        sim.runBatch(dev.twstester.samples.cart.CartEvent.add("ana", "boots", java.time.Instant.parse("2024-05-01T10:00:00Z")));
        assertThat(sim.state().list("items", "ana")).containsExactly("boots");
        assertThat(b.twsTester()).isNotNull();
    }

    @Test
    void throughputBenchmarksRun() {
        ThroughputBench b = new ThroughputBench();
        b.keyCount = 20;
        b.rowsPerKey = 5;
        b.setUp();
        b.simulatorFull(bh);
        b.simulatorFast(bh);
        b.twsTester(bh);
        assertThat(b.rows).hasSize(20).allSatisfy(call -> assertThat(call).hasSize(5));
    }

    @Test
    void microBatchSimulatorBenchmarksRun() {
        MicroBatchBench b = new MicroBatchBench();
        b.keyCount = 20;
        b.rowsPerKey = 10;
        b.setUp();
        assertThat(b.simulatorFull().batches()).hasSize(Workloads.BATCHES);
        assertThat(b.simulatorFast().outputs()).hasSize(20 * Workloads.BATCHES);
    }

    @Test
    void scenarioSuiteSimulatorBenchmarksRun() {
        ScenarioSuiteBench b = new ScenarioSuiteBench();
        b.setUp();
        assertThat(b.generated).hasSize(Workloads.GENERATED_SCENARIOS);
        b.storySimulatorFast(bh);
        b.generatedSimulatorFast(bh);
        b.generated = b.generated.subList(0, 1);
        b.generatedSimulatorFull(bh);
    }

    @Test
    void startupProgramRunsEveryCase() {
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            for (String[] c : StartupBench.CASES) {
                StartupMain.main(new String[] {c[1], c[2], String.valueOf(System.currentTimeMillis())});
            }
        } finally {
            System.setOut(stdout);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("STARTUP main=")))
                .hasSize(StartupBench.CASES.size());
    }

    @Test
    void startupTableChecksEachTargetOfItsOwnCase() {
        double[] walls = {300, 990, 950, 1600, 1400, 600, 1800, 500, 1500};
        List<StartupBench.Case> cases = new ArrayList<>();
        for (int i = 0; i < walls.length; i++) {
            cases.add(new StartupBench.Case(StartupBench.CASES.get(i)[0], new double[] {walls[i]}, new long[] {200},
                    new long[] {500}, new long[] {600}, new long[] {700}));
        }
        assertThat(section(report -> report.startup = cases, BenchMain.Report::startup))
                .contains("| RunningCount, simulator FULL | 990 ms | 990 - 990 ms | 200 / 500 / 600 / 700 | 1.65x | <= 1.0 s: yes |")
                .contains("| RunningCount, simulator FAST | 950 ms | 950 - 950 ms | 200 / 500 / 600 / 700 | 1.58x | - |")
                .contains("| CartWatch, simulator FULL | 1600 ms | 1600 - 1600 ms | 200 / 500 / 600 / 700 | 2.67x"
                        + " | <= 1.5 s and <= 2.5x TwsTester: **no** |")
                .contains("| RunningCount, Spark's TwsTester | 600 ms | 600 - 600 ms | 200 / 500 / 600 / 700 | 1.00x | - |")
                .contains("| CartWatch with case classes (Scala), simulator FULL | 1800 ms | 1800 - 1800 ms | 200 / 500 / 600 / 700"
                        + " | 3.00x | <= 1.2x CartWatch with beans (1.13x): yes;"
                        + " Spark's TwsTester, case classes against beans: 3.00x |")
                .contains("| CartWatch with case classes (Scala), Spark's TwsTester | 1500 ms | 1500 - 1500 ms"
                        + " | 200 / 500 / 600 / 700 | 2.50x | - |");
    }

    @Test
    void memoryProgramMeasuresTheSimulatorAndTwsTester() throws InterruptedException {
        // heap figures of 50 keys are noise; this only shows that both kinds of engine load and measure
        assertThat(MemoryMain.retained("bean", "FAST", "batches", 50)).isGreaterThan(Long.MIN_VALUE);
        assertThat(MemoryMain.retained("long", "TWSTESTER", "state", 50)).isGreaterThan(Long.MIN_VALUE);
    }

    // ------------------------------------------------------------------ benchmark (6), the cold suite

    private static ColdSuiteScenarios.Scenario<?, ?, ?> scenario(List<ColdSuiteScenarios.Scenario<?, ?, ?>> suite, String name) {
        return suite.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void coldSuiteHas54SmallTestsEachWithItsOwnEncoders() {
        List<ColdSuiteScenarios.Scenario<?, ?, ?>> suite = ColdSuiteScenarios.suite(ColdSuiteScenarios.DEFAULT);
        assertThat(suite).hasSize(54);
        assertThat(suite.stream().collect(Collectors.groupingBy(s -> s.family().name, Collectors.counting())))
                .isEqualTo(Map.of("cart", 14L, "fraud", 14L, "counts", 12L, "ttl", 14L));
        assertThat(suite).allSatisfy(s -> assertThat(s.batches().size()).as(s.name()).isBetween(2, 16));
        assertThat(suite.stream().map(s -> s.family().clock).distinct())
                .containsExactlyInAnyOrder(ColdSuiteScenarios.Clock.EVENT_TIME, ColdSuiteScenarios.Clock.PROCESSING_TIME,
                        ColdSuiteScenarios.Clock.NONE);
        // a test builds its query, so every test has new bean (and tuple) encoder instances
        for (String name : List.of("cart-3", "fraud-3", "ttl-3")) {
            ColdSuiteFamilies.Family<?, ?, ?> f = scenario(suite, name).family();
            assertThat(f.query().inputEncoder()).as(name).isNotSameAs(f.query().inputEncoder());
            assertThat(f.query().outputEncoder()).as(name).isNotSameAs(f.query().outputEncoder());
        }
        ColdSuiteFamilies.Family<?, ?, ?> counts = scenario(suite, "counts-3").family();
        assertThat(counts.query().outputEncoder()).isNotSameAs(counts.query().outputEncoder());
        // Encoders.STRING() is one instance in Spark, whoever calls it
        assertThat(counts.query().inputEncoder()).isSameAs(counts.query().inputEncoder());
        // the same seed gives the same rows
        assertThat(ColdSuiteScenarios.suite(ColdSuiteScenarios.DEFAULT).get(5).batches())
                .isEqualTo(suite.get(5).batches());
    }

    @Test
    void coldSuiteVariantHasTheSameTestsWithTwoPartitionsAndThreeToEightBatches(@TempDir Path dir) {
        List<ColdSuiteScenarios.Scenario<?, ?, ?>> suite = ColdSuiteScenarios.suite(ColdSuiteScenarios.SHORT);
        List<ColdSuiteScenarios.Scenario<?, ?, ?>> defaults = ColdSuiteScenarios.suite(ColdSuiteScenarios.DEFAULT);
        assertThat(suite.stream().map(ColdSuiteScenarios.Scenario::name).toList())
                .isEqualTo(defaults.stream().map(ColdSuiteScenarios.Scenario::name).toList());
        assertThat(suite).allSatisfy(s -> {
            assertThat(s.query().shufflePartitions()).as(s.name()).isEqualTo(2);
            if (!s.name().endsWith("-story")) {
                assertThat(s.batches().size()).as(s.name()).isBetween(3, 8);
            }
        });
        assertThat(suite.stream().mapToInt(s -> s.batches().size()).boxed().distinct().toList()).contains(3, 8);
        // the stories stay as they are; the default suite's queries keep their one partition
        assertThat(scenario(suite, "cart-story").batches()).isEqualTo(scenario(defaults, "cart-story").batches());
        assertThat(scenario(defaults, "cart-3").query().shufflePartitions()).isEqualTo(1);
        // with 2 partitions the simulator emits partition by partition, TwsTester key by key: the same rows
        List<ColdSuiteScenarios.Outcome> expected = ColdSuiteBench.expectations(ColdSuiteScenarios.SHORT,
                dir.resolve("expected.txt"));
        assertThat(expected).hasSize(54);
        assertThat(expected.stream().mapToInt(ColdSuiteScenarios.Outcome::outputs).sum()).isEqualTo(249);
        ColdSuiteScenarios.Scenario<?, ?, ?> counts = scenario(suite, "counts-story");
        for (String engine : ColdSuiteScenarios.ENGINES) {
            assertThat(ColdSuiteScenarios.run(counts, engine)).as(engine).containsExactlyInAnyOrder(
                    new Tuple2<>("a", 2L), new Tuple2<>("b", 1L), new Tuple2<>("b", 2L));
        }
    }

    @Test
    void coldSuiteStoriesGiveTheirKnownOutputsOnEveryEngine() {
        List<ColdSuiteScenarios.Scenario<?, ?, ?>> suite = ColdSuiteScenarios.suite(new ColdSuiteScenarios.Sizes(1, 1, 1, 1, 1, 2, 2, 1));
        for (String engine : ColdSuiteScenarios.ENGINES) {
            assertThat(ColdSuiteScenarios.run(scenario(suite, "cart-story"), engine)).as(engine)
                    .containsExactly(new CartAlert("ana", 2, ColdSuiteScenarios.at("10:05")));
            assertThat(ColdSuiteScenarios.run(scenario(suite, "counts-story"), engine)).as(engine)
                    .containsExactly(new Tuple2<>("a", 2L), new Tuple2<>("b", 1L), new Tuple2<>("b", 2L));
        }
        FraudAlert limit = new FraudAlert("c1", FraudAlert.MERCHANT_LIMIT, List.of("fuel"), 550_00);
        for (String engine : List.of("FULL", "FAST")) {
            // MapState iterates in RocksDB's order of the encoded keys
            assertThat(ColdSuiteScenarios.run(scenario(suite, "fraud-story"), engine)).as(engine).containsExactly(limit,
                    new FraudAlert("c1", FraudAlert.TOO_MANY_MERCHANTS, List.of("cafe", "fuel", "bookshop", "electronics-outlet"),
                            765_00));
            // TTL: home (09:00) has expired when the session closes; the count, updated at 09:15, has not
            assertThat(ColdSuiteScenarios.run(scenario(suite, "ttl-story"), engine)).as(engine)
                    .containsExactly(new SessionClosed("u1", 2, List.of("cart"), ColdSuiteScenarios.at("09:35")));
        }
        List<Object> fraud = ColdSuiteScenarios.run(scenario(suite, "fraud-story"), "TWSTESTER");
        assertThat(fraud).hasSize(2).first().isEqualTo(limit);
        FraudAlert tooMany = (FraudAlert) fraud.get(1);
        assertThat(tooMany.getMerchants()).containsExactlyInAnyOrder("cafe", "fuel", "bookshop", "electronics-outlet");
        assertThat(tooMany.getTotalCents()).isEqualTo(765_00);
        // TwsTester ignores TTL
        assertThat(ColdSuiteScenarios.run(scenario(suite, "ttl-story"), "TWSTESTER"))
                .containsExactly(new SessionClosed("u1", 2, List.of("home", "cart"), ColdSuiteScenarios.at("09:35")));
    }

    @Test
    void coldSuiteEnginesAgreeOnTheWholeSuite(@TempDir Path dir) {
        List<ColdSuiteScenarios.Outcome> expected = ColdSuiteBench.expectations(ColdSuiteScenarios.DEFAULT,
                dir.resolve("expected.txt"));
        assertThat(expected).hasSize(54);
        assertThat(expected.stream().mapToInt(ColdSuiteScenarios.Outcome::outputs).sum()).isEqualTo(441);
        for (String family : ColdSuiteBench.FAMILIES) {
            assertThat(expected.stream().filter(o -> o.name().startsWith(family + "-")).mapToInt(ColdSuiteScenarios.Outcome::outputs)
                    .sum()).as(family).isGreaterThan(10);
        }
    }

    @Test
    void coldSuiteProgramChecksItsOutputs(@TempDir Path dir) throws Exception {
        ColdSuiteScenarios.Sizes tiny = new ColdSuiteScenarios.Sizes(ColdSuiteScenarios.SEED, 3, 3, 2, 3, 2, 6, 1);
        Path file = dir.resolve("expected.txt");
        List<ColdSuiteScenarios.Outcome> expected = ColdSuiteBench.expectations(tiny, file);
        assertThat(Files.readAllLines(file)).hasSize(11).first().asString().startsWith("cart-story 1 ");
        for (String engine : ColdSuiteScenarios.ENGINES) {
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            List<ColdSuiteScenarios.Outcome> got = ColdSuiteMain.run(engine, System.currentTimeMillis(), 0, file, tiny,
                    new PrintStream(captured, true, StandardCharsets.UTF_8));
            assertThat(got).as(engine).hasSize(11);
            assertThat(got.stream().map(ColdSuiteScenarios.Outcome::outputs).toList()).as(engine)
                    .isEqualTo(expected.stream().map(ColdSuiteScenarios.Outcome::outputs).toList());
            ChildJvm.Result r = new ChildJvm.Result(0, captured.toString(StandardCharsets.UTF_8), "", 1);
            assertThat(r.value("COLDSUITE", "scenarios")).isEqualTo(11);
            assertThat(r.value("COLDSUITE", "outputs"))
                    .isEqualTo(expected.stream().mapToInt(ColdSuiteScenarios.Outcome::outputs).sum());
            assertThat(r.value("COLDSUITE", "done")).isGreaterThanOrEqualTo(r.value("COLDSUITE", "first"));
            assertThat(r.value("COLDSUITE", "cart")).isGreaterThanOrEqualTo(r.value("COLDSUITE", "cart1"));
        }
        // one wrong count: the run fails and names the scenario
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        ColdSuiteScenarios.Outcome fraud = ColdSuiteScenarios.Outcome.parse(lines.get(3));
        assertThat(fraud.name()).isEqualTo("fraud-story");
        lines.set(3, new ColdSuiteScenarios.Outcome(fraud.name(), fraud.outputs() + 1, fraud.comparable(), fraud.full()).line());
        Files.write(file, lines);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ColdSuiteMain.run("TWSTESTER", 0, 0, file, tiny,
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("TWSTESTER did not produce the expected outputs of 1 scenario(s):\n  fraud-story: expected 3 outputs");
    }

    /**
     * One run per engine, in {@link ColdSuiteBench#ENGINES} order: {@code runs[e]} is the wall clock
     * and the child's main, inputs, first and done milestones.
     */
    private static List<ColdSuiteBench.Case> coldSuiteCases(int[][] runs) {
        List<ColdSuiteBench.Case> cases = new ArrayList<>();
        for (int e = 0; e < runs.length; e++) {
            int[] r = runs[e];
            String out = "COLDSUITE main=" + r[1] + " inputs=" + r[2] + " first=" + r[3] + " done=" + r[4] + " checked=" + r[4]
                    + " cart=100 fraud=50 counts=10 ttl=20 cart1=90 fraud1=40 counts1=2 ttl1=3 scenarios=54 batches=464"
                    + " rows=1433 outputs=441\n";
            String[] engine = ColdSuiteBench.ENGINES.get(e);
            cases.add(ColdSuiteBench.toCase(engine[0], engine[1], List.of(new ChildJvm.Result(0, out, "", r[0]))));
        }
        return cases;
    }

    @Test
    void coldSuiteTableComparesFullWithTwsTester() {
        List<ColdSuiteBench.Case> cases = coldSuiteCases(new int[][] {{4000, 300, 600, 2000, 3600},
            {1000, 300, 600, 800, 900}, {1500, 300, 600, 900, 1300}, {2000, 300, 600, 1000, 1800}});
        assertThat(section(report -> report.coldSuite = cases, BenchMain.Report::coldSuite))
                .contains("### (6) Cold test suite: 54 small tests")
                .contains("| twstester simulator FULL (default) | 4000 ms | 4000 - 4000 ms | 300 / 600 / 2000 / 3600 | 3000 ms"
                        + " | 55.6 ms | 100 / 50 / 10 / 20 | 90 / 40 / 2 / 3 | 4.00x | 10.00x | **no** |")
                .contains("| Spark's TwsTester | 1000 ms | 1000 - 1000 ms | 300 / 600 / 800 / 900 | 300 ms | 5.6 ms"
                        + " | 100 / 50 / 10 / 20 | 90 / 40 / 2 / 3 | 1.00x | 1.00x | - |")
                .contains("| Spark's TwsTester, each test also building the query definition | 2000 ms | 2000 - 2000 ms"
                        + " | 300 / 600 / 1000 / 1800 | 1200 ms | 22.2 ms | 100 / 50 / 10 / 20 | 90 / 40 / 2 / 3 | 2.00x | 4.00x | - |")
                .contains("The simulator FULL against TwsTester whose tests also build the query definitions"
                        + " (the same Spark encoder inference): 2.00x wall, 2.50x suite.");
    }

    @Test
    void coldSuiteVariantTableComparesFullWithTwsTesterInTheSuite() {
        List<ColdSuiteBench.Case> cases = coldSuiteCases(new int[][] {{1300, 300, 600, 900, 1250},
            {1000, 300, 600, 800, 1000}});
        // 650 ms against 400 ms in the suite: 1.63x, over the 1.3x target though the wall ratio is 1.30x
        assertThat(section(report -> report.coldSuite2 = cases, BenchMain.Report::coldSuite2))
                .contains("### (6b) Cold test suite, the common shape (2 shuffle partitions, 3 to 8 batches): 54 small tests")
                .contains("| target (FULL) <= 1.3x suite |")
                .contains("| twstester simulator FULL (default) | 1300 ms | 1300 - 1300 ms | 300 / 600 / 900 / 1250 | 650 ms"
                        + " | 12.0 ms | 100 / 50 / 10 / 20 | 90 / 40 / 2 / 3 | 1.30x | 1.63x | **no** |")
                .doesNotContain("each test also building");
    }

    @Test
    void coldSuitePhasesSplitEachRoundByPhaseAndFamily() {
        List<String> lines = ColdSuitePhases.run(dev.twstester.sim.Fidelity.FAST,
                new ColdSuiteScenarios.Sizes(ColdSuiteScenarios.SEED, 2, 2, 2, 2, 3, 4, 2), 2);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).matches("COLDPHASES round=0 query=\\d+ms/\\d+KB/\\d+classes"
                + " simulator=\\d+ms/\\d+KB/\\d+classes batches=\\d+ms/\\d+KB/\\d+classes");
        assertThat(lines.get(1)).matches("COLDFAMILIES round=0 cart=\\d+/\\d+ fraud=\\d+/\\d+ counts=\\d+/\\d+"
                + " ttl=\\d+/\\d+");
        assertThat(lines.get(2)).startsWith("COLDPHASES round=1 ");
    }

    /** The Markdown one section of the report writes, after {@code fill} gave the report its results. */
    private static String section(java.util.function.Consumer<BenchMain.Report> fill,
            java.util.function.BiConsumer<BenchMain.Report, StringBuilder> section) {
        BenchMain.Report report = new BenchMain.Report();
        fill.accept(report);
        StringBuilder md = new StringBuilder();
        section.accept(report, md);
        return md.toString();
    }
}
