package dev.twstester.spark;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

import org.apache.spark.sql.SparkSession;

import dev.twstester.ChainResult;
import dev.twstester.Scenario;
import dev.twstester.TwsChain;

/**
 * Runs a {@link TwsChain} on real Spark 4.2.0, as {@link LiveRunner} runs one query: a memory
 * source, {@code withWatermark}, the upstream's {@code transformWithState} with its
 * {@code eventTimeColumnName}, {@code groupByKey} on its output, the downstream's
 * {@code transformWithState}, a memory sink; RocksDB state store, a fresh checkpoint, a manual
 * trigger clock. Returns each operator's batches in the shape the
 * {@code dev.twstester.sim.ChainSimulator} returns.
 *
 * <pre>{@code
 * ChainResult<String, Click, Session, String, PageAlert> spark = LiveChainRunner.of(chain).run(story);
 * ChainResult<String, Click, Session, String, PageAlert> sim = new ChainSimulator<>(chain).run(story);
 * RunComparison.simulatorVsSpark().assertSame(sim.upstream(), spark.upstream());
 * RunComparison.simulatorVsSpark().assertSame(sim.downstream(), spark.downstream());
 * }</pre>
 *
 * <p>Where each part comes from: the upstream's input, late rows, watermarks and batch times as for
 * one query; its outputs from the processor's own iterators as Spark consumes them (they go to the
 * downstream's shuffle, not to the sink); the downstream's input is those rows, its outputs are the
 * sink's; timers from each processor's callbacks; metrics from each operator's entry of
 * {@code StreamingQueryProgress.stateOperators()}. The processors' reports travel through Spark
 * accumulators, so executors may run in other JVMs ({@link LiveSpark#MASTER_PROPERTY}).
 * If the query fails, {@link LiveRunException#completed()} holds the upstream's completed batches.
 *
 * @param <K>  the upstream's grouping key type
 * @param <I>  the query's input row type
 * @param <M>  the upstream's output rows
 * @param <K2> the downstream's grouping key type
 * @param <O>  the query's output row type
 */
public final class LiveChainRunner<K, I, M, K2, O> {
    private final TwsChain<K, I, M, K2, O> chain;
    private SparkSession session;
    private Duration stepTimeout = Duration.ofSeconds(120);
    /** Set by {@link #keepCheckpointIn}: the run's checkpoint, left in place. */
    private Path keptCheckpoint;

    private LiveChainRunner(TwsChain<K, I, M, K2, O> chain) {
        this.chain = Objects.requireNonNull(chain, "chain must not be null");
    }

    /** A runner for {@code chain} on the shared session ({@link LiveSpark#session()}). */
    public static <K, I, M, K2, O> LiveChainRunner<K, I, M, K2, O> of(TwsChain<K, I, M, K2, O> chain) {
        return new LiveChainRunner<>(chain);
    }

    /** Runs on {@code session} instead of the shared one (see {@link LiveRunner#session}). */
    public LiveChainRunner<K, I, M, K2, O> session(SparkSession session) {
        this.session = Objects.requireNonNull(session, "session must not be null");
        return this;
    }

    /** How long one step may take before the run fails (default 120 s). */
    public LiveChainRunner<K, I, M, K2, O> stepTimeout(Duration timeout) {
        this.stepTimeout = Objects.requireNonNull(timeout, "timeout must not be null");
        return this;
    }

    /**
     * Runs in {@code folder} as the checkpoint and leaves it there afterwards (by default each run
     * gets a temporary checkpoint, deleted after it), e.g. to read it with
     * {@link CheckpointState#of(TwsChain)}. The folder must not exist or be empty; it serves one run.
     */
    public LiveChainRunner<K, I, M, K2, O> keepCheckpointIn(Path folder) {
        this.keptCheckpoint = Objects.requireNonNull(folder, "folder must not be null");
        return this;
    }

    /**
     * Runs every step of {@code scenario} on a new streaming query and returns the batches Spark ran,
     * per operator. If the query fails, throws {@link LiveRunException} with the upstream's completed
     * batches.
     */
    public ChainResult<K, I, M, K2, O> run(Scenario<I> scenario) {
        Objects.requireNonNull(scenario, "scenario must not be null");
        SparkSession spark = LiveSpark.forRun(session != null ? session : LiveSpark.session(), chain.shufflePartitions());
        Path checkpoint = keptCheckpoint != null ? LiveRunner.emptyFolder(keptCheckpoint)
                : LiveRunner.tempDir(LiveSpark.defaultCheckpointRoot());
        LiveDownstream<K2, M, O> downstream = new LiveDownstream<>(chain.downstream(), chain.eventTimeColumn(), spark);
        try (LiveRun<K, I, M> run = new LiveRun<>(chain.upstream(), downstream, spark, stepTimeout, checkpoint)) {
            for (Scenario.Step<I> step : scenario.steps()) {
                run.step(step);
            }
            return new ChainResult<>(run.result(), downstream.result());
        } finally {
            if (keptCheckpoint == null) {
                LiveRunner.deleteRecursively(checkpoint);
                LiveSpark.deleteWhenStopped(checkpoint);
            }
        }
    }
}
