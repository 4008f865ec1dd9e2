package dev.twstester.samples.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.twstester.TwsQuery;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.TwsSimulator;

/**
 * What bounds benchmark (6) and (6b), measured without the wall clock: a fresh JVM that runs the
 * cold suite on the simulator and splits each test into its phases, building the query (Spark's
 * encoders and twstester's builder), building the simulator, and running the batches, and reports
 * per phase the main thread's CPU time, its allocated bytes and the classes loaded. CPU time is far
 * less disturbed than the wall clock by other work on the machine; allocations and classes do not
 * depend on it at all. The suite runs {@code repeat} times in the JVM: the first round is the cold
 * one a test suite has, the later ones show what is left when every class is loaded.
 * <pre>
 * java [flags] -cp samples/target/classes:CLASSPATH dev.twstester.samples.bench.ColdSuitePhases [FULL|FAST] [coldsuite|coldsuite2] [repeat]
 * COLDPHASES round=0 query=430ms/34502KB/1017classes simulator=68ms/3389KB/205classes batches=158ms/6708KB/134classes
 * COLDFAMILIES round=0 cart=71/108 fraud=13/49 counts=1/8 ttl=6/28   (simulator + batches ms: the family's first test / all)
 * </pre>
 */
public final class ColdSuitePhases {
    private static final com.sun.management.ThreadMXBean THREAD =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static final java.lang.management.ClassLoadingMXBean CLASSES = ManagementFactory.getClassLoadingMXBean();

    /** CPU nanoseconds and allocated bytes of the main thread, and classes loaded, per phase: query, simulator, batches. */
    private final long[] cpu = new long[3];
    private final long[] allocated = new long[3];
    private final long[] classes = new long[3];
    private long cpuMark;
    private long allocatedMark;
    private long classesMark;

    private ColdSuitePhases() {
    }

    public static void main(String[] args) {
        Fidelity fidelity = args.length > 0 ? Fidelity.valueOf(args[0]) : Fidelity.FULL;
        ColdSuiteScenarios.Sizes sizes = args.length > 1 && args[1].equals("coldsuite")
                ? ColdSuiteScenarios.DEFAULT : ColdSuiteScenarios.SHORT;
        run(fidelity, sizes, args.length > 2 ? Integer.parseInt(args[2]) : 1).forEach(System.out::println);
    }

    /** The suite of {@code sizes} run {@code repeat} times on the simulator at {@code fidelity}: two lines per round. */
    static List<String> run(Fidelity fidelity, ColdSuiteScenarios.Sizes sizes, int repeat) {
        List<ColdSuiteScenarios.Scenario<?, ?, ?>> suite = ColdSuiteScenarios.suite(sizes);
        List<String> lines = new ArrayList<>();
        for (int round = 0; round < repeat; round++) {
            new ColdSuitePhases().round(round, suite, fidelity, lines);
        }
        return lines;
    }

    private void round(int round, List<ColdSuiteScenarios.Scenario<?, ?, ?>> suite, Fidelity fidelity, List<String> lines) {
        Map<String, long[]> families = new LinkedHashMap<>();
        for (ColdSuiteScenarios.Scenario<?, ?, ?> s : suite) {
            long before = cpu[1] + cpu[2];
            run(s, fidelity);
            long spent = (cpu[1] + cpu[2] - before) / 1_000_000;
            long[] family = families.computeIfAbsent(s.family().name, k -> new long[] {-1, 0});
            family[0] = family[0] < 0 ? spent : family[0];
            family[1] += spent;
        }
        StringBuilder phases = new StringBuilder("COLDPHASES round=" + round);
        String[] names = {"query", "simulator", "batches"};
        for (int p = 0; p < names.length; p++) {
            phases.append(String.format(" %s=%dms/%dKB/%dclasses", names[p], cpu[p] / 1_000_000, allocated[p] / 1024,
                    classes[p]));
        }
        lines.add(phases.toString());
        StringBuilder line = new StringBuilder("COLDFAMILIES round=" + round);
        families.forEach((name, ms) -> line.append(' ').append(name).append('=').append(ms[0]).append('/').append(ms[1]));
        lines.add(line.toString());
    }

    /** One test as {@link ColdSuiteScenarios#runSimulator} runs it, its phases timed. */
    private <K, I, O> void run(ColdSuiteScenarios.Scenario<K, I, O> s, Fidelity fidelity) {
        start();
        TwsQuery<K, I, O> query = s.query();
        stop(0);
        start();
        TwsSimulator<K, I, O> sim = new TwsSimulator<>(query, fidelity);
        stop(1);
        start();
        ColdSuiteScenarios.drive(s, sim);
        stop(2);
    }

    private void start() {
        cpuMark = THREAD.getCurrentThreadCpuTime();
        allocatedMark = THREAD.getCurrentThreadAllocatedBytes();
        classesMark = CLASSES.getTotalLoadedClassCount();
    }

    private void stop(int phase) {
        cpu[phase] += THREAD.getCurrentThreadCpuTime() - cpuMark;
        allocated[phase] += THREAD.getCurrentThreadAllocatedBytes() - allocatedMark;
        classes[phase] += CLASSES.getTotalLoadedClassCount() - classesMark;
    }
}
