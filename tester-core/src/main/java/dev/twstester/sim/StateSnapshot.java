package dev.twstester.sim;

import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.file.Files;
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
 * A snapshot is immutable. Saving uses Java serialization: at {@link Fidelity#FULL} values are
 * stored as Spark's bytes and always save; at {@link Fidelity#FAST} they are the objects
 * themselves, which must then be {@link Serializable}.
 */
public final class StateSnapshot implements Serializable, EndState {
    private static final long serialVersionUID = 2L;

    /** One state variable: how it was obtained and its data by encoded grouping key. */
    record Variable(String name, String kind, long ttlMs, Encoder<?>[] encoders, Map<Bytes, Object> data)
            implements Serializable {}

    /**
     * What Spark's operator metadata records of the operator that took the snapshot: its time
     * mode, output mode and the state encoding, checked by {@link TwsSimulator#restartWith}.
     */
    record Settings(String timeMode, String outputMode, dev.twstester.StateEncoding encoding) implements Serializable {}

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
            List<Variable> dropped) implements Serializable {
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

    StateSnapshot(List<OperatorData> operators, long processingTimeMs, long watermarkMs, long lastBatchWatermarkMs,
            long nextBatchId) {
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

    /** Writes the snapshot to {@code file} (Java serialization), replacing it. */
    public void save(Path file) throws IOException {
        write(this, file, "snapshot");
    }

    /** Reads a snapshot written by {@link #save}; classes are resolved with this class's loader first. */
    public static StateSnapshot load(Path file) throws IOException {
        return read(file, StateSnapshot.class, "snapshot");
    }

    /** Writes {@code snapshot} (called {@code what} in errors) to {@code file}, replacing it. */
    static void write(Serializable snapshot, Path file, String what) throws IOException {
        Objects.requireNonNull(file, "file must not be null");
        try (OutputStream out = Files.newOutputStream(file); ObjectOutputStream oos = new ObjectOutputStream(out)) {
            oos.writeObject(snapshot);
        } catch (NotSerializableException e) {
            throw new NotSerializableException("cannot save the " + what + " to " + file + ": a stored value of class "
                    + e.getMessage() + " is not Serializable; at Fidelity.FAST state values are kept as objects, "
                    + "so make the class Serializable or take the " + what + " at Fidelity.FULL");
        }
    }

    /** Reads a {@code type} written by {@link #write}. */
    static <T> T read(Path file, Class<T> type, String what) throws IOException {
        Objects.requireNonNull(file, "file must not be null");
        try (InputStream in = Files.newInputStream(file); ObjectInputStream ois = new LoaderInput(in)) {
            Object o = ois.readObject();
            if (!type.isInstance(o)) {
                throw new IOException(file + " does not hold a twstester " + type.getSimpleName() + " but a "
                        + o.getClass().getName());
            }
            return type.cast(o);
        } catch (ClassNotFoundException e) {
            throw new IOException("cannot load the " + what + " " + file + ": class " + e.getMessage()
                    + " is not on the class path", e);
        }
    }

    private static final class LoaderInput extends ObjectInputStream {
        LoaderInput(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            if (context != null) {
                try {
                    return Class.forName(desc.getName(), false, context);
                } catch (ClassNotFoundException e) {
                    // fall back to the default resolution
                }
            }
            return super.resolveClass(desc);
        }
    }
}
