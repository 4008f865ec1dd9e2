package dev.twstester.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The benchmarks still start: every simulator and TwsTester benchmark method once with tiny
 * sizes, the start-up and memory programs in this JVM, without JMH forks or live Spark. The
 * benchmarks themselves are run by {@code exec:exec@bench} (BENCHMARKS.md), never by {@code mvn verify}.
 */
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
    void memoryProgramMeasuresTheSimulatorAndTwsTester() throws InterruptedException {
        // heap figures of 50 keys are noise; this only shows that both kinds of engine load and measure
        assertThat(MemoryMain.retained("bean", "FAST", "batches", 50)).isGreaterThan(Long.MIN_VALUE);
        assertThat(MemoryMain.retained("long", "TWSTESTER", "state", 50)).isGreaterThan(Long.MIN_VALUE);
    }
}
