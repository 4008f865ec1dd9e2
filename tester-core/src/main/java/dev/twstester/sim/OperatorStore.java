package dev.twstester.sim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.types.StructType;

import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;

/**
 * One stateful operator's state store with what its checkpoint holds besides: the state encoding
 * (the first run's, kept by restarts) and the variables a newer version dropped. It outlives
 * processor instances and runs, as Spark's state store outlives tasks; it takes and restores the
 * operator's part of a {@link StateSnapshot}. A batch's changes stay pending in the store's journal
 * until {@link #commit()} (or {@link #rollback()}).
 */
final class OperatorStore<K> implements StateAccess<K> {
    private final TwsQuery<K, ?, ?> query;
    private final KeyCodec<K> keyCodec;
    private final StateStore store;
    private StateEncoding encoding;
    /** Variables an earlier version had and this one does not ask for: their rows stay, as in Spark's store. */
    private List<StateSnapshot.Variable> dropped = List.of();

    OperatorStore(TwsQuery<K, ?, ?> query, KeyCodec<K> keyCodec, Fidelity fidelity) {
        this.query = query;
        this.keyCodec = keyCodec;
        this.store = new StateStore(query.timeMode(), keyCodec, fidelity);
        this.encoding = query.stateEncoding();
        applyEncoding();
    }

    /** The store the handles, variables and timers of a batch work on. */
    StateStore store() {
        return store;
    }

    Scope scope() {
        return store.scope();
    }

    @Override
    public Map<String, StateVariable> variables() {
        return Collections.unmodifiableMap(store.variables());
    }

    @Override
    public TimerStore timers() {
        return store.timers();
    }

    @Override
    public KeyCodec<K> keyCodec() {
        return keyCodec;
    }

    @Override
    public TimeMode timeMode() {
        return query.timeMode();
    }

    @Override
    public <R> R atKey(K key, long timestampMs, Function<Bytes, R> action) {
        Scope scope = store.scope();
        Bytes previous = scope.key();
        Bytes encoded = new Bytes(keyCodec.encode(Objects.requireNonNull(key, "key must not be null")));
        scope.enter(encoded);
        scope.batchTimestamp(timestampMs);
        try {
            return action.apply(encoded);
        } finally {
            scope.enter(previous);
        }
    }

    @Override
    public void commit() {
        store.scope().journal().commit();
    }

    /** Undoes every change since the last commit: a batch that failed, or a retry's first run. */
    void rollback() {
        store.scope().journal().rollback();
    }

    /** A copy of every variable's data by name, for comparing two runs of a batch. */
    Map<String, Map<Bytes, Object>> copyState() {
        Map<String, Map<Bytes, Object>> copy = new LinkedHashMap<>();
        store.variables().forEach((name, v) -> copy.put(name, v.copyData()));
        return copy;
    }

    /** This operator's part of a checkpoint: its variables, timers, settings and dropped variables. */
    StateSnapshot.OperatorData snapshot() {
        List<StateSnapshot.Variable> variables = new ArrayList<>();
        store.variables().forEach((name, v) -> variables.add(
                new StateSnapshot.Variable(name, v.kind(), v.ttlMs, v.encoders, v.copyData())));
        return new StateSnapshot.OperatorData(query.keyEncoder(), variables, store.timers().copyData(),
                new StateSnapshot.Settings(query.timeMode().toString(), query.outputMode().toString(), encoding), dropped);
    }

    /**
     * Why {@code data} cannot be restored into this operator, or null when it can: it must come
     * from an operator with this grouping key encoder.
     */
    String restoreProblem(StateSnapshot.OperatorData data, boolean loaded) {
        if (loaded) {
            StructType stored = data.keyEncoder().schema();
            return stored.equals(query.keyEncoder().schema()) ? null : "its grouping key schema " + stored.simpleString()
                    + " differs from this query's " + query.keyEncoder().schema().simpleString() + " (processor "
                    + query.userClass().getName() + ")";
        }
        return data.keyEncoder().equals(query.keyEncoder()) ? null : "its grouping key encoder "
                + data.keyEncoder() + " differs from this query's " + query.keyEncoder() + " (processor "
                + query.userClass().getName() + ")";
    }

    /**
     * {@code loaded}, read from a file ({@link StateSnapshot#load}: row encoders of the recorded
     * schemas, values as bytes), with the encoders this operator's processor declared for each
     * variable of the same name, kind and schemas, and values in this store's stored forms. Other
     * variables keep row encoders of their recorded schemas; dropped ones stay as read, for
     * {@link #restoreEvolved} to read as the version asking for them again does.
     */
    StateSnapshot.OperatorData bind(StateSnapshot.OperatorData loaded) {
        List<StateSnapshot.Variable> variables = new ArrayList<>();
        for (StateSnapshot.Variable v : loaded.variables()) {
            StateVariable declared = store.variables().get(v.name());
            Encoder<?>[] encoders = declared != null && declared.kind().equals(v.kind())
                    && schemas(declared.encoders).equals(schemas(v.encoders())) ? declared.encoders : v.encoders();
            StateVariable target = new StateStore(query.timeMode(), keyCodec, store.fidelity()).variable(v.name(),
                    v.kind(), encoders, v.ttlMs());
            int last = encoders.length - 1;
            variables.add(new StateSnapshot.Variable(v.name(), v.kind(), v.ttlMs(), encoders, target.convertData(v.data(),
                    b -> fromLoaded(encoders[last], b), b -> store.fromBytes(encoders[0], (byte[]) b))));
        }
        return new StateSnapshot.OperatorData(query.keyEncoder(), variables, loaded.timers(), loaded.settings(),
                loaded.dropped());
    }

    /**
     * A loaded value's stored form for {@code encoder}: its bytes, or a value kept with the row encoder
     * of the schema it was written with, which {@code encoder} resolves at each read.
     */
    private Object fromLoaded(Encoder<?> encoder, Object loaded) {
        if (loaded instanceof WrittenValue written) {
            return WrittenValue.keep(store.fromBytes(written.writer(), (byte[]) written.stored()), written.writer(), encoder);
        }
        return store.fromBytes(encoder, (byte[]) loaded);
    }

    private static List<StructType> schemas(Encoder<?>[] encoders) {
        return java.util.Arrays.stream(encoders).map(Encoder::schema).toList();
    }

    /** Replaces everything with {@code data}, which {@link #restoreProblem} accepted, and commits. */
    void restore(StateSnapshot.OperatorData data) {
        encoding = data.settings().encoding();
        applyEncoding();
        dropped = data.dropped();
        store.variables().clear();
        for (StateSnapshot.Variable v : data.variables()) {
            store.variable(v.name(), v.kind(), v.encoders(), v.ttlMs()).restoreData(v.data());
        }
        restoreTimers(data);
    }

    /**
     * Replaces everything with {@code data}, taken from an earlier version of this operator:
     * Spark's checks of the new version against the checkpoint first ({@link StateEvolution}, which
     * throws Spark's error), then the stored values are read with the encoders this version's
     * driver pass asked for. The state encoding is the checkpoint's. Variables this version does
     * not ask for are kept aside with their rows; those it adds start empty, or with the rows of a
     * dropped variable of that name.
     */
    void restoreEvolved(StateSnapshot.OperatorData data) {
        encoding = data.settings().encoding();
        applyEncoding();
        Map<String, StateVariable> declared = new LinkedHashMap<>(store.variables());
        List<StateEvolution.Declared> asked = new ArrayList<>();
        declared.forEach((name, v) -> asked.add(new StateEvolution.Declared(name, v.kind(), v.ttlMs, v.encoders)));
        StateEvolution.check(data, query.keyEncoder(), asked, query, encoding);
        Map<String, StateSnapshot.Variable> stored = new LinkedHashMap<>();
        data.dropped().forEach(v -> stored.put(v.name(), v));
        data.variables().forEach(v -> stored.put(v.name(), v));
        List<StateSnapshot.Variable> stillDropped = new ArrayList<>();
        stored.forEach((name, v) -> {
            if (!declared.containsKey(name)) {
                stillDropped.add(v);
            }
        });
        dropped = List.copyOf(stillDropped);
        declared.forEach((name, variable) -> variable.restoreData(evolvedData(stored.get(name), variable)));
        restoreTimers(data);
    }

    /**
     * {@code old}'s data as {@code variable}'s encoders read it (none: empty). With {@code avro} each
     * value keeps the encoder it was written with and is resolved at each read ({@link WrittenValue});
     * with {@code unsaferow} the stored bytes are read by position now.
     */
    private Map<Bytes, Object> evolvedData(StateSnapshot.Variable old, StateVariable variable) {
        if (old == null) {
            return Map.of();
        }
        int last = variable.encoders.length - 1;
        Encoder<?> writer = old.encoders()[old.encoders().length - 1];
        Encoder<?> reader = variable.encoders[last];
        UnaryOperator<Object> values = encoding == StateEncoding.AVRO
                ? stored -> WrittenValue.keep(stored, writer, reader)
                : StateEvolution.reader(writer, reader, store.storedForm(reader), false);
        UnaryOperator<Object> mapKeys = variable.encoders.length < 2 ? null
                : StateEvolution.reader(old.encoders()[0], variable.encoders[0], store.storedForm(variable.encoders[0]), false);
        return values == null && mapKeys == null ? old.data()
                : variable.convertData(old.data(), values == null ? v -> v : values, mapKeys == null ? k -> k : mapKeys);
    }

    private void restoreTimers(StateSnapshot.OperatorData data) {
        store.timers().restoreData(data.timers());
        commit();
    }

    /** Keys ordered as the checkpoint's state encoding orders them in RocksDB (before any data is restored). */
    private void applyEncoding() {
        boolean avro = encoding == StateEncoding.AVRO;
        store.scope().orderKeysAsAvro(avro);
        store.timers().avroOrder(avro ? query.keyEncoder() : null);
    }
}
