package dev.twstester.samples.mutants;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
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
 * within 100 tries, the overall median, and the share of mutants whose median is at most 100
 * ({@link MutantTable}), for each generation mode asked for.
 *
 * <pre>{@code
 * mvn -B -q -pl samples exec:exec@mutants -Dmutants.args="--seeds 9 --cap 200 --mode uniform"   (after an install)
 * List<MutantBench.Row> rows = MutantBench.measure(Mutants.all(), GenerationMode.UNIFORM, 9, 200);
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
        PropertyResult result = property.checkTries(mutant::check);
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

    /** One generation mode's measurement: each mutant's row, and the time all its tries took. */
    public record ModeRun(GenerationMode mode, List<Row> rows, long nanos) {
        /** The tries run: each seed's up to the finding, or all {@code cap} of them. */
        public long triesRun(int cap) {
            return rows.stream().flatMap(r -> r.tries().stream()).mapToLong(t -> Math.min(t, cap)).sum();
        }
    }

    /** {@link #measure}, timed. */
    public static ModeRun run(List<Mutant<?, ?, ?>> mutants, GenerationMode mode, int seeds, int cap) {
        long start = System.nanoTime();
        List<Row> rows = measure(mutants, mode, seeds, cap);
        return new ModeRun(mode, rows, System.nanoTime() - start);
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
     * (tries per seed, default 200), {@code --mode NAME[,NAME...]} (default uniform; several give a
     * column each), {@code --only PREFIX}
     * (the mutants whose name starts with it), {@code --show true}
     * (print each mutant's failure on base seed 1 first). Checks the correct processors first (30 tries each).
     */
    public static void main(String[] args) {
        int seeds = 9;
        int cap = 200;
        List<GenerationMode> modes = List.of(GenerationMode.UNIFORM);
        String only = "";
        boolean show = false;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seeds" -> seeds = Integer.parseInt(args[i + 1]);
                case "--cap" -> cap = Integer.parseInt(args[i + 1]);
                case "--mode" -> modes = Arrays.stream(args[i + 1].split(",")).map(GenerationMode::named).toList();
                case "--only" -> only = args[i + 1];
                case "--show" -> show = Boolean.parseBoolean(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; use --seeds N, --cap N, --mode NAME[,NAME...], --only PREFIX, --show true");
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
        List<ModeRun> runs = new ArrayList<>();
        for (GenerationMode mode : modes) {
            runs.add(run(mutants, mode, seeds, cap));
        }
        System.out.print(MutantTable.of(runs, cap));
    }
}
