package dev.twstester.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Stream;

import org.apache.spark.sql.SparkSession;

import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

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
 * <p>How steps map to Spark: in EventTime and None mode the trigger interval is 0 and each input
 * step is {@code addData} + {@code processAllAvailable()} with the clock at the step's time, so a
 * data batch and the no-data batch after a watermark advance run at the same processing time, as
 * in the simulator. In ProcessingTime mode the trigger interval is 1 ms and each step moves the
 * clock and waits for the one batch that tick runs; input steps need a later time than the one
 * before ({@link Scenario.Builder#batchAt}). A {@link Scenario.Restart} stops the query once the
 * steps before it are done and starts a new one (with a new processor instance) on the same
 * checkpoint, source, sink and clock: batch ids continue, and no batch runs until the next input.
 *
 * <p>The query's {@link TwsQuery#shufflePartitions()}, {@link TwsQuery#outputEventTimeColumn()}
 * (the {@code eventTimeColumnName} overload of {@code transformWithState}) and initial state are
 * used as given. Each batch's {@link dev.twstester.BatchResult#metrics() metrics} are read from
 * the operator's progress.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public final class LiveRunner<K, I, O> {
    private TwsQuery<K, I, O> query;
    private SparkSession session;
    private Duration stepTimeout = Duration.ofSeconds(120);

    private LiveRunner(TwsQuery<K, I, O> query) {
        this.query = Objects.requireNonNull(query, "query must not be null");
    }

    /** A runner for {@code query} on the shared session ({@link LiveSpark#session()}). */
    public static <K, I, O> LiveRunner<K, I, O> of(TwsQuery<K, I, O> query) {
        return new LiveRunner<>(query);
    }

    /** Runs on {@code session} instead of the shared one; it must use the RocksDB state store provider. */
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

    /** How long one step may take before the run fails (default 120 s). */
    public LiveRunner<K, I, O> stepTimeout(Duration timeout) {
        this.stepTimeout = Objects.requireNonNull(timeout, "timeout must not be null");
        return this;
    }

    /**
     * Runs every step of {@code scenario} on a new streaming query and returns the batches Spark
     * ran. If the query fails, throws {@link LiveRunException} with the batches that completed.
     */
    public RunResult<K, I, O> run(Scenario<I> scenario) {
        Objects.requireNonNull(scenario, "scenario must not be null");
        SparkSession spark = session != null ? session : LiveSpark.session();
        String runId = UUID.randomUUID().toString();
        Path checkpoint = tempDir();
        TimerRecorder.open(runId);
        try (LiveRun<K, I, O> run = new LiveRun<>(query, spark, stepTimeout, checkpoint, runId)) {
            for (Scenario.Step<I> step : scenario.steps()) {
                run.step(step);
            }
            return run.result();
        } finally {
            TimerRecorder.close(runId);
            deleteRecursively(checkpoint);
        }
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("twstester-checkpoint-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a checkpoint directory: " + e, e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover temp directory is harmless
        }
    }

}
