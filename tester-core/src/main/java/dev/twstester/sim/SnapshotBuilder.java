package dev.twstester.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.TwsQuery;
import org.apache.spark.sql.streaming.StatefulProcessor;

/**
 * Builds a {@link StateSnapshot} for a query from state read elsewhere, such as a Spark checkpoint
 * ({@code dev.twstester.spark.CheckpointState} uses it): values, list elements and map entries with
 * the expirations the store kept, timers, and where the query stood (the last batch's timestamp and
 * watermark, the next batch's watermark and id). {@link TwsSimulator#restore} then starts a
 * simulator from it.
 *
 * <pre>{@code
 * SnapshotBuilder<String> b = SnapshotBuilder.of(CartWatch.query(), Fidelity.FULL);
 * b.listElement("items", "ana", "boots", SnapshotBuilder.NO_EXPIRY)
 *  .value("last_seen", "ana", 1714557600000L, SnapshotBuilder.NO_EXPIRY)
 *  .timer("ana", 1714559400000L)
 *  .position(1714557600000L, 0L, 1714557000000L, 2);
 * sim.restore(b.build());
 * }</pre>
 *
 * The builder runs the query's processor's {@code init} once, as the driver does, to learn the
 * state variables it declares ({@link #declared()}); values go through their encoders. The snapshot
 * is for a simulator of the fidelity given here.
 *
 * @param <K> grouping key type
 */
public final class SnapshotBuilder<K> {
    /** The expiration of a value without TTL. */
    public static final long NO_EXPIRY = StateVariable.NO_EXPIRY;

    /**
     * A state variable the query's processor declares in {@code init}.
     *
     * @param name     the variable's name
     * @param kind     {@code "value"}, {@code "list"} or {@code "map"}
     * @param ttlMs    its TTL in ms, 0 without TTL
     * @param encoders the value's encoder; for a map, the map key's and the value's
     */
    public record Declared(String name, String kind, long ttlMs, List<Encoder<?>> encoders) {}

    /** Holds what is given: a simulator of the query, whose snapshot {@link #build()} takes. */
    private final TwsSimulator<?, ?, ?> simulator;
    private final StateAccess<K> access;
    private final TwsQuery<K, ?, ?> operator;

    private SnapshotBuilder(TwsSimulator<?, ?, ?> simulator, int index) {
        this.simulator = simulator;
        @SuppressWarnings("unchecked")
        Operator<K, ?, ?> op = (Operator<K, ?, ?>) simulator.operators().get(index);
        this.access = op.store();
        this.operator = op.query();
    }

    /**
     * A builder for {@code query}'s state, for a simulator of {@code fidelity}; runs each
     * operator's processor's {@code init}. Its methods fill the first operator's state;
     * {@link #operator(int)} the others'.
     */
    public static <K, I, O> SnapshotBuilder<K> of(TwsQuery<K, I, O> query, Fidelity fidelity) {
        Objects.requireNonNull(query, "query must not be null");
        Objects.requireNonNull(fidelity, "fidelity must not be null");
        TwsSimulator<K, I, O> simulator = TwsSimulator.builder(query).fidelity(fidelity).build();
        for (Operator<?, ?, ?> op : simulator.operators()) {
            declareInTask(op);
        }
        return new SnapshotBuilder<>(simulator, 0);
    }

    /**
     * A task's {@code init} too: a processor may declare variables only where the handle is a task's
     * (a legacy function's one value state is declared by the operator).
     */
    private static <K, I, O> void declareInTask(Operator<K, I, O> op) {
        if (op.query().groupsWithState().isEmpty()) {
            StatefulProcessor<K, I, O> task = op.query().newProcessor();
            task.setHandle(op.taskHandle(0));
            try {
                task.init(op.query().outputMode(), op.query().timeMode());
            } finally {
                task.setHandle(null);
            }
        }
        op.store().commit();
    }

    /**
     * A builder of operator {@code index}'s state in the same snapshot (0: the first, in plan
     * order), its keys typed as the caller expects: {@code SnapshotBuilder<String> pages = b.operator(1);}
     */
    public <K2> SnapshotBuilder<K2> operator(int index) {
        Objects.checkIndex(index, simulator.operators().size());
        return new SnapshotBuilder<>(simulator, index);
    }

    /** The state variables the operator's processor declares, in declaration order. */
    public List<Declared> declared() {
        List<Declared> out = new ArrayList<>();
        for (Map.Entry<String, StateVariable> e : access.variables().entrySet()) {
            StateVariable v = e.getValue();
            out.add(new Declared(e.getKey(), v.kind(), v.ttlMs, List.of(v.encoders)));
        }
        return out;
    }

    /** Value state {@code name} of {@code key} holds {@code value}, expiring at {@code expiryMs} (or {@link #NO_EXPIRY}). */
    @SuppressWarnings("unchecked")
    public SnapshotBuilder<K> value(String name, K key, Object value, long expiryMs) {
        ValueVariable<Object> v = variable(name, ValueVariable.class, "value");
        v.putRestored(encodeKey(key), value, expiryMs);
        return this;
    }

    /** List state {@code name} of {@code key} has {@code element} appended, expiring at {@code expiryMs}. */
    @SuppressWarnings("unchecked")
    public SnapshotBuilder<K> listElement(String name, K key, Object element, long expiryMs) {
        ListVariable<Object> v = variable(name, ListVariable.class, "list");
        v.appendRestored(encodeKey(key), element, expiryMs);
        return this;
    }

    /** Map state {@code name} of {@code key} maps {@code mapKey} to {@code value}, expiring at {@code expiryMs}. */
    @SuppressWarnings("unchecked")
    public SnapshotBuilder<K> mapEntry(String name, K key, Object mapKey, Object value, long expiryMs) {
        MapVariable<Object, Object> v = variable(name, MapVariable.class, "map");
        v.putRestored(encodeKey(key), mapKey, value, expiryMs);
        return this;
    }

    /** {@code key} has a timer registered at {@code expiryMs}. */
    public SnapshotBuilder<K> timer(K key, long expiryMs) {
        if (operator.timeMode().equals(TimeMode.None())) {
            throw new IllegalStateException("the query runs in TimeMode.None(), which has no timers, but the state "
                    + "holds a timer of key " + key + "; use the query the state was written by");
        }
        access.timers().register(encodeKey(key), expiryMs);
        access.commit();
        return this;
    }

    /**
     * Where the query stood: the last batch's timestamp (the simulator's clock) and eviction
     * watermark (the next batch's late-row filter), the next batch's eviction watermark, and the
     * next batch's id. All 0 by default: a query that ran no batch.
     */
    public SnapshotBuilder<K> position(long lastBatchTimestampMs, long lastBatchWatermarkMs, long watermarkMs,
            long nextBatchId) {
        if (nextBatchId < 0) {
            throw new IllegalArgumentException("nextBatchId " + nextBatchId + " must not be negative");
        }
        simulator.position(lastBatchTimestampMs, lastBatchWatermarkMs, watermarkMs, nextBatchId);
        return this;
    }

    /**
     * The snapshot, with every declared variable (empty where nothing was given), taken as
     * {@link TwsSimulator#snapshot()} takes one: it records the query's time mode, output mode and
     * state encoding as well, which {@link TwsSimulator#restore} and {@link TwsSimulator#restartWith}
     * read as Spark reads a checkpoint's operator metadata. The builder can go on being used; each
     * call takes a new snapshot.
     */
    public StateSnapshot build() {
        return simulator.snapshot();
    }

    private Bytes encodeKey(K key) {
        Objects.requireNonNull(key, "key must not be null");
        return new Bytes(access.keyCodec().encode(key));
    }

    private <V> V variable(String name, Class<?> kind, String kindName) {
        Objects.requireNonNull(name, "name must not be null");
        StateVariable v = access.variables().get(name);
        if (v == null) {
            throw new IllegalArgumentException("the query's processor declares no state variable '" + name
                    + "'; it declares " + access.variables().keySet());
        }
        if (!kind.isInstance(v)) {
            throw new IllegalArgumentException("state variable '" + name + "' is a " + v.kind()
                    + " state in the query's processor, not a " + kindName + " state");
        }
        @SuppressWarnings("unchecked")
        V typed = (V) v;
        return typed;
    }
}
