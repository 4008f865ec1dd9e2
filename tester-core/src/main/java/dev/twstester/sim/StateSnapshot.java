package dev.twstester.sim;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.spark.sql.Encoder;

import dev.twstester.EndState;
import dev.twstester.StateDifference;

/**
 * Everything a query's checkpoint holds, taken from a {@link TwsSimulator}: per stateful operator,
 * every state variable with its stored values and TTL expirations and every timer; for the query,
 * the watermarks, the clock and the next batch id. {@link TwsSimulator#restore} starts a simulator
 * from it as Spark restarts a query from its checkpoint.
 *
 * <pre>{@code
 * StateSnapshot checkpoint = sim.snapshot();
 * checkpoint.save(Path.of("target/cart.snapshot"));
 * TwsSimulator<String, CartEvent, CartAlert> later = new TwsSimulator<>(CartWatch.query());
 * later.restore(StateSnapshot.load(Path.of("target/cart.snapshot")));
 * }</pre>
 *
 * To try a new version of the query on a snapshot, restore it into the query that took it and
 * then deploy the new version with {@link TwsSimulator#restartWith}, which applies Spark's checks;
 * {@code restore} itself checks only each operator's grouping key encoder.
 *
 * A snapshot is immutable. {@link #save} writes twstester's own versioned binary format,
 * described byte by byte in the repository's {@code docs/snapshot-format.md}: Spark's schemas as JSON and every value as Spark's UnsafeRow bytes, so
 * {@link #load} reads no class from a file and a hostile, truncated or corrupted file fails with a
 * {@link SnapshotFormatException}.
 */
public final class StateSnapshot implements EndState {
    /** One state variable: how it was obtained and its data by encoded grouping key. */
    record Variable(String name, String kind, long ttlMs, Encoder<?>[] encoders, Map<Bytes, Object> data) {}

    /**
     * What Spark's operator metadata records of the operator that took the snapshot: its time
     * mode, output mode and the state encoding, checked by {@link TwsSimulator#restartWith}.
     */
    record Settings(String timeMode, String outputMode, dev.twstester.StateEncoding encoding) {}

    /**
     * One stateful operator's part of the checkpoint.
     *
     * @param keyEncoder its grouping key's encoder
     * @param variables  its state variables, in definition order
     * @param timers     its timers by encoded grouping key
     * @param settings   what its operator metadata records
     * @param dropped    variables an earlier version had and a later one dropped: Spark keeps their
     *                   rows in the state store, and a version that asks for the name again reads
     *                   them ({@link TwsSimulator#restartWith})
     */
    record OperatorData(Encoder<?> keyEncoder, List<Variable> variables, Map<Bytes, long[]> timers, Settings settings,
            List<Variable> dropped) {
        OperatorData {
            variables = List.copyOf(variables);
            timers = Map.copyOf(timers);
            dropped = List.copyOf(dropped);
        }
    }

    /** Each stateful operator's part, in plan order. */
    final List<OperatorData> operators;
    final long processingTimeMs;
    final long watermarkMs;
    final long lastBatchWatermarkMs;
    final long nextBatchId;

    /**
     * The fidelity of the simulator that took the snapshot: how values are kept, FULL (bytes for
     * mutable types, objects for immutable ones) or FAST (objects), unless {@link #loaded}.
     */
    final Fidelity fidelity;
    /**
     * Read from a file by {@link #load}: every encoder is a row encoder of the schema the file
     * records and every value Spark's bytes (whatever the fidelity), until a restore reads them with
     * the query's encoders.
     */
    final boolean loaded;

    StateSnapshot(List<OperatorData> operators, long processingTimeMs, long watermarkMs, long lastBatchWatermarkMs,
            long nextBatchId, Fidelity fidelity, boolean loaded) {
        this.fidelity = fidelity;
        this.loaded = loaded;
        this.operators = List.copyOf(operators);
        this.processingTimeMs = processingTimeMs;
        this.watermarkMs = watermarkMs;
        this.lastBatchWatermarkMs = lastBatchWatermarkMs;
        this.nextBatchId = nextBatchId;
    }

    /** The id the first batch after a restore gets. */
    @Override
    public long nextBatchId() {
        return nextBatchId;
    }

    /** The watermark at the time of the snapshot (the next batch's eviction watermark). */
    public Instant watermark() {
        return Instant.ofEpochMilli(watermarkMs);
    }

    /** The processing time at the time of the snapshot. */
    public Instant processingTime() {
        return Instant.ofEpochMilli(processingTimeMs);
    }

    /**
     * Where the query stood: the clock, the last batch's eviction watermark (the next batch's
     * late-row filter), the next batch's eviction watermark and the next batch's id.
     */
    record Position(long processingTimeMs, long lastBatchWatermarkMs, long watermarkMs, long nextBatchId) {
        @Override
        public String toString() {
            return "next batch " + nextBatchId + " at " + Instant.ofEpochMilli(processingTimeMs) + ", watermark "
                    + Instant.ofEpochMilli(watermarkMs) + " (the last batch's " + Instant.ofEpochMilli(lastBatchWatermarkMs)
                    + ")";
        }
    }

    /** Where the query stood when the snapshot was taken. */
    Position position() {
        return new Position(processingTimeMs, lastBatchWatermarkMs, watermarkMs, nextBatchId);
    }

    /**
     * Every way this snapshot differs from {@code other} (another {@code StateSnapshot} of the same
     * query): the next batch id and watermarks, then per operator each variable's stored data key
     * by key (values as Spark's encoded bytes, with their TTL expirations), then timers. The clock is
     * not compared: a live query's is the wall clock's. {@code RunComparison#stateDifferences}
     * words them.
     */
    @Override
    public List<StateDifference> differencesTo(EndState other) {
        if (!(other instanceof StateSnapshot snapshot)) {
            throw new IllegalArgumentException("a StateSnapshot compares with another StateSnapshot, not a "
                    + (other == null ? "null" : other.getClass().getName()));
        }
        return StateDifferences.between(this, snapshot);
    }

    /** How many stateful operators the snapshot holds: the query's. */
    public int operatorCount() {
        return operators.size();
    }

    /** The names of the first operator's state variables. */
    public List<String> variableNames() {
        return variableNames(0);
    }

    /** The names of operator {@code operator}'s state variables (0: the first, in plan order). */
    public List<String> variableNames(int operator) {
        return operators.get(operator).variables().stream().map(Variable::name).toList();
    }

    /**
     * Writes the snapshot to {@code file} in twstester's snapshot format, replacing it. Every value
     * is written as Spark's UnsafeRow bytes with its schema; values kept as objects (immutable types
     * at FULL, all values at {@link Fidelity#FAST}) are encoded through their variable's encoder
     * here, and one the encoder cannot take fails the save with an {@link IOException} naming the
     * variable.
     */
    public void save(Path file) throws IOException {
        Objects.requireNonNull(file, "file must not be null");
        SnapshotWriter.write(this, file);
    }

    /**
     * Reads a snapshot written by {@link #save}. No class is loaded from the file and no value is
     * decoded: values stay Spark's bytes until {@link TwsSimulator#restore} reads them with the
     * encoders of the query restored into, whose grouping key and state variables must have the
     * schemas the file records (a variable the query does not declare, or declares with another
     * schema, is restored as rows of its recorded schema). A file written by an older twstester
     * (Java serialization), by a newer one (a later format version), or truncated or corrupted
     * throws {@link SnapshotFormatException} naming the file and what is wrong.
     */
    public static StateSnapshot load(Path file) throws IOException {
        Objects.requireNonNull(file, "file must not be null");
        return SnapshotReader.read(file);
    }
}
