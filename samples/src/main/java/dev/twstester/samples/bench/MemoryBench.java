package dev.twstester.samples.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Benchmark (5): retained heap for 1,000,000 keys of state, each case in its own JVM
 * ({@link MemoryMain}) with this JVM's flags.
 */
public final class MemoryBench {
    public static final int KEYS = 1_000_000;

    /** The cases: label, then MemoryMain's state, engine and load. */
    static final List<String[]> CASES = List.of(
            new String[] {"ValueState<Long>", "long", "FULL", "state"},
            new String[] {"ValueState<Long>", "long", "FAST", "state"},
            new String[] {"ValueState<Long>", "long", "TWSTESTER", "state"},
            new String[] {"ValueState<Long>", "long", "FULL", "batches"},
            new String[] {"ValueState<Long>", "long", "FAST", "batches"},
            new String[] {"ValueState<Tally> (bean: String, long)", "bean", "FULL", "state"},
            new String[] {"ValueState<Tally> (bean: String, long)", "bean", "FAST", "state"},
            new String[] {"ValueState<Tally> (bean: String, long)", "bean", "TWSTESTER", "state"},
            new String[] {"ValueState<Tally> (bean: String, long)", "bean", "FULL", "batches"},
            new String[] {"ValueState<Tally> (bean: String, long)", "bean", "FAST", "batches"});

    /** One case: what, which engine, how loaded, bytes retained. */
    public record Case(String state, String engine, String load, int keys, long bytes) {
        public double megabytes() {
            return bytes / 1e6;
        }

        public double bytesPerKey() {
            return (double) bytes / keys;
        }
    }

    private MemoryBench() {
    }

    public static List<Case> run(int keys, List<String> flags) {
        List<Case> cases = new ArrayList<>();
        for (String[] c : CASES) {
            ChildJvm.Result r = ChildJvm.run(flags, MemoryMain.class, List.of(c[1], c[2], c[3], String.valueOf(keys)), 600);
            Case done = new Case(c[0], c[2], c[3], keys, r.value("MEMORY", "bytes"));
            System.out.printf("[memory] %s %s %s: %.1f MB%n", done.state(), done.engine(), done.load(), done.megabytes());
            cases.add(done);
        }
        return cases;
    }
}
