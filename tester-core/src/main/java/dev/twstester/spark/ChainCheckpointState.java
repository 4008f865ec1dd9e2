package dev.twstester.spark;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import org.apache.spark.sql.SparkSession;

import dev.twstester.TwsChain;
import dev.twstester.TwsQuery;
import dev.twstester.sim.ChainSnapshot;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.StateSnapshot;

/**
 * Reads the state of a {@link TwsChain}'s query from its Spark streaming checkpoint as a
 * {@link ChainSnapshot}, so that a {@link dev.twstester.sim.ChainSimulator} can start from the state
 * the chain has in production. Get one with {@link CheckpointState#of(TwsChain)}:
 *
 * <pre>{@code
 * ChainSnapshot production = CheckpointState.of(chain).read(Path.of("/checkpoints/alerts"));
 * ChainSimulator<String, Click, Session, String, PageAlert> sim = new ChainSimulator<>(chain);
 * sim.restore(production);                  // both operators' state and timers, the watermark, the next batch id
 * sim.runBatch(click("ana", "/a", at("10:00")));
 * }</pre>
 *
 * <p>A chained query's checkpoint holds two stateful operators: Spark numbers them from the sink
 * back to the source, so the downstream {@code transformWithState} is operator 0 and the upstream
 * operator 1. Each is read as {@link CheckpointState} reads one operator (with the same checks
 * against the chain's processors), both at the same batch (by default the last committed one);
 * where the query stood comes from the checkpoint's logs, once for both.
 *
 * @param <K>  the upstream's grouping key type
 * @param <K2> the downstream's grouping key type
 */
public final class ChainCheckpointState<K, K2> {
    /** The downstream operator's id in a chained query's checkpoint: the stateful operator nearest the sink. */
    static final int DOWNSTREAM_OPERATOR_ID = 0;
    /** The upstream operator's id there. */
    static final int UPSTREAM_OPERATOR_ID = 1;

    private final TwsQuery<K, ?, ?> upstream;
    private final TwsQuery<K2, ?, ?> downstream;
    private Long batchId;
    private Fidelity fidelity = Fidelity.FULL;
    private SparkSession session;

    ChainCheckpointState(TwsChain<K, ?, ?, K2, ?> chain) {
        this.upstream = chain.upstream();
        this.downstream = chain.downstream();
    }

    /** Reads the state as batch {@code id} committed it, instead of the last committed batch. */
    public ChainCheckpointState<K, K2> batchId(long id) {
        if (id < 0) {
            throw new IllegalArgumentException("batchId " + id + " must not be negative");
        }
        this.batchId = id;
        return this;
    }

    /** The fidelity of the simulator the snapshot is for ({@link Fidelity#FULL} by default). */
    public ChainCheckpointState<K, K2> fidelity(Fidelity fidelity) {
        this.fidelity = Objects.requireNonNull(fidelity, "fidelity must not be null");
        return this;
    }

    /** Reads with {@code session} instead of the shared one ({@link LiveSpark#session()}). */
    public ChainCheckpointState<K, K2> session(SparkSession session) {
        this.session = Objects.requireNonNull(session, "session must not be null");
        return this;
    }

    /**
     * Both operators' state in {@code checkpoint} (the chained query's {@code checkpointLocation}).
     *
     * @throws IllegalArgumentException when the folder is no checkpoint, does not hold exactly two
     *         stateful operators (a single query's checkpoint, say), or the batch is not committed
     * @throws IllegalStateException when an operator's state schema differs from what its processor
     *         declares (the message names the operator, every difference and both schemas)
     */
    public ChainSnapshot read(Path checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint must not be null");
        Path dir = checkpoint.toAbsolutePath().normalize();
        CheckpointState.requireCheckpointFolder(dir);
        List<String> operators = CheckpointState.operators(dir);
        if (!operators.equals(List.of("0", "1"))) {
            throw new IllegalArgumentException("the checkpoint " + dir + (operators.isEmpty()
                    ? " has no state/ folder (no stateful batch was committed)"
                    : " holds the state of stateful operators " + operators) + ", a chain's query has two: "
                    + DOWNSTREAM_OPERATOR_ID + " (the downstream transformWithState) and " + UPSTREAM_OPERATOR_ID
                    + " (the upstream)" + (operators.equals(List.of("0"))
                    ? "; a query with one transformWithState is read with CheckpointState.of(query)" : ""));
        }
        SparkSession spark = session != null ? session : LiveSpark.session();
        long batch = CheckpointLogs.read(spark, dir, batchId).batchId(); // one batch for both operators
        CompletableFuture<StateSnapshot> up = CheckpointState.async(
                () -> operator(upstream, UPSTREAM_OPERATOR_ID, "upstream", spark, dir, batch));
        StateSnapshot down = operator(downstream, DOWNSTREAM_OPERATOR_ID, "downstream", spark, dir, batch);
        return new ChainSnapshot(CheckpointState.join(up), down);
    }

    /** One operator's state, read by {@link CheckpointState}; its errors name the operator's place in the chain. */
    private <Q> StateSnapshot operator(TwsQuery<Q, ?, ?> query, int id, String role, SparkSession spark, Path dir,
            long batch) {
        try {
            return CheckpointState.of(query).operatorId(id).batchId(batch).fidelity(fidelity).session(spark).read(dir);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the chain's " + role + " operator: " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("the chain's " + role + " operator: " + e.getMessage(), e);
        }
    }
}
