package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.spark.SparkEnv;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.io.RunResultJson;
import dev.twstester.property.GenScenario;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.sim.ChainProcessors;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.sim.Event;
import dev.twstester.sim.EventTimeProcessor;
import dev.twstester.sim.ExperimentProcessor;
import dev.twstester.sim.InitialStateProcessor;
import dev.twstester.sim.OutEvent;
import dev.twstester.sim.TwsSimulator;

import scala.jdk.javaapi.CollectionConverters;
import dev.twstester.testing.ChildJvm;

/**
 * The live oracle on a cluster whose executors are separate JVMs: a child JVM runs differential
 * scenarios on Spark's {@code local-cluster[2,1,1024]} master (two workers, each starting its
 * executor as a JVM of its own, RocksDB state in the executors) and writes each run as JSON; this
 * JVM runs the same scenarios on the simulator and on its own {@code local[2]} session and
 * requires the same {@link RunResult}s: batches, inputs, late rows, watermarks, outputs and their
 * partitions, fired timers and metrics. The processors (and the key functions, lambdas of this
 * class) are serialized in the driver and loaded from the class path in the executors; a processor
 * that reports its JVM shows that it ran in neither the driver's nor this JVM.
 */
@Tag("live")
class LiveClusterTest {
    static final String MASTER = "local-cluster[2,1,1024]";
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(10);

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    /** One differential scenario: a query and the steps it runs. */
    record Case<K, I, O>(String name, TwsQuery<K, I, O> query, Scenario<I> scenario) {
        /** Runs on the live session of this JVM ({@link LiveSpark#session()}), as JSON. */
        String runLive() {
            return RunResultJson.write(LiveRunner.of(query).run(scenario), query);
        }

        /** The cluster's run ({@code clusterJson}) agrees with the simulator and with this JVM's live run. */
        RunResult<K, I, O> check(String clusterJson) {
            RunResult<K, I, O> cluster = RunResultJson.read(clusterJson, query);
            RunResult<K, I, O> sim = new TwsSimulator<>(query).run(scenario);
            RunComparison.simulatorVsSpark().assertSame(sim, cluster);
            RunResult<K, I, O> local = RunResultJson.read(runLive(), query);
            assertThat(cluster.batches()).as("%s: the cluster's batches against local[2]'s", name)
                    .containsExactlyElementsOf(local.batches());
            return cluster;
        }
    }

    /**
     * The scenarios both JVMs run: timers, TTL, list and map state, initial state, 1 to 3
     * partitions, a restart, and generated scenarios.
     */
    static List<Case<?, ?, ?>> cases() {
        TwsQuery<String, String, String> experiment = TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
        Scenario<String> experimentSteps = Scenario.<String>builder()
                .batchAt(t(1000), List.of("x,reg:70000", "x,reg:2000", "x,reg:1000", "x,reg:300", "x,reg:1",
                        "x,del:999", "b,reg:5000", "a,reg:5000", "ccc,reg:5000", "aa,reg:4000",
                        "x,smap:b=1;a=2;c=3;aa=4", "x,imap:1=1;256=2;2=3;-1=4", "x,lst:z;y;x", "x,show",
                        "y,ttlset:v1", "y,ttlget", "late,reg:500"))
                .tick(t(2000))
                .batchAt(t(3000), List.of("y,ttlget", "x,show", "x,smapclear"))
                .batchAt(t(5000), List.of("y,ttlget", "y,ttlset:v2"))
                .tick(t(6000))
                .batchAt(t(8000), List.of("y,ttlget"))
                .build();

        TwsQuery<String, Event, OutEvent> eventTime = TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", Duration.ofSeconds(10))
                .build();
        Scenario<Event> eventTimeSteps = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 10000, "timer+5"), new Event("b", 20000, "timer+5"),
                        new Event("z", 1000, "reg:0")))
                .batch(List.of(new Event("a", 10000, "eq-wm"), new Event("a", 10001, "timer+5"),
                        new Event("c", 5000, "old"), new Event("d", 30000, "x")))
                .batchAt(t(2500), List.of(new Event("e", 19999, "late"), new Event("e", 20001, "emitold")))
                .batch(List.of(new Event("f", 100000, "x")))
                .build();
        // the same story on 3 partitions, stopped and started again in the middle
        Scenario<Event> restartSteps = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 10000, "timer+5"), new Event("b", 20000, "timer+5"),
                        new Event("c", 21000, "timer+5"), new Event("d", 22000, "timer+5")))
                .stop()
                .addData(List.of(new Event("e", 40000, "x")))
                .start()
                .batch(List.of(new Event("f", 100000, "x")))
                .build();

        TwsQuery<String, String, String> initial = TwsQuery.builder(InitialStateProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .initialState(List.of(Map.entry("c", 30L), Map.entry("b", 20L), Map.entry("a", 10L)), Encoders.LONG())
                .build();
        Scenario<String> initialSteps = Scenario.<String>builder()
                .batchAt(t(2000), List.of("a,x", "d,x", "e,x"))
                .tick(t(3000))
                .batchAt(t(4000), List.of("b,y"))
                .tick(t(5000))
                .build();

        TwsQuery<String, String, String> timerPerKey = TwsQuery.builder(LivePartitionsTest.TimerPerKey::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .shufflePartitions(2)
                .build();
        Scenario<String> timerPerKeySteps = Scenario.<String>builder()
                .batchAt(t(1000), List.of("ana,reg:3000", "bo,reg:2000", "cy,reg:3000", "dee,reg:2500", "ed,reg:2000",
                        "flo,reg:4000", "gus,reg:3000"))
                .tick(t(3000))
                .batchAt(t(3500), List.of("hal,reg:4000", "ivy,reg:4000", "ana,reg:5000"))
                .tick(t(5000))
                .build();

        List<Case<?, ?, ?>> cases = new ArrayList<>(List.of(new Case<>("experiment", experiment, experimentSteps),
                new Case<>("event-time", eventTime, eventTimeSteps),
                new Case<>("event-time-3-partitions-restart", eventTime.withShufflePartitions(3), restartSteps),
                new Case<>("initial-state", initial, initialSteps),
                new Case<>("timers-2-partitions", timerPerKey, timerPerKeySteps)));
        // generated scenarios of the event-time query, as the differential property makes them: fixed
        // seeds (both JVMs generate the same steps), stops and starts, trigger intervals 0 and 1 s
        String[] variants = {"timer+5", "x", "emitold"};
        ScenarioGenerator generator = ScenarioGenerator.create().keys("a", "b", "c", "d").variants(variants)
                .defaultsFrom(eventTime).restartChance(0.3).triggerIntervals(Duration.ZERO, Duration.ofSeconds(1));
        for (long seed : GENERATED_SEEDS) {
            GenScenario generated = generator.generate(seed).withShufflePartitions(1 + (int) (seed % 2));
            cases.add(new Case<>("generated-" + seed, generated.applyTo(eventTime),
                    generated.toScenario((key, ms, variant) -> new Event(key, ms, variants[variant]))));
        }
        return cases;
    }

    /** The seeds of the generated scenarios (odd seeds run on 2 partitions, even ones on 1). */
    static final long[] GENERATED_SEEDS = {4101, 4102, 4103};

    static final TwsQuery<String, Event, OutEvent> CHAIN = ChainProcessors.chain();

    /** The chain: the upstream's emitted rows are reported from the executors too. */
    static Scenario<Event> chainSteps() {
        return Scenario.<Event>builder()
                .batch(List.of(new Event("a1", 10000, "timer+5"), new Event("b1", 20000, "x"), new Event("a2", 12000, "x")))
                .batch(List.of(new Event("c1", 40000, "x")))
                .build();
    }

    /**
     * Outputs, per row, where it ran: the process id its instance was created in (the driver:
     * Spark serializes the instance the query was built with), the process id and Spark executor id
     * it ran in, and whether its class came from the executor's class path.
     */
    public static class WhereAmI extends StatefulProcessor<String, String, String> {
        private final long createdInPid = ProcessHandle.current().pid();

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {}

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            String line = key + " created=" + createdInPid + " ran=" + ProcessHandle.current().pid()
                    + " executor=" + SparkEnv.get().executorId() + " jvm=" + ManagementFactory.getRuntimeMXBean().getName();
            return CollectionConverters.asScala(List.of(line).iterator());
        }

        @Override
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo info) {
            return CollectionConverters.asScala(List.<String>of().iterator());
        }
    }

    static TwsQuery<String, String, String> whereAmI() {
        return TwsQuery.builder(WhereAmI::new)
                .keyBy(s -> s, Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.None())
                .shufflePartitions(2)
                .build();
    }

    /**
     * The child JVM: runs every case on {@code -Dtwstester.spark.master} (the cluster) and writes
     * {@code <name>.json}, the chain's two runs, the {@link WhereAmI} rows, this JVM's process id
     * and each run's milliseconds into the folder {@code args[0]}.
     */
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        List<String> times = new ArrayList<>();
        try {
            long start = System.nanoTime();
            LiveSpark.session();
            times.add("session " + (System.nanoTime() - start) / 1_000_000);
            // the executors start in the background: wait until both have registered (the driver is listed too)
            while (LiveSpark.session().sparkContext().getExecutorMemoryStatus().size() < 3) {
                if (System.nanoTime() - start > CHILD_TIMEOUT.toNanos()) {
                    throw new IllegalStateException("the executors did not register within " + CHILD_TIMEOUT);
                }
                Thread.sleep(50);
            }
            times.add("executors registered " + (System.nanoTime() - start) / 1_000_000);
            Files.writeString(out.resolve("driver.txt"), ProcessHandle.current().pid() + " "
                    + LiveSpark.session().sparkContext().master() + "\n");
            for (Case<?, ?, ?> c : cases()) {
                long t0 = System.nanoTime();
                Files.writeString(out.resolve(c.name() + ".json"), c.runLive());
                times.add(c.name() + " " + (System.nanoTime() - t0) / 1_000_000);
            }
            long t0 = System.nanoTime();
            RunResult<String, Event, OutEvent> chain = LiveRunner.of(CHAIN).run(chainSteps());
            Files.writeString(out.resolve("chain.json"), RunResultJson.write(chain, CHAIN));
            times.add("chain " + (System.nanoTime() - t0) / 1_000_000);
            t0 = System.nanoTime();
            RunResult<String, String, String> where = LiveRunner.of(whereAmI())
                    .run(Scenario.<String>builder().batch(List.of("ana", "bo", "cy", "dee", "ed", "flo")).build());
            Files.write(out.resolve("where.txt"), where.outputs());
            times.add("where " + (System.nanoTime() - t0) / 1_000_000);
            Files.write(out.resolve("times.txt"), times);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    @Test
    void differential_scenarios_on_a_local_cluster_agree_with_local_and_the_simulator() throws Exception {
        Path dir = Files.createTempDirectory("twstester-cluster-");
        Path sparkHome = Files.createDirectories(dir.resolve("spark-home")); // LiveSpark creates its jars/
        Path out = Files.createDirectories(dir.resolve("out"));
        Path log = dir.resolve("child.log");
        ChildJvm child = ChildJvm.main(LiveClusterTest.class, out.toString()).flag("-Xmx1g").flag("-Xss4m")
                .property(LiveSpark.MASTER_PROPERTY, MASTER).env("SPARK_HOME", sparkHome.toString())
                .outputTo(log).timeout(CHILD_TIMEOUT);

        long start = System.nanoTime();
        ChildJvm.Result ran;
        try {
            ran = child.run();
        } catch (AssertionError timedOut) {
            throw new AssertionError(timedOut.getMessage() + "; its output:\n" + tail(log), timedOut);
        }
        long childMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(ran.exit()).as("the cluster run's exit code; its output:\n%s", tail(log)).isZero();
        List<String> times = Files.readAllLines(out.resolve("times.txt"));
        System.out.println("LiveClusterTest: the child JVM on " + MASTER + " took " + childMs + " ms (ms since "
                + "its main started: " + String.join(", ", times.subList(0, 2)) + "; then ms per run: "
                + String.join(", ", times.subList(2, times.size())) + ")");

        // the processor ran in executor JVMs, neither the child's driver nor this JVM, deserialized there
        String[] driver = Files.readString(out.resolve("driver.txt")).trim().split(" ");
        assertThat(driver[1]).isEqualTo(MASTER);
        long driverPid = Long.parseLong(driver[0]);
        List<String> where = Files.readAllLines(out.resolve("where.txt"));
        assertThat(where).hasSize(6).allSatisfy(line -> {
            assertThat(line).contains(" created=" + driverPid + " ").doesNotContain(" ran=" + driverPid + " ")
                    .doesNotContain(" ran=" + ProcessHandle.current().pid() + " ").doesNotContain("executor=driver");
            assertThat(line).containsPattern(" executor=[01] ");
        });
        System.out.println("LiveClusterTest: where the processor ran: " + where);

        long compareStart = System.nanoTime();
        List<String> summary = new ArrayList<>();
        int starts = 0;
        for (Case<?, ?, ?> c : cases()) {
            RunResult<?, ?, ?> cluster = c.check(Files.readString(out.resolve(c.name() + ".json")));
            long startSteps = c.scenario().steps().stream().filter(step -> step instanceof Scenario.Start<?>).count();
            starts += (int) startSteps;
            summary.add(c.name() + ": " + c.query().shufflePartitions() + " partition(s), " + startSteps + " start(s), "
                    + cluster.batches().size() + " batches, " + cluster.outputs().size() + " outputs, "
                    + cluster.firedTimers().size() + " timers fired");
            if (c.name().equals("timers-2-partitions")) {
                // reported by the executors' tasks through the accumulator: timers and partitions of outputs
                assertThat(cluster.firedTimers()).hasSize(10);
                assertThat(cluster.batches()).flatExtracting(BatchResult::outputPartitions).containsOnly(0, 1)
                        .contains(0, 1);
            }
        }
        System.out.println("LiveClusterTest: the runs compared: " + String.join("; ", summary));
        assertThat(starts).as("Start steps over all scenarios (restarts from the checkpoint)").isGreaterThanOrEqualTo(2);
        RunResult<String, Event, OutEvent> sim = new TwsSimulator<>(CHAIN).run(chainSteps());
        RunResult<String, Event, OutEvent> local = LiveRunner.of(CHAIN).run(chainSteps());
        RunResult<String, Event, OutEvent> chain = RunResultJson.read(Files.readString(out.resolve("chain.json")), CHAIN);
        RunComparison.simulatorVsSpark().assertSame(sim.operator(0), chain.operator(0));
        RunComparison.simulatorVsSpark().assertSame(sim.operator(1), chain.operator(1));
        assertThat(chain.batches()).containsExactlyElementsOf(
                RunResultJson.read(RunResultJson.write(local, CHAIN), CHAIN).batches());
        assertThat(chain.operator(0).outputs()).as("the first operator's emitted rows, reported by the executors")
                .isNotEmpty();
        System.out.println("LiveClusterTest: the simulator and local[2] runs and the comparisons took "
                + (System.nanoTime() - compareStart) / 1_000_000 + " ms");
        LiveRunner.deleteRecursively(dir);
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return lines.subList(Math.max(0, lines.size() - 80), lines.size()).stream().collect(Collectors.joining("\n"));
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }
}
