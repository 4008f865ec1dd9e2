package dev.twstester.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;

import dev.twstester.RunComparison;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.io.EncoderRows;
import dev.twstester.junit.internal.ErrorClasses;
import dev.twstester.property.EventFactory;
import dev.twstester.property.GenScenario;
import dev.twstester.property.Property;
import dev.twstester.property.PropertyResult;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.property.Shrinker;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.LiveRunException;
import dev.twstester.spark.LiveOutcome;
import dev.twstester.spark.LiveRunner;

/**
 * Generated scenarios run on the simulator and on live Spark; any difference fails, shrunk to a
 * small scenario that is saved as JSON-lines batch files (one file per micro-batch) for replay.
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> cartWatchAgreesWithSpark() {
 *     return DifferentialProperty.of(CartWatch.query(),
 *                     ScenarioGenerator.create().keys("ana", "bo").variants("add", "checkout")
 *                             .timeMode(TimeMode.EventTime()).watermarkDelay(Duration.ofMinutes(10)),
 *                     (key, ms, variant) -> variant == 0 ? CartEvent.add(key, "item", Instant.ofEpochMilli(ms))
 *                                                        : CartEvent.checkout(key, Instant.ofEpochMilli(ms)))
 *             .dynamicTests();   // 25 tries, or -Dtwstester.tries=N; -Dtwstester.seed=S reruns one,
 *                                // -Dtwstester.baseSeed=B repeats a whole run
 * }
 * }</pre>
 *
 * <p>A try passes when both engines run the same batches with the same watermarks, timestamps,
 * late rows, outputs, fired timers and metrics, and end with the same state: the simulator's
 * {@code snapshot()} and the live checkpoint's state read after the run
 * ({@code LiveRunner.runWithEndState}) hold the same values (with TTL expirations) for every
 * variable and key, the same registered timers, next batch id and watermarks
 * ({@code RunComparison.stateDifferences}; {@code -Dtwstester.live.compareState=false} skips this
 * part); or when both fail with the same error class.
 * Stops and starts from the checkpoint ({@code ScenarioGenerator.restartChance}) and trigger
 * intervals ({@code ScenarioGenerator.triggerIntervals}: each try runs both engines with its
 * scenario's interval, through {@code GenScenario.applyTo}) come from the generator;
 * {@link #shufflePartitions(int, int)} also varies {@code spark.sql.shuffle.partitions} per try.
 *
 * <p>The query may have several stateful operators ({@code sessions.then(alerts)}): each try runs
 * the whole query on both sides, the generator takes its time mode from them
 * ({@link ScenarioGenerator#defaultsFrom}) and its watermark from the first, and each batch is
 * compared as the query reports it ({@code BatchResult#operators()}: the source's rows, the first
 * operator's late rows, timers and metrics, the last operator's outputs), then every operator's
 * end state.
 *
 * <p>Tries are independent, so {@link #concurrency(int)} of them run at once (default
 * {@link LiveRunner#defaultConcurrency()}, {@code -Dtwstester.live.concurrency=N}), each with its
 * own simulator and streaming query in the shared SparkSession; JUnit still reports them in seed order.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public final class DifferentialProperty<K, I, O> {
    /** Where failing scenarios are saved unless {@link #saveFailuresTo} says otherwise. */
    public static final Path DEFAULT_FAILURE_DIR = Path.of("target", "twstester-failures");
    /**
     * System property: the base seed the tries' seeds derive from (default: a random one, printed),
     * so a whole run of tries can be repeated, e.g. to time it or to compare two builds.
     */
    public static final String BASE_SEED_PROPERTY = "twstester.baseSeed";
    /**
     * System property: {@code false} skips the end-state comparison (reading the live checkpoint's
     * state costs a few small Spark jobs per try, 1 to 2 s on a 2-core machine); default {@code true}.
     */
    public static final String COMPARE_STATE_PROPERTY = "twstester.live.compareState";

    private final TwsQuery<K, I, O> query;
    private final ScenarioGenerator generator;
    private final EventFactory<I> events;
    private final Integer tries;
    private final int shrinkAttempts;
    private final Path failureDir;
    private final Function<TwsQuery<K, I, O>, TwsSimulator<K, I, O>> simulators;
    /** {@code {min, max}} shuffle partitions per try, or null for the query's own. */
    private final int[] partitions;
    /** Tries at once, or null for {@link LiveRunner#defaultConcurrency()}. */
    private final Integer concurrency;
    /** The two runs compared: the simulator and live Spark, or two versions of the query. */
    private final Sides<K, I, O> sides;
    /**
     * Worker threads per concurrency, kept for the JVM so that each property does not start threads of
     * its own (a concurrent map): properties of tests running in parallel queue their tries on the same
     * threads, so no more than that many live tries run at once whatever the number of tests.
     */
    private static final Map<Integer, ExecutorService> POOLS = new ConcurrentHashMap<>();

    private DifferentialProperty(TwsQuery<K, I, O> query, ScenarioGenerator generator, EventFactory<I> events,
            Integer tries, int shrinkAttempts, Path failureDir, Function<TwsQuery<K, I, O>, TwsSimulator<K, I, O>> simulators,
            int[] partitions, Integer concurrency, Sides<K, I, O> sides) {
        this.query = query;
        this.generator = generator;
        this.events = events;
        this.tries = tries;
        this.shrinkAttempts = shrinkAttempts;
        this.failureDir = failureDir;
        this.simulators = simulators;
        this.partitions = partitions;
        this.concurrency = concurrency;
        this.sides = sides;
    }

    /**
     * What a try compares: {@code left} against {@code right} (the right query is the left one when
     * null), each on live Spark or on the simulator, with {@code comparison}.
     */
    private record Sides<K, I, O>(boolean leftLive, TwsQuery<K, I, O> right, boolean rightLive,
            RunComparison<Object> comparison) {
        static <K, I, O> Sides<K, I, O> simulatorVsSpark() {
            return new Sides<>(false, null, true, RunComparison.simulatorVsSpark());
        }
    }

    /**
     * A property comparing the simulator with live Spark on scenarios from {@code generator}, which
     * takes the query's time mode and watermark delay where it has none set
     * ({@link ScenarioGenerator#defaultsFrom}).
     */
    public static <K, I, O> DifferentialProperty<K, I, O> of(TwsQuery<K, I, O> query, ScenarioGenerator generator,
            EventFactory<I> events) {
        Objects.requireNonNull(query, "query must not be null");
        return withDefaults(query, generator, events, Sides.simulatorVsSpark());
    }

    /**
     * A migration check: the {@code old} query (e.g. a {@code mapGroupsWithState} function) and its
     * {@code port} (e.g. to {@code transformWithState}) run on the same generated scenarios, on the
     * simulator ({@link #onSpark()} for live Spark), and any difference in their batches, inputs,
     * watermarks or outputs fails the try, shrunk and shown batch by batch, the old run as
     * {@code old}, the port's as {@code new}:
     *
     * <pre>{@code
     * DifferentialProperty.migration(FraudStateMachine.query(), FraudStateProcessor.query(),
     *                 ScenarioGenerator.create().keys("c1", "c2").variants("small", "high"),
     *                 (card, ms, variant) -> new Payment(card, "shop", variant == 0 ? 5_00 : 2_000_00))
     *         .dynamicTests();
     * }</pre>
     *
     * Each batch's outputs are compared as multisets (a port's timers may fire in another order than
     * the old operator's timeouts), and fired timers and metrics are not compared (the two keep their
     * state in different variables). When both fail, they must fail with the same error class.
     */
    public static <K, I, O> DifferentialProperty<K, I, O> migration(TwsQuery<K, I, O> old, TwsQuery<K, I, O> port,
            ScenarioGenerator generator, EventFactory<I> events) {
        Objects.requireNonNull(old, "old must not be null");
        Objects.requireNonNull(port, "port must not be null");
        RunComparison<Object> comparison = RunComparison.between("old", "new").ordered(false)
                .ignoring(RunDifference.Aspect.FIRED_TIMERS, RunDifference.Aspect.METRICS);
        return withDefaults(old, generator, events, new Sides<>(false, port, false, comparison));
    }

    /**
     * Runs both queries of a {@link #migration} on live Spark instead of the simulator (each try then
     * costs two streaming queries). A property made by {@link #of} compares with live Spark already.
     */
    public DifferentialProperty<K, I, O> onSpark() {
        if (sides.right() == null) {
            throw new IllegalStateException("onSpark() is for a migration check; DifferentialProperty.of(..) "
                    + "already compares the simulator with live Spark");
        }
        return new DifferentialProperty<>(query, generator, events, tries, shrinkAttempts, failureDir, simulators,
                partitions, concurrency, new Sides<>(true, sides.right(), true, sides.comparison()));
    }

    /** A property comparing {@code sides} with every option at its default. */
    private static <K, I, O> DifferentialProperty<K, I, O> withDefaults(TwsQuery<K, I, O> query,
            ScenarioGenerator generator, EventFactory<I> events, Sides<K, I, O> sides) {
        return new DifferentialProperty<>(query,
                Objects.requireNonNull(generator, "generator must not be null").defaultsFrom(query),
                Objects.requireNonNull(events, "events must not be null"), null, 60, DEFAULT_FAILURE_DIR, TwsSimulator::new,
                null, null, sides);
    }

    /** Number of tries (default: {@code -Dtwstester.tries}, else 25). */
    public DifferentialProperty<K, I, O> tries(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("tries(" + n + ") must be at least 1");
        }
        return new DifferentialProperty<>(query, generator, events, n, shrinkAttempts, failureDir, simulators, partitions,
                concurrency, sides);
    }

    /** How many candidate scenarios shrinking may run on both engines (default 60; each costs a live run). */
    public DifferentialProperty<K, I, O> shrinkAttempts(int n) {
        return new DifferentialProperty<>(query, generator, events, tries, n, failureDir, simulators, partitions,
                concurrency, sides);
    }

    /** Folder for shrunk failing scenarios (default {@code target/twstester-failures}). */
    public DifferentialProperty<K, I, O> saveFailuresTo(Path dir) {
        return new DifferentialProperty<>(query, generator, events, tries, shrinkAttempts,
                Objects.requireNonNull(dir, "dir must not be null"), simulators, partitions, concurrency, sides);
    }

    /**
     * Runs each try's query on both engines with {@code spark.sql.shuffle.partitions} between
     * {@code min} and {@code max} (both inclusive), chosen from the try's seed
     * ({@code Property.shufflePartitions}); the failure report and the saved {@code scenario.txt}
     * give the count. Default: the query's own count.
     */
    public DifferentialProperty<K, I, O> shufflePartitions(int min, int max) {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("shufflePartitions(" + min + ", " + max + "): need 1 <= min <= max");
        }
        return new DifferentialProperty<>(query, generator, events, tries, shrinkAttempts, failureDir, simulators,
                new int[] {min, max}, concurrency, sides);
    }

    /**
     * How many tries run at once, each with its own simulator and streaming query (default
     * {@link LiveRunner#defaultConcurrency()}); with 1 each try runs when JUnit runs its dynamic test.
     */
    public DifferentialProperty<K, I, O> concurrency(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("concurrency(" + n + ") must be at least 1");
        }
        return new DifferentialProperty<>(query, generator, events, tries, shrinkAttempts, failureDir, simulators,
                partitions, n, sides);
    }

    /** For tests of this class: build simulators some other way (e.g. with a fault switched on). */
    DifferentialProperty<K, I, O> simulators(Function<TwsQuery<K, I, O>, TwsSimulator<K, I, O>> factory) {
        return new DifferentialProperty<>(query, generator, events, tries, shrinkAttempts, failureDir, factory, partitions,
                concurrency, sides);
    }

    /** One dynamic test per try; a failing one shrinks, saves the scenario and fails with the report. */
    public Stream<DynamicTest> dynamicTests() {
        String fixed = System.getProperty(Property.SEED_PROPERTY);
        List<Long> seeds;
        if (fixed != null && !fixed.isBlank()) {
            seeds = List.of(Long.parseLong(fixed.trim()));
        } else {
            String fixedBase = System.getProperty(BASE_SEED_PROPERTY);
            long base = fixedBase != null && !fixedBase.isBlank() ? parseSeed(fixedBase)
                    : new SplittableRandom().nextLong();
            int n = tries != null ? tries : Integer.getInteger(Property.TRIES_PROPERTY, Property.DEFAULT_TRIES);
            System.out.println("twstester property: base seed " + base + ", " + n + " tries");
            seeds = Property.trySeeds(base, n);
        }
        int n = concurrency != null ? concurrency : LiveRunner.defaultConcurrency();
        if (n == 1 || seeds.size() == 1) {
            return seeds.stream().map(seed -> DynamicTest.dynamicTest("seed " + seed, () -> assertAgreement(seed)));
        }
        // every try is queued now and runs n at a time; each dynamic test waits for its own
        ExecutorService pool = POOLS.computeIfAbsent(n, DifferentialProperty::pool);
        List<CompletableFuture<PropertyResult>> results = seeds.stream()
                .map(seed -> CompletableFuture.supplyAsync(() -> checkSeed(seed), pool)).toList();
        return IntStream.range(0, seeds.size()).mapToObj(i -> DynamicTest.dynamicTest("seed " + seeds.get(i),
                () -> assertPassed(join(results.get(i)))));
    }

    private static ExecutorService pool(int n) {
        AtomicInteger count = new AtomicInteger();
        return Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "twstester-property-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    private static PropertyResult join(CompletableFuture<PropertyResult> result) {
        try {
            return result.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    private static long parseSeed(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + BASE_SEED_PROPERTY + "=" + value + " is not a whole number", e);
        }
    }

    /** Runs one try from {@code seed}; on a difference shrinks it, saves it and throws {@link AssertionError}. */
    public void assertAgreement(long seed) {
        assertPassed(checkSeed(seed));
    }

    private void assertPassed(PropertyResult result) {
        result.failure().ifPresent(f -> {
            Path saved = save(f.seed(), f.shrunk());
            throw new AssertionError(result.report() + "\nshrunk scenario saved as batch files in " + saved);
        });
    }

    /** Runs one try from {@code seed} and shrinks a difference, without throwing. */
    public PropertyResult checkSeed(long seed) {
        return property().checkSeed(seed, this::difference);
    }

    private Property property() {
        Property property = Property.forAll(generator).shrinker(Shrinker.create().maxAttempts(shrinkAttempts));
        return partitions == null ? property : property.shufflePartitions(partitions[0], partitions[1]);
    }

    /**
     * Empty when both engines agree on {@code generated}, else the first difference. Both run the
     * query with the scenario's shuffle partitions and trigger interval, if it has them
     * ({@link GenScenario#applyTo}).
     */
    public Optional<String> difference(GenScenario generated) {
        Scenario<I> scenario = generated.toScenario(events);
        Outcome<K, I, O> left = run(generated.applyTo(query), sides.leftLive(), scenario);
        Outcome<K, I, O> right = run(generated.applyTo(sides.right() == null ? query : sides.right()),
                sides.rightLive(), scenario);
        if (left.error() != null || right.error() != null) {
            return errors(left.error(), right.error());
        }
        Optional<String> batches = sides.comparison().firstDifference(left.run(), right.run())
                .map(RunDifference::message);
        if (batches.isPresent() || left.endState() == null || right.endState() == null) {
            return batches;
        }
        return sides.comparison().stateDifferences(left.endState(), right.endState()).stream().findFirst()
                .map(RunDifference::message);
    }

    /**
     * Whether both sides' end states are compared: for the simulator against live Spark, unless
     * {@value #COMPARE_STATE_PROPERTY} is false; never for a migration (the versions keep different state).
     */
    private boolean compareState() {
        return sides.right() == null
                && !"false".equalsIgnoreCase(System.getProperty(COMPARE_STATE_PROPERTY, "true").trim());
    }

    /**
     * One side's run and end state (null when not compared), or the error it failed with (the
     * simulator's history up to the error then).
     */
    private record Outcome<K, I, O>(RunResult<K, I, O> run, StateSnapshot endState, RuntimeException error) {}

    private Outcome<K, I, O> run(TwsQuery<K, I, O> partitioned, boolean live, Scenario<I> scenario) {
        boolean withState = compareState();
        if (live) {
            try {
                LiveRunner<K, I, O> runner = LiveRunner.of(partitioned);
                if (withState) {
                    LiveOutcome<K, I, O> outcome = runner.runWithEndState(scenario);
                    return new Outcome<>(outcome.run(), outcome.endState(), null);
                }
                return new Outcome<>(runner.run(scenario), null, null);
            } catch (LiveRunException e) {
                return new Outcome<>(null, null, e);
            }
        }
        TwsSimulator<K, I, O> simulator = simulators.apply(partitioned);
        try {
            RunResult<K, I, O> run = simulator.run(scenario);
            return new Outcome<>(run, withState ? simulator.snapshot() : null, null);
        } catch (RuntimeException e) {
            return new Outcome<>(simulator.history(), null, e);
        }
    }

    private Optional<String> errors(RuntimeException left, RuntimeException right) {
        String leftCondition = ErrorClasses.of(left);
        String rightCondition = ErrorClasses.of(right);
        if (left != null && right != null && Objects.equals(leftCondition, rightCondition)) {
            return Optional.empty();
        }
        boolean migration = sides.right() != null;
        return Optional.of((migration ? "the versions failed differently\n  old: " : "the engines failed differently\n  simulator: ")
                + describe(left, leftCondition)
                + (migration ? "\n  new: " : "\n  spark:     ") + describe(right, rightCondition));
    }

    private static String describe(Throwable t, String condition) {
        return t == null ? "no error" : "[" + condition + "] " + t.getMessage();
    }

    private Path save(long seed, GenScenario shrunk) {
        Path dir = failureDir.resolve(query.userClass().getSimpleName() + "-seed" + seed);
        EncoderRows<I> codec = EncoderRows.of(query.inputEncoder());
        try {
            shrunk.writeBatchFiles(dir, row -> codec.toJson(row).toString(), events);
        } catch (IOException e) {
            throw new UncheckedIOException("could not save the failing scenario in " + dir, e);
        }
        return dir;
    }
}
