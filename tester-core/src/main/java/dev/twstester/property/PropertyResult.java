package dev.twstester.property;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of {@link Property#check}: passed after all tries, or the first failure with its
 * shrunk scenario. {@link #report()} is the readable text; {@link #assertPassed()} throws it.
 *
 * <pre>{@code
 * PropertyResult result = Property.forAll(generator).check(check);
 * result.failure().ifPresent(f -> f.shrunk().writeBatchFiles(dir, toJson, factory));
 * result.assertPassed();
 * }</pre>
 */
public final class PropertyResult {
    private final long baseSeed;
    private final boolean fixedSeed;
    private final List<Long> seeds;
    private final Failure failure;
    private final CoverageTable coverage;
    private final boolean derivedFailure;
    private final String coverProblem;

    PropertyResult(long baseSeed, boolean fixedSeed, List<Long> seeds, Failure failure) {
        this(baseSeed, fixedSeed, seeds, failure, new CoverageTable(seeds.size(), "uniform", List.of()), false, null);
    }

    PropertyResult(long baseSeed, boolean fixedSeed, List<Long> seeds, Failure failure, CoverageTable coverage,
            boolean derivedFailure, String coverProblem) {
        this.baseSeed = baseSeed;
        this.fixedSeed = fixedSeed;
        this.seeds = List.copyOf(seeds);
        this.failure = failure;
        this.coverage = Objects.requireNonNull(coverage, "coverage must not be null");
        this.derivedFailure = derivedFailure;
        this.coverProblem = coverProblem;
    }

    /**
     * The first failing try, shrunk.
     *
     * @param seed           the try's seed: {@code -Dtwstester.seed=<seed>} reruns just this try
     * @param tryIndex       the try's index, from 0
     * @param original       the generated scenario that failed
     * @param originalMessage the check's message for {@code original}
     * @param shrunk         the smallest failing scenario the shrinker found
     * @param message        the check's message for {@code shrunk}
     * @param shrinking      what the shrinker did (attempts, reductions kept)
     */
    public record Failure(long seed, int tryIndex, GenScenario original, String originalMessage, GenScenario shrunk,
            String message, ShrinkResult shrinking) {
        public Failure {
            Objects.requireNonNull(original, "original must not be null");
            Objects.requireNonNull(shrunk, "shrunk must not be null");
            Objects.requireNonNull(shrinking, "shrinking must not be null");
        }

        /** Predicate calls the shrinker used. */
        public int shrinkAttempts() {
            return shrinking.attempts();
        }
    }

    /** True when no try failed and every {@code cover} minimum was met. */
    public boolean passed() {
        return failure == null && coverProblem == null;
    }

    /** Whether the failing try was derived from the feedback corpus (rerun by base seed and try count). */
    boolean derivedFailure() {
        return derivedFailure;
    }

    /** The share of tries that reached each label and feature (empty when nothing was recorded). */
    public CoverageTable coverage() {
        return coverage;
    }

    /** The {@code cover} minimum the tries missed, saying how many reached the label; empty when all were met. */
    public Optional<String> coverProblem() {
        return Optional.ofNullable(coverProblem);
    }

    /** Tries run, the failing one included. */
    public int triesRun() {
        return seeds.size();
    }

    /** The seeds of the tries run, in order. */
    public List<Long> seeds() {
        return seeds;
    }

    /** The base seed the try seeds came from (the only seed when {@code -Dtwstester.seed} was set). */
    public long baseSeed() {
        return baseSeed;
    }

    public Optional<Failure> failure() {
        return Optional.ofNullable(failure);
    }

    /** A readable report: for a failure the seed, the rerun hint, the shrunk step list, the message, the original. */
    public String report() {
        String seedInfo = fixedSeed ? "seed " + baseSeed + " from -D" + Property.SEED_PROPERTY : "base seed " + baseSeed;
        String table = coverage.isEmpty() ? "" : "\n\n" + coverage.format();
        if (failure == null) {
            String head = coverProblem != null ? "Property failed its coverage: " + coverProblem
                    : "Property passed: " + seeds.size() + (seeds.size() == 1 ? " try" : " tries") + " (" + seedInfo + ")";
            return head + table;
        }
        ShrinkResult s = failure.shrinking();
        StringBuilder b = new StringBuilder();
        b.append("Property failed on try ").append(failure.tryIndex() + 1).append(" (seed ").append(failure.seed())
                .append("; ").append(seedInfo).append(")\n");
        if (derivedFailure) {
            b.append("Rerun this case: -D").append(Property.BASE_SEED_PROPERTY).append('=').append(baseSeed).append(" -D")
                    .append(Property.TRIES_PROPERTY).append('=').append(failure.tryIndex() + 1)
                    .append(" (feedback derived it from the tries before it; or replay the step list below)\n");
        } else {
            b.append("Rerun only this case: -D").append(Property.SEED_PROPERTY).append('=').append(failure.seed()).append('\n');
        }
        b.append("Failure: ").append(failure.message()).append("\n\n");
        b.append("Shrunk from ").append(failure.original().eventCount()).append(" events in ")
                .append(failure.original().steps().size()).append(" steps to ").append(failure.shrunk().eventCount())
                .append(" events in ").append(failure.shrunk().steps().size()).append(" steps (")
                .append(s.attempts()).append(" attempts").append(s.budgetExhausted() ? ", budget exhausted" : "")
                .append("):\n");
        b.append(failure.shrunk().describe()).append("\n\n");
        b.append("Shrink steps:");
        if (s.steps().isEmpty()) {
            b.append(" none");
        }
        s.steps().forEach(step -> b.append("\n  - ").append(step));
        b.append("\n\nOriginal scenario (failure: ").append(failure.originalMessage()).append("):\n");
        b.append(failure.original().describe());
        return b.append(table).toString();
    }

    /** Returns this result if it passed; otherwise throws {@link AssertionError} with {@link #report()}. */
    public PropertyResult assertPassed() {
        if (!passed()) {
            throw new AssertionError(report());
        }
        return this;
    }

    @Override
    public String toString() {
        return report();
    }
}
