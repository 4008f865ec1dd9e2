package dev.twstester.sim;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * Everything the checkpoint of a {@link dev.twstester.TwsChain}'s query holds: each operator's
 * state and timers, and where the query stood. {@link ChainSimulator#snapshot()} takes one,
 * {@link ChainSimulator#restore} starts a chain from one as Spark restarts the query from its
 * checkpoint, and {@code dev.twstester.spark.CheckpointState.of(chain)} reads one from a real
 * chained query's checkpoint.
 *
 * <pre>{@code
 * ChainSnapshot checkpoint = sim.snapshot();
 * checkpoint.save(Path.of("target/alerts.snapshot"));
 * ChainSimulator<String, Click, Session, String, PageAlert> later = new ChainSimulator<>(chain);
 * later.restore(ChainSnapshot.load(Path.of("target/alerts.snapshot")));
 * }</pre>
 *
 * <p>A query has one clock, one watermark and one batch id, which both operators share: the two
 * snapshots must stand at the same place (next batch id, processing time, both watermarks), or
 * the constructor throws. {@link #nextBatchId()}, {@link #watermark()} and
 * {@link #processingTime()} are that one position.
 *
 * <p>Immutable. Saving uses Java serialization, as {@link StateSnapshot#save} does.
 *
 * @param upstream   the first operator's state and timers (keys of the upstream's key type)
 * @param downstream the second operator's (keys of the downstream's key type)
 */
public record ChainSnapshot(StateSnapshot upstream, StateSnapshot downstream) implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The chain's snapshot from its two operators' snapshots, which must be at the same position.
     *
     * @throws IllegalArgumentException when they are not (they come from different points of a run,
     *         or from different queries)
     */
    public ChainSnapshot {
        Objects.requireNonNull(upstream, "upstream must not be null");
        Objects.requireNonNull(downstream, "downstream must not be null");
        if (!upstream.position().equals(downstream.position())) {
            throw new IllegalArgumentException("the upstream snapshot is at " + upstream.position()
                    + ", the downstream snapshot at " + downstream.position() + "; both operators of a chain share "
                    + "the query's one clock, watermark and batch id: take both snapshots from one "
                    + "ChainSimulator#snapshot() or one checkpoint batch (CheckpointState.of(chain))");
        }
    }

    /** The id the first batch after a restore gets. */
    public long nextBatchId() {
        return upstream.nextBatchId();
    }

    /** The watermark at the time of the snapshot (the next batch's eviction watermark). */
    public Instant watermark() {
        return upstream.watermark();
    }

    /** The processing time at the time of the snapshot. */
    public Instant processingTime() {
        return upstream.processingTime();
    }

    /** Writes the snapshot to {@code file} (Java serialization), replacing it. */
    public void save(Path file) throws IOException {
        StateSnapshot.write(this, file, "chain snapshot");
    }

    /** Reads a snapshot written by {@link #save}; classes are resolved with this class's loader first. */
    public static ChainSnapshot load(Path file) throws IOException {
        return StateSnapshot.read(file, ChainSnapshot.class, "chain snapshot");
    }
}
