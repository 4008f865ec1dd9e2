package dev.twstester.samples.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TwsTester;

import dev.twstester.TwsQuery;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.samples.counts.RunningCount;

import scala.Function1;
import scala.Option;
import scala.Tuple2;

/**
 * Benchmark (5), the measured program: retained heap of a tester holding state for many keys, in
 * a fresh JVM launched by {@link MemoryBench}. Used heap after full GCs ({@link MemoryMXBean})
 * with the tester built and warmed, then again with the state loaded; the difference is what the
 * tester retains for it.
 *
 * <p>Arguments: the state ({@code long}: RunningCount's {@code ValueState<Long>}; {@code bean}:
 * TallyCount's {@code ValueState<Tally>}), the engine ({@code FULL}, {@code FAST} or
 * {@code TWSTESTER}), how the state is loaded ({@code state}: {@code StateView.setValue} /
 * {@code TwsTester.updateValueState} per key, the state alone; {@code batches}: 10
 * {@code runBatch} calls of one row per key, so the simulator's history (inputs, outputs) is
 * retained too) and the number of keys. Prints {@code MEMORY bytes=N}.
 */
public final class MemoryMain {
    private MemoryMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        String state = args[0];
        String engine = args[1];
        String load = args[2];
        int keys = Integer.parseInt(args[3]);
        System.out.println("MEMORY bytes=" + retained(state, engine, load, keys));
    }

    /** Bytes retained by the loaded state (may be measured in-process, e.g. by the smoke test). */
    public static long retained(String state, String engine, String load, int keys) throws InterruptedException {
        boolean bean = switch (state) {
            case "long" -> false;
            case "bean" -> true;
            default -> throw new IllegalArgumentException("state is long or bean, not " + state);
        };
        if (engine.equals("TWSTESTER")) {
            if (!load.equals("state")) {
                throw new IllegalArgumentException("TwsTester is measured with load=state only");
            }
            return bean ? twsTester(new TallyCount(), TallyCount.STATE, keys, MemoryMain::tally)
                    : twsTester(new RunningCount(), "count", keys, MemoryMain::count);
        }
        Fidelity fidelity = Fidelity.valueOf(engine);
        return bean ? simulator(TallyCount.query(), TallyCount.STATE, fidelity, load, keys, MemoryMain::tally)
                : simulator(RunningCount.query(), "count", fidelity, load, keys, MemoryMain::count);
    }

    private static Object count(String key, int i) {
        return 1_000L + i;
    }

    private static Object tally(String key, int i) {
        return new Tally(key, i);
    }

    private static <O> long simulator(TwsQuery<String, String, O> query, String name, Fidelity fidelity, String load,
            int keys, Value value) throws InterruptedException {
        TwsSimulator<String, String, O> sim = new TwsSimulator<>(query, fidelity);
        sim.runBatch(List.of("warm-up"));
        sim.state().setValue(name, "warm-up", value.of("warm-up", 0));
        long before = usedAfterGc();
        if (load.equals("state")) {
            for (int i = 0; i < keys; i++) {
                String key = Workloads.key(i);
                sim.state().setValue(name, key, value.of(key, i));
            }
        } else if (load.equals("batches")) {
            int perBatch = Math.max(1, keys / 10);
            for (int start = 0; start < keys; start += perBatch) {
                List<String> rows = new ArrayList<>(perBatch);
                for (int i = start; i < Math.min(keys, start + perBatch); i++) {
                    rows.add(Workloads.key(i));
                }
                sim.runBatch(rows);
            }
        } else {
            throw new IllegalArgumentException("load is state or batches, not " + load);
        }
        long after = usedAfterGc();
        if (sim.state().value(name, Workloads.key(keys - 1)).isEmpty()) {
            throw new AssertionError("the last key has no state");
        }
        Reference.reachabilityFence(sim);
        return after - before;
    }

    private static <O> long twsTester(StatefulProcessor<String, String, O> processor, String name, int keys, Value value)
            throws InterruptedException {
        TwsTester<String, String, O> tester = new TwsTester<>(processor,
                scala.collection.immutable.List$.MODULE$.<Tuple2<String, Object>>empty(), TimeMode.None(),
                OutputMode.Update(), Option.<Function1<String, Object>>empty());
        tester.updateValueState(name, "warm-up", value.of("warm-up", 0));
        long before = usedAfterGc();
        for (int i = 0; i < keys; i++) {
            String key = Workloads.key(i);
            tester.updateValueState(name, key, value.of(key, i));
        }
        long after = usedAfterGc();
        if (tester.peekValueState(name, Workloads.key(keys - 1)).isEmpty()) {
            throw new AssertionError("the last key has no state");
        }
        Reference.reachabilityFence(tester);
        return after - before;
    }

    /** Used heap after full collections, once it stops shrinking. */
    static long usedAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            Thread.sleep(50);
            long now = memory.getHeapMemoryUsage().getUsed();
            if (now >= used && i >= 2) {
                return Math.min(now, used);
            }
            used = Math.min(used, now);
        }
        return used;
    }

    @FunctionalInterface
    private interface Value {
        Object of(String key, int i);
    }
}
