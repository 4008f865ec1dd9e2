package dev.twstester.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.apache.spark.sql.SparkSession;

import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.internal.Triggers;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.SnapshotBuilder;
import dev.twstester.sim.StateSnapshot;

/**
 * Runs a {@link TwsQuery} on real Spark: a streaming {@code transformWithState} query over a
 * memory source, RocksDB state store, a fresh checkpoint per run, and a manual trigger clock, so
 * every step of a {@link Scenario} becomes exactly the micro-batches Spark runs for it. Returns
 * the same {@link RunResult} shape as the simulator, read from Spark itself (offset log, query progress,
 * the sink, and the processor's own timer callbacks).
 *
 * <pre>{@code
 * RunResult<String, CartEvent, CartAlert> spark = LiveRunner.of(CartWatch.query()).run(story);
 * RunResult<String, CartEvent, CartAlert> sim = new TwsSimulator<>(CartWatch.query()).run(story);
 * }</pre>
 *
 * <p>How steps map to Spark: the query runs with its own trigger on a manual clock. With a zero
 * interval outside ProcessingTime mode each step that adds rows ends with
 * {@code processAllAvailable()}, so a data batch and the no-data batch after a watermark advance
 * run at the same processing time; with an interval (a zero interval in ProcessingTime mode runs
 * as 1 ms) a clock move that reaches a trigger time waits for that trigger's batch, and rows added
 * in between wait for it. {@link Scenario.Stop} stops the query once the steps before it are done;
 * {@link Scenario.Start} starts a new one (with a new processor instance) on the same checkpoint,
 * source, sink and clock: batch ids continue, and its first trigger reads the rows added meanwhile.
 * {@link Scenario.Deploy} stops the query and starts the step's new version the same way, as a
 * redeploy in production (see {@link #runThenRestartWith} for what a new version may change).
 * {@code Trigger.AvailableNow()} runs one query per start, until it ends by itself.
 *
 * <p>The query's {@link TwsQuery#shufflePartitions()}, {@link TwsQuery#outputEventTimeColumn()}
 * (the {@code eventTimeColumnName} overload of {@code transformWithState}) and initial state are
 * used as given. Each batch's {@link dev.twstester.BatchResult#metrics() metrics} are read from
 * the operator's progress.
 *
 * <p>Every run has its own copy of the session's settings ({@code spark.sql.shuffle.partitions}
 * among them), clock, source, sink and checkpoint, so independent scenarios can run at the same
 * time in one SparkSession: {@link #runAll(List)} runs {@link #defaultConcurrency()} at a time, and
 * runs started from several threads at once (tests running in parallel, each on the shared
 * {@link LiveSpark#session()}) give what each gives alone; each reads the progress of its own query
 * and the reports of its own tasks only.
 * The shared session's {@link LiveSpark#FAST_SETTINGS} and a memory-backed checkpoint folder make
 * each run quicker without changing its result.
 *
 * <p>A query of a legacy function ({@link TwsQuery#mapGroupsWithState}, {@link TwsQuery#flatMapGroupsWithState})
 * runs as the real {@code groupByKey(...).mapGroupsWithState(...)} / {@code flatMapGroupsWithState(...)},
 * in the operator's output mode; its timed-out keys are the batch's fired timers, each with the
 * timeout the key's previous call left.
 *
 * <p>A query of several stateful operators ({@link TwsQuery#then}) runs as one streaming query, as a
 * job plans {@code ...transformWithState(...).groupByKey(...).transformWithState(...)} (a legacy
 * function may be the last operator). Each batch carries every operator's own view
 * ({@link dev.twstester.BatchResult#operators()}), in the shape the simulator gives it: the rows
 * every operator but the last emits are reported by its tasks as Spark takes them, the last one's
 * outputs are the sink's, and each operator's timers, late rows and metrics are its own (its entry
 * of the query progress's state operators, which Spark lists from the sink back to the source).
 * <pre>{@code
 * RunResult<String, Click, PageAlert> live = LiveRunner.of(sessions.then(alerts)).run(story);
 * RunResult<String, Session, PageAlert> alertsOnly = live.operator(1);
 * }</pre>
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public final class LiveRunner<K, I, O> {
    /** System property: how many scenarios {@link #runAll(List)} runs at once (default {@value #DEFAULT_CONCURRENCY}). */
    public static final String CONCURRENCY_PROPERTY = "twstester.live.concurrency";
    /**
     * Scenarios run at once when {@value #CONCURRENCY_PROPERTY} is not set. A live batch spends
     * much of its time waiting (task scheduling, file writes, the trigger), so on 2 cores two
     * queries at a time get through more scenarios per minute than one.
     */
    public static final int DEFAULT_CONCURRENCY = 2;

    private TwsQuery<K, I, O> query;
    private SparkSession session;
    private Path checkpointRoot;
    private Duration stepTimeout = Duration.ofSeconds(120);
    /** Set by {@link #keepCheckpointIn}: the one run's checkpoint, left in place. */
    private Path keptCheckpoint;

    private LiveRunner(TwsQuery<K, I, O> query) {
        this.query = Objects.requireNonNull(query, "query must not be null");
    }

    /** A runner for {@code query} on the shared session ({@link LiveSpark#session()}). */
    public static <K, I, O> LiveRunner<K, I, O> of(TwsQuery<K, I, O> query) {
        return new LiveRunner<>(query);
    }

    /**
     * Runs on {@code session} instead of the shared one; it must use the RocksDB state store
     * provider. Each run starts its query on a copy of the session made at the start of the run
     * (its settings then, with the query's shuffle partitions), so listeners registered on
     * {@code session.streams()} do not see the runs' queries.
     */
    public LiveRunner<K, I, O> session(SparkSession session) {
        this.session = Objects.requireNonNull(session, "session must not be null");
        return this;
    }

    /**
     * {@code spark.sql.shuffle.partitions} for the run, overriding the query's
     * {@link TwsQuery#shufflePartitions()} (which is the default).
     */
    public LiveRunner<K, I, O> shufflePartitions(int partitions) {
        this.query = query.withShufflePartitions(partitions);
        return this;
    }

    /**
     * The folder each run's checkpoint is created in (and deleted from afterwards). Default:
     * {@code -D}{@value LiveSpark#CHECKPOINT_ROOT_PROPERTY} when set, else {@code /dev/shm} when it is a writable folder (memory-backed, so checkpoint writes cost no
     * disk I/O), else {@code java.io.tmpdir}.
     */
    public LiveRunner<K, I, O> checkpointRoot(Path folder) {
        this.checkpointRoot = Objects.requireNonNull(folder, "folder must not be null");
        return this;
    }

    /**
     * Scenarios {@link #runAll(List)} runs at once: {@code -D}{@value #CONCURRENCY_PROPERTY}, else
     * {@value #DEFAULT_CONCURRENCY}.
     */
    public static int defaultConcurrency() {
        String value = System.getProperty(CONCURRENCY_PROPERTY);
        if (value == null || value.isBlank()) {
            return DEFAULT_CONCURRENCY;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + CONCURRENCY_PROPERTY + "=" + value
                + " must be a whole number of scenarios to run at once, at least 1");
    }

    /** How long one step may take before the run fails (default 120 s). */
    public LiveRunner<K, I, O> stepTimeout(Duration timeout) {
        this.stepTimeout = Objects.requireNonNull(timeout, "timeout must not be null");
        return this;
    }

    /**
     * Runs every step of {@code scenario} on a new streaming query and returns the batches Spark
     * ran. A batch that fails stops the query and the steps after it run on: a later start runs it
     * again (the failures are in {@link RunResult#failures()}). If the query fails otherwise, or is
     * still stopped by a failed batch at the end, throws {@link LiveRunException} with the batches
     * that completed and the failed batch.
     */
    public RunResult<K, I, O> run(Scenario<I> scenario) {
        Objects.requireNonNull(scenario, "scenario must not be null");
        return execute(List.of(query), List.of(scenario), false).run();
    }

    /**
     * As {@link #run}, and then, with the query stopped, reads every operator's state from the
     * run's checkpoint as the last batch committed it ({@link CheckpointState}): every state
     * variable's data and TTL expirations, the registered timers, the next batch id and
     * watermarks. Compare it with the simulator's {@code snapshot()} after the same scenario with
     * {@code RunComparison#stateDifferences}. A run of no batch has an empty end state.
     */
    public LiveOutcome<K, I, O> runWithEndState(Scenario<I> scenario) {
        Objects.requireNonNull(scenario, "scenario must not be null");
        return execute(List.of(query), List.of(scenario), true);
    }

    /**
     * Runs in {@code folder} as the checkpoint and leaves it there afterwards (by default each run
     * gets a temporary checkpoint, deleted after it), e.g. to read it with {@link CheckpointState}
     * later. The folder must not exist or be empty; it serves one run ({@link #run},
     * {@link #runWithEndState} or {@link #runThenRestartWith}).
     */
    public LiveRunner<K, I, O> keepCheckpointIn(Path folder) {
        this.keptCheckpoint = Objects.requireNonNull(folder, "folder must not be null");
        return this;
    }

    /**
     * Each scenario with its version of the query, one after another on one streaming query's
     * checkpoint (a restart with the next version between them), then, when {@code readState}, the
     * last version's end state read from the checkpoint.
     */
    private LiveOutcome<K, I, O> execute(List<TwsQuery<K, I, O>> versions, List<Scenario<I>> scenarios,
            boolean readState) {
        scenarios.forEach(s -> Objects.requireNonNull(s, "scenario must not be null"));
        SparkSession spark = LiveSpark.forRun(session != null ? session : LiveSpark.session(), query.shufflePartitions());
        Path checkpoint = keptCheckpoint != null ? emptyFolder(keptCheckpoint)
                : tempDir(checkpointRoot != null ? checkpointRoot : LiveSpark.defaultCheckpointRoot());
        try {
            RunResult<K, I, O> result;
            TwsQuery<K, I, O> last;
            try (LiveRun<K, I, O> run = new LiveRun<>(versions.get(0), spark, stepTimeout, checkpoint)) {
                LiveRunException failed = null;
                for (int i = 0; i < versions.size(); i++) {
                    if (i > 0) {
                        int version = i;
                        failed = goOnAfterFailedBatch(() -> run.restartWith(versions.get(version)), failed);
                    }
                    for (Scenario.Step<I> step : scenarios.get(i).steps()) {
                        if (run.stoppedByFailedBatch() && step instanceof Scenario.Input<I>
                                && !Triggers.isAvailableNow(query.trigger())) {
                            throw failed; // a batch while the query is down: the run ends with the failure
                        }
                        failed = goOnAfterFailedBatch(() -> run.step(step), failed);
                    }
                }
                if (run.stoppedByFailedBatch()) {
                    throw failed;
                }
                result = run.result();
                last = run.query();
            }
            if (!readState) {
                return new LiveOutcome<>(result, null);
            }
            StateSnapshot end = result.isEmpty() ? SnapshotBuilder.of(last, Fidelity.FULL).build()
                    : CheckpointState.of(last).session(spark).batchId(result.lastBatch().batchId()).read(checkpoint);
            return new LiveOutcome<>(result, end);
        } finally {
            if (keptCheckpoint == null) {
                deleteRecursively(checkpoint);
                // the state store's background maintenance may still write a snapshot there
                LiveSpark.deleteWhenStopped(checkpoint);
            }
        }
    }

    /**
     * Runs {@code action} (a step, or a restart with the next version). A batch that fails stops the
     * query, as in the simulator, and the run goes on: the steps after it run while the query is down
     * (a start, or the next version, runs the batch again). Returns the failure, or {@code failed}
     * when the action did not fail; any other failure propagates.
     */
    private static LiveRunException goOnAfterFailedBatch(Runnable action, LiveRunException failed) {
        try {
            action.run();
            return failed;
        } catch (LiveRunException e) {
            if (e.failedBatch().isEmpty()) {
                throw e;
            }
            return e;
        }
    }

    /** {@code folder}, created if need be; throws unless it is empty (see {@link #keepCheckpointIn}). */
    static Path emptyFolder(Path folder) {
        try {
            Files.createDirectories(folder);
            try (Stream<Path> entries = Files.list(folder)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("keepCheckpointIn(" + folder + "): the folder is not empty; "
                            + "give a new or empty folder (a checkpoint serves one run)");
                }
            }
            return folder;
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the checkpoint folder " + folder + ": " + e, e);
        }
    }

    /**
     * A deploy of a new processor version on the state of the old one: runs {@code before} with
     * this runner's query, stops it, starts {@code next} on the same checkpoint, source, sink and
     * clock (rows added while stopped wait for it), and runs {@code after}. Returns the batches of
     * both runs; batch ids continue. Spark checks the new version against the checkpoint when the
     * new run plans its first batch (the first step of {@code after} that runs one): an
     * incompatible change fails there with {@link LiveRunException}, whose
     * {@link LiveRunException#completed()} are the batches of {@code before}.
     *
     * <pre>{@code
     * RunResult<String, String, String> live = LiveRunner.of(v1).runThenRestartWith(before, v2, after);
     * }</pre>
     * {@code next} must read the source as this query does and have the same plan: as many
     * operators, each with the same key, input and output encoders and output event-time column,
     * and the same watermark and trigger interval; each operator's processor (or function), time
     * mode, output mode and state encoding may change.
     */
    public RunResult<K, I, O> runThenRestartWith(Scenario<I> before, TwsQuery<K, I, O> next, Scenario<I> after) {
        Objects.requireNonNull(next, "next must not be null");
        return runVersions(List.of(query, next), List.of(before, after));
    }

    /** Each scenario with its version of the query, one after another on one checkpoint (see {@link #runThenRestartWith}). */
    RunResult<K, I, O> runVersions(List<TwsQuery<K, I, O>> versions, List<Scenario<I>> scenarios) {
        if (versions.size() != scenarios.size() || versions.isEmpty()) {
            throw new IllegalArgumentException("one scenario per query version");
        }
        return execute(versions, scenarios, false).run();
    }

    /**
     * Runs every scenario, each on its own streaming query, {@link #defaultConcurrency()} at a time,
     * and returns their results in the order given.
     *
     * @throws LiveRunException the first scenario in list order that failed (after every run has ended)
     */
    public List<RunResult<K, I, O>> runAll(List<Scenario<I>> scenarios) {
        return runAll(scenarios, defaultConcurrency());
    }

    /**
     * As {@link #runAll(List)}, {@code concurrency} runs at a time (1: one after the other, in
     * list order, on the calling thread).
     */
    public List<RunResult<K, I, O>> runAll(List<Scenario<I>> scenarios, int concurrency) {
        Objects.requireNonNull(scenarios, "scenarios must not be null");
        if (concurrency < 1) {
            throw new IllegalArgumentException("runAll(..., " + concurrency + "): concurrency must be at least 1");
        }
        List<RunResult<K, I, O>> results = new ArrayList<>(scenarios.size());
        if (concurrency == 1 || scenarios.size() <= 1) {
            for (Scenario<I> s : scenarios) {
                results.add(run(s));
            }
            return results;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(concurrency, scenarios.size()), threads("twstester-live-"));
        try {
            List<Future<RunResult<K, I, O>>> futures = new ArrayList<>(scenarios.size());
            for (Scenario<I> s : scenarios) {
                Objects.requireNonNull(s, "scenarios must not contain null");
                futures.add(pool.submit(() -> run(s)));
            }
            RuntimeException first = null;
            for (Future<RunResult<K, I, O>> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    if (first == null) {
                        first = e.getCause() instanceof RuntimeException re ? re
                                : new IllegalStateException("a live run failed: " + e.getCause(), e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for live runs", e);
                }
            }
            if (first != null) {
                throw first;
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Daemon threads named {@code prefix + n}, so a pool never keeps the JVM alive. */
    private static ThreadFactory threads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    static Path tempDir(Path root) {
        try {
            return Files.createTempDirectory(root, "twstester-checkpoint-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a checkpoint directory in " + root + ": " + e
                    + "; choose another folder with LiveRunner.checkpointRoot(...)", e);
        }
    }

    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover temp directory is harmless
        }
    }

}
