package dev.twstester.property;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import dev.twstester.TwsQuery;

/**
 * The property engine's entry point: generate scenarios, check each, and shrink the first
 * failing one. It knows nothing about Spark or about what failing means; the check decides, and
 * returns a message for a failure or empty for a pass. A check that throws counts as failing.
 *
 * <pre>{@code
 * PropertyResult result = Property.forAll(ScenarioGenerator.create()
 *                 .keys("u1", "u2").variants("add", "checkout")
 *                 .timeMode(TimeMode.EventTime()).watermarkDelay(Duration.ofSeconds(10)))
 *         .tries(50)
 *         .check(gen -> {
 *             RunResult<String, CartEvent, CartAlert> run = new TwsSimulator<>(query).run(gen.toScenario(carts));
 *             return run.outputs().size() > 3 ? Optional.of("too many alerts: " + run.outputs()) : Optional.empty();
 *         });
 * result.assertPassed();   // AssertionError with seed, rerun hint, shrunk step list and message
 * }</pre>
 *
 * <h2>Seeds and tries</h2>
 * Each try generates from its own seed; the seeds come from one base seed ({@link #seed}, or a
 * random one), which is printed to standard output. The number of tries is {@link #tries}, else
 * the system property {@value #TRIES_PROPERTY}, else {@value #DEFAULT_TRIES}. When the system
 * property {@value #SEED_PROPERTY} is set (e.g. {@code mvn test -Dtwstester.seed=-8234...}), only
 * that seed runs, once: that is how a failure report's rerun hint reproduces one try.
 *
 * <h2>Shuffle partitions</h2>
 * With {@link #shufflePartitions(int, int)} every generated scenario also gets a partition count
 * ({@link GenScenario#shufflePartitions()}), chosen from its try seed; the check runs the query
 * with it through {@link GenScenario#applyTo}, and the failure report shows it. Off by default:
 * the scenarios carry no count and the query's own applies.
 *
 * <pre>{@code
 * Property.forAll(generator).shufflePartitions(1, 3)
 *         .check(gen -> check(new TwsSimulator<>(gen.applyTo(query)).run(gen.toScenario(carts))));
 * }</pre>
 *
 * <h2>Coverage and feedback</h2>
 * With {@link #runs} (or {@link #checkTries}) the engine records what each try exercised
 * ({@link CoverageRecorder}), labels it ({@link QueryProperty#classify}), prints the share of tries
 * per label ({@link CoverageTable}, on {@link PropertyResult#coverage()}), checks {@link #cover}
 * minimums, and by default derives new tries from those that reached new coverage, steered by
 * {@link #target} ({@link Generation#FEEDBACK}). A failing derived try is rerun with
 * {@code -Dtwstester.baseSeed=B -Dtwstester.tries=N} (its report says so).
 *
 * <pre>{@code
 * Property.forAll(logins).tries(200).runs(LoginLockout.query(), LockoutProperty::attempt)
 *         .classifyOutput("unlocked", LockoutEvent::isUnlock).target("unlocked").cover("unlocked", 20)
 *         .check(LockoutProperty::locksAlternate)
 *         .assertPassed();
 * }</pre>
 *
 * <p>Immutable; every setter returns a new {@code Property}.
 */
public final class Property {
    /** System property: run only this try seed, once. */
    public static final String SEED_PROPERTY = "twstester.seed";
    /** System property: the number of tries when {@link #tries} is not called. */
    public static final String TRIES_PROPERTY = "twstester.tries";
    /** System property: derive the tries from this base seed (how a feedback-derived try is rerun, with its try count). */
    public static final String BASE_SEED_PROPERTY = "twstester.baseSeed";
    /** Tries when neither {@link #tries} nor {@value #TRIES_PROPERTY} says otherwise. */
    public static final int DEFAULT_TRIES = 25;
    /** Mixed into a try seed for its partition count, so the count leaves the generated steps as they were. */
    private static final long PARTITIONS_SALT = 0x5061_7274_6974_696FL;

    private final ScenarioGenerator generator;
    private final Integer tries;
    private final Long baseSeed;
    private final Shrinker shrinker;
    private final UnaryOperator<String> properties;
    private final PrintStream out;
    private final PartitionRange partitions;
    private final Steering steering;

    /** The shuffle partition counts to choose from, both inclusive. */
    private record PartitionRange(int min, int max) {}

    private Property(ScenarioGenerator generator, Integer tries, Long baseSeed, Shrinker shrinker,
            UnaryOperator<String> properties, PrintStream out, PartitionRange partitions) {
        this(generator, tries, baseSeed, shrinker, properties, out, partitions, Steering.NONE);
    }

    private Property(ScenarioGenerator generator, Integer tries, Long baseSeed, Shrinker shrinker,
            UnaryOperator<String> properties, PrintStream out, PartitionRange partitions, Steering steering) {
        this.generator = generator;
        this.tries = tries;
        this.baseSeed = baseSeed;
        this.shrinker = shrinker;
        this.properties = properties;
        this.out = out;
        this.partitions = partitions;
        this.steering = steering;
    }

    private Property with(Steering newSteering) {
        return new Property(generator, tries, baseSeed, shrinker, properties, out, partitions, newSteering);
    }

    /** A property over the scenarios {@code generator} makes. */
    public static Property forAll(ScenarioGenerator generator) {
        return new Property(Objects.requireNonNull(generator, "generator must not be null"), null, null,
                Shrinker.create(), System::getProperty, System.out, null);
    }

    /** Run {@code n} tries ({@code n >= 1}); overrides {@value #TRIES_PROPERTY}. */
    public Property tries(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("tries(" + n + ") must be at least 1");
        }
        return new Property(generator, n, baseSeed, shrinker, properties, out, partitions, steering);
    }

    /** Derive the tries' seeds from {@code base} instead of a random base seed. */
    public Property seed(long base) {
        return new Property(generator, tries, base, shrinker, properties, out, partitions, steering);
    }

    /** Shrink with {@code s} (default {@link Shrinker#create()}, {@value Shrinker#DEFAULT_MAX_ATTEMPTS} attempts). */
    public Property shrinker(Shrinker s) {
        return new Property(generator, tries, baseSeed, Objects.requireNonNull(s, "shrinker must not be null"), properties,
                out, partitions, steering);
    }

    /**
     * Gives every generated scenario a shuffle partition count from {@code min} to {@code max}
     * (both inclusive, {@code 1 <= min <= max}), chosen from its try seed: the check should run
     * {@link GenScenario#applyTo}{@code (query)}. The shrinker may lower a failing scenario's
     * count, down to 1. Default: no count (the query's own).
     */
    public Property shufflePartitions(int min, int max) {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("shufflePartitions(" + min + ", " + max + "): need 1 <= min <= max");
        }
        return new Property(generator, tries, baseSeed, shrinker, properties, out, new PartitionRange(min, max), steering);
    }

    /** For tests: read settings from {@code lookup} instead of system properties, and print to {@code stream}. */
    Property environment(UnaryOperator<String> lookup, PrintStream stream) {
        return new Property(generator, tries, baseSeed, shrinker, lookup, stream, partitions, steering);
    }

    /**
     * The scenario try seed {@code seed} checks: the generator's, with a shuffle partition count
     * when {@link #shufflePartitions} asked for one.
     */
    public GenScenario scenario(long seed) {
        GenScenario scenario = steering.reweigh(generator.generate(seed), seed);
        if (partitions == null) {
            return scenario;
        }
        int range = partitions.max() - partitions.min() + 1;
        return scenario.withShufflePartitions(partitions.min() + new SplittableRandom(seed ^ PARTITIONS_SALT).nextInt(range));
    }

    /**
     * Runs the tries; stops at the first failure and shrinks it.
     *
     * @param check empty when the scenario passes, else what went wrong
     */
    public PropertyResult check(Function<GenScenario, Optional<String>> check) {
        Objects.requireNonNull(check, "check must not be null");
        return checkTries(Generation.UNIFORM, t -> check.apply(t.scenario()));
    }

    /**
     * Runs the tries like {@link #check}, handing the check each {@link PropertyTry}: its scenario
     * and {@link PropertyTry#simulator}, which records the try's coverage for the table,
     * {@link #cover}, {@link #target} and the feedback-directed generation (the default here).
     */
    public PropertyResult checkTries(Function<PropertyTry, Optional<String>> check) {
        return checkTries(Generation.FEEDBACK, check);
    }

    private PropertyResult checkTries(Generation defaultGeneration, Function<PropertyTry, Optional<String>> check) {
        Objects.requireNonNull(check, "check must not be null");
        String fixed = properties.apply(SEED_PROPERTY);
        List<Long> seeds = new ArrayList<>();
        long base;
        boolean fixedSeed = fixed != null && !fixed.isBlank();
        if (fixedSeed) {
            base = parseLong(SEED_PROPERTY, fixed);
            seeds.add(base);
            out.println("twstester property: running only seed " + base + " (-D" + SEED_PROPERTY + ")");
        } else {
            String fixedBase = properties.apply(BASE_SEED_PROPERTY);
            base = fixedBase != null && !fixedBase.isBlank() ? parseLong(BASE_SEED_PROPERTY, fixedBase)
                    : baseSeed != null ? baseSeed : new SplittableRandom().nextLong();
            int n = tries != null ? tries : triesFromProperty();
            seeds.addAll(trySeeds(base, n));
            out.println("twstester property: base seed " + base + ", " + n + " tries");
        }
        Generation generation = fixedSeed ? Generation.UNIFORM
                : steering.generation() != null ? steering.generation() : defaultGeneration;
        return new TryLoop(this, shrinker, steering, generation, out).run(check, seeds, base, fixedSeed);
    }

    /**
     * A property whose tries the engine runs itself: each try's scenario through a simulator of
     * {@code query} (rows from {@code factory}) that records its coverage; then {@code classify},
     * {@code cover}, {@code target} and the check see the run. Feedback-directed by default.
     *
     * <pre>{@code
     * Property.forAll(logins).tries(200).runs(LoginLockout.query(), LoginLockoutTest::event)
     *         .classifyOutput("unlocked", LockoutEvent::isUnlock)
     *         .target("unlocked")
     *         .check(run -> run.outputs().size() <= 2 * run.batches().size() ? Optional.empty()
     *                 : Optional.of("too many outputs"))
     *         .assertPassed();
     * }</pre>
     */
    public <K, I, O> QueryProperty<K, I, O> runs(TwsQuery<K, I, O> query, EventFactory<? extends I> factory) {
        return new QueryProperty<>(this, Objects.requireNonNull(query, "query must not be null"),
                Objects.requireNonNull(factory, "factory must not be null"), List.of());
    }

    /** Generate the tries so ({@link Generation}); default feedback for {@link #runs}/{@link #checkTries}, uniform for {@link #check}. */
    public Property generation(Generation generation) {
        return with(steering.withGeneration(Objects.requireNonNull(generation, "generation must not be null")));
    }

    /** Feedback-directed generation: {@code generation(Generation.FEEDBACK)}. */
    public Property feedback() {
        return generation(Generation.FEEDBACK);
    }

    /** Uniform random generation, each try from its own seed: {@code generation(Generation.UNIFORM)}. */
    public Property uniform() {
        return generation(Generation.UNIFORM);
    }

    /**
     * Fails the property when fewer than {@code percent} percent of the tries reach {@code label}
     * (a user label or a built-in feature, e.g. {@code "timer fired: EventTime"}).
     */
    public Property cover(String label, double percent) {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("cover(\"" + label + "\", " + percent + "): give a percent from 0 to 100");
        }
        return with(steering.withCover(Objects.requireNonNull(label, "label must not be null"), percent));
    }

    /** Steers the feedback-directed generation towards tries that reach {@code label}. */
    public Property target(String label) {
        return with(steering.withTarget(Objects.requireNonNull(label, "label must not be null")));
    }

    /**
     * Weighs the variants: variant {@code i} of each generated event is drawn with weight
     * {@code perVariant[i]} (one weight per variant, none negative, not all zero). E.g.
     * {@code weights(3, 1)} makes three failures for each success of a login generator.
     */
    public Property weights(double... perVariant) {
        return with(steering.withWeights(perVariant));
    }

    /** Declares a user label, so the table shows it even when no try reaches it. */
    Property declare(String label) {
        return with(steering.withLabel(label));
    }

    /** Fresh scenarios the feedback generation mixes in and mutates with: the generator's settings. */
    ScenarioGenerator generator() {
        return generator;
    }

    /**
     * Runs exactly one try, generated from {@code seed} (a try seed as printed in a failure
     * report), and shrinks it if it fails. Ignores {@link #tries} and the system properties.
     */
    public PropertyResult checkSeed(long seed, Function<GenScenario, Optional<String>> check) {
        Objects.requireNonNull(check, "check must not be null");
        return new TryLoop(this, shrinker, steering, Generation.UNIFORM, out)
                .run(t -> check.apply(t.scenario()), List.of(seed), seed, true);
    }

    /** The try seeds {@link #check} derives from base seed {@code base} for {@code tries} tries. */
    public static List<Long> trySeeds(long base, int tries) {
        SplittableRandom seedSource = new SplittableRandom(base);
        List<Long> seeds = new ArrayList<>();
        for (int i = 0; i < tries; i++) {
            seeds.add(seedSource.nextLong());
        }
        return seeds;
    }

    private int triesFromProperty() {
        String value = properties.apply(TRIES_PROPERTY);
        if (value == null || value.isBlank()) {
            return DEFAULT_TRIES;
        }
        long n = parseLong(TRIES_PROPERTY, value);
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("-D" + TRIES_PROPERTY + "=" + value + " must be a number of tries >= 1");
        }
        return (int) n;
    }

    private static long parseLong(String property, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + property + "=" + value + " is not a whole number", e);
        }
    }
}
