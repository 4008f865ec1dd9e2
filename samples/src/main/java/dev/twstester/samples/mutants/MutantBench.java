package dev.twstester.samples.mutants;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import dev.twstester.property.GenScenario;
import dev.twstester.property.Property;
import dev.twstester.property.PropertyResult;
import dev.twstester.property.Shrinker;

/**
 * The seeded-mutant benchmark: for each {@link Mutants mutant}, over several base seeds, the tries
 * its property needs to fail (the failing try's number, not found past the cap), with a
 * {@link GenerationMode}; then a table of the median tries per mutant and how many seeds found it
 * within 100 tries, the overall median, and the share of mutants whose median is at most 100.
 *
 * <pre>{@code
 * mvn -B -q -pl samples -am compile exec:java -Dexec.mainClass=dev.twstester.samples.mutants.MutantBench \
 *     -Dexec.args="--seeds 9 --cap 200 --mode uniform"
 * }</pre>
 */
public final class MutantBench {
    /** A try count past any cap: the mutant was not found. */
    public static final int NOT_FOUND = Integer.MAX_VALUE;
    /** The tries within which a mutant counts as found in the table's share. */
    public static final int WITHIN = 100;

    private MutantBench() {}

    /** One mutant's tries to find it, per base seed ({@link #NOT_FOUND} where the cap passed). */
    public record Row(Mutant<?, ?, ?> mutant, List<Integer> tries) {
        /** The median of the tries (the upper one of an even count). */
        public int median() {
            List<Integer> sorted = tries.stream().sorted().toList();
            return sorted.get(sorted.size() / 2);
        }

        /** How many seeds found the mutant within {@code limit} tries. */
        public long foundWithin(int limit) {
            return tries.stream().filter(t -> t <= limit).count();
        }
    }

    /**
     * The number of the first try (from 1) of base seed {@code baseSeed} on which the mutant's
     * property fails, or {@link #NOT_FOUND} when none of {@code cap} tries does. No shrinking.
     *
     * @throws IllegalStateException when the property fails on the correct query too for that
     *                               scenario: a false alarm, not a finding
     */
    public static int triesToFind(Mutant<?, ?, ?> mutant, GenerationMode mode, long baseSeed, int cap) {
        Property property = quietly(() -> mode.setup().apply(mutant.property().property()))
                .seed(baseSeed).tries(cap).shrinker(Shrinker.create().maxAttempts(0));
        PropertyResult result = property.check(mutant::check);
        result.failure().ifPresent(f -> {
            Optional<String> correctFails = correctCheck(mutant.property(), f.original());
            if (correctFails.isPresent()) {
                throw new IllegalStateException(mutant.name() + "'s property fails on the correct query too (try "
                        + (f.tryIndex() + 1) + ", base seed " + baseSeed + "): " + correctFails.get());
            }
        });
        return result.failure().map(f -> f.tryIndex() + 1).orElse(NOT_FOUND);
    }

    private static <K, I, O> Optional<String> correctCheck(UserProperty<K, I, O> p, GenScenario scenario) {
        return p.check(p.correct(), scenario);
    }

    /** The failure the mutant's property reports on base seed {@code baseSeed}, unshrunk, or empty. */
    public static Optional<String> firstFailure(Mutant<?, ?, ?> mutant, long baseSeed, int cap) {
        Property property = quietly(mutant.property()::property).seed(baseSeed).tries(cap)
                .shrinker(Shrinker.create().maxAttempts(0));
        return property.check(mutant::check).failure().map(f -> "try " + (f.tryIndex() + 1) + ": " + f.message());
    }

    /** Each mutant's tries to find it, for base seeds 1 to {@code seeds}. */
    public static List<Row> measure(List<Mutant<?, ?, ?>> mutants, GenerationMode mode, int seeds, int cap) {
        List<Row> rows = new ArrayList<>();
        for (Mutant<?, ?, ?> m : mutants) {
            List<Integer> tries = new ArrayList<>();
            for (long seed = 1; seed <= seeds; seed++) {
                tries.add(triesToFind(m, mode, seed, cap));
            }
            rows.add(new Row(m, List.copyOf(tries)));
        }
        return rows;
    }

    /**
     * The failures of the correct processors: each property run {@code tries} times from base seed
     * {@code baseSeed} on its correct query, shrunk; empty when all pass.
     */
    public static List<String> correctFailures(List<UserProperty<?, ?, ?>> properties, long baseSeed, int tries) {
        List<String> failures = new ArrayList<>();
        for (UserProperty<?, ?, ?> p : properties) {
            failing(p, baseSeed, tries).ifPresent(report -> failures.add(p.name() + ": " + report));
        }
        return failures;
    }

    private static <K, I, O> Optional<String> failing(UserProperty<K, I, O> p, long baseSeed, int tries) {
        PropertyResult result = quietly(p::property).seed(baseSeed).tries(tries)
                .check(scenario -> p.check(p.correct(), scenario));
        return result.passed() ? Optional.empty() : Optional.of(result.report());
    }

    /**
     * The table: mutant, bug, property, median tries, found within {@value #WITHIN} (of seeds), the
     * tries of each seed; then the summary.
     */
    public static String table(List<Row> rows, GenerationMode mode, int cap) {
        StringBuilder b = new StringBuilder();
        b.append("| mutant | bug | property | median tries (").append(mode.name()).append(") | found within ")
                .append(WITHIN).append(" | tries per base seed |\n|---|---|---|---:|---:|---|\n");
        for (Row r : rows) {
            b.append("| ").append(r.mutant().name()).append(" | ").append(r.mutant().bug()).append(" | ")
                    .append(r.mutant().property().name()).append(" | ").append(shown(r.median(), cap)).append(" | ")
                    .append(r.foundWithin(WITHIN)).append('/').append(r.tries().size()).append(" | ")
                    .append(String.join(" ", r.tries().stream().map(t -> shown(t, cap)).toList())).append(" |\n");
        }
        List<Integer> medians = rows.stream().map(Row::median).sorted().toList();
        long withinCount = medians.stream().filter(m -> m <= WITHIN).count();
        b.append('\n').append(rows.size()).append(" mutants, ").append(mode.name()).append(" generation, cap ")
                .append(cap).append(" tries: median of the medians ").append(shown(medians.get(medians.size() / 2), cap))
                .append("; median at most ").append(WITHIN).append(" tries for ").append(withinCount).append(" of ")
                .append(rows.size()).append(" mutants (").append(Math.round(100.0 * withinCount / rows.size()))
                .append("%)\n");
        return b.toString();
    }

    private static String shown(int tries, int cap) {
        return tries == NOT_FOUND ? ">" + cap : Integer.toString(tries);
    }

    /** Builds a property while standard output is silenced: it prints its base seed there, once per run. */
    private static Property quietly(Supplier<Property> build) {
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try {
            return build.get();
        } finally {
            System.setOut(out);
        }
    }

    /**
     * Prints the table. Arguments: {@code --seeds N} (base seeds 1 to N, default 9), {@code --cap N}
     * (tries per seed, default 200), {@code --mode NAME} (default uniform), {@code --only PREFIX}
     * (the mutants whose name starts with it), {@code --show true}
     * (print each mutant's failure on base seed 1 first). Checks the correct processors first (30 tries each).
     */
    public static void main(String[] args) {
        int seeds = 9;
        int cap = 200;
        GenerationMode mode = GenerationMode.UNIFORM;
        String only = "";
        boolean show = false;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seeds" -> seeds = Integer.parseInt(args[i + 1]);
                case "--cap" -> cap = Integer.parseInt(args[i + 1]);
                case "--mode" -> mode = GenerationMode.named(args[i + 1]);
                case "--only" -> only = args[i + 1];
                case "--show" -> show = Boolean.parseBoolean(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; use --seeds N, --cap N, --mode NAME, --only PREFIX, --show true");
            }
        }
        List<String> failures = correctFailures(Mutants.properties(), 1L, 30);
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a correct processor fails its property:\n" + String.join("\n", failures));
        }
        String prefix = only;
        List<Mutant<?, ?, ?>> mutants = Mutants.all().stream().filter(m -> m.name().startsWith(prefix)).toList();
        if (show) {
            for (Mutant<?, ?, ?> m : mutants) {
                System.out.println(m.name() + ", seed 1: " + firstFailure(m, 1L, cap).orElse("not found"));
            }
        }
        long start = System.nanoTime();
        List<Row> rows = measure(mutants, mode, seeds, cap);
        System.out.print(table(rows, mode, cap));
        System.out.printf("(%d base seeds, %.1f s)%n", seeds, (System.nanoTime() - start) / 1e9);
    }
}
