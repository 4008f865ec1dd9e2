package dev.twstester.sim;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.TimeMode;

/**
 * All state of one simulated query: state variables by name, timers, and the scope of the
 * running batch. It outlives processor instances, exactly as the state store outlives tasks.
 */
final class StateStore {
    private final TimeMode timeMode;
    private final Scope scope = new Scope();
    private final Map<String, StateVariable> variables = new LinkedHashMap<>();
    /**
     * Map variables obtained with the name of a value or list variable, which Spark's
     * {@code getMapState} accepts (it does not check for duplicates): they keep their own entries,
     * and fail every operation that scans a key's entries ({@link MapVariable#sharesName}).
     */
    private final Map<String, MapVariable<?, ?>> sharedNameMaps = new LinkedHashMap<>();
    private final Map<Encoder<?>, KeyCodec<?>> codecs = new HashMap<>();
    /** Variables whose values Spark's Avro reader was built for ({@link #readableWithAvro}). */
    private final Set<StateVariable> avroReadable = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Fidelity fidelity;
    private final TimerStore timers;

    StateStore(TimeMode timeMode, KeyCodec<?> keyCodec, Fidelity fidelity) {
        this.timeMode = timeMode;
        this.fidelity = fidelity;
        this.timers = new TimerStore(keyCodec, scope.journal());
    }

    TimeMode timeMode() {
        return timeMode;
    }

    Scope scope() {
        return scope;
    }

    TimerStore timers() {
        return timers;
    }

    Map<String, StateVariable> variables() {
        return variables;
    }

    <T> ValueVariable<T> value(String name, Encoder<T> encoder, long ttlMs) {
        ValueVariable<T> existing = existing(name, ValueVariable.class);
        return existing != null ? existing : add(new ValueVariable<>(name, values(encoder), ttlMs, scope, encoder));
    }

    <T> ListVariable<T> list(String name, Encoder<T> encoder, long ttlMs) {
        ListVariable<T> existing = existing(name, ListVariable.class);
        return existing != null ? existing : add(new ListVariable<>(name, values(encoder), ttlMs, scope, encoder));
    }

    @SuppressWarnings("unchecked")
    <MK, MV> MapVariable<MK, MV> map(String name, Encoder<MK> keyEncoder, Encoder<MV> valueEncoder, long ttlMs) {
        StateVariable other = variables.get(name);
        if (other instanceof ValueVariable<?> || other instanceof ListVariable<?>) {
            return (MapVariable<MK, MV>) sharedNameMaps.computeIfAbsent(name, n -> newMap(n, keyEncoder, valueEncoder,
                    ttlMs, true));
        }
        MapVariable<MK, MV> existing = existing(name, MapVariable.class);
        return existing != null ? existing : add(newMap(name, keyEncoder, valueEncoder, ttlMs, false));
    }

    private <MK, MV> MapVariable<MK, MV> newMap(String name, Encoder<MK> keyEncoder, Encoder<MV> valueEncoder,
            long ttlMs, boolean sharesName) {
        return new MapVariable<>(name, codec(keyEncoder), values(keyEncoder), values(valueEncoder), ttlMs, scope,
                keyEncoder, valueEncoder, sharesName);
    }

    /** A variable as {@code kind} ("value", "list", "map") with these encoders, created if missing. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    StateVariable variable(String name, String kind, Encoder<?>[] encoders, long ttlMs) {
        return switch (kind) {
            case "value" -> value(name, (Encoder) encoders[0], ttlMs);
            case "list" -> list(name, (Encoder) encoders[0], ttlMs);
            case "map" -> map(name, (Encoder) encoders[0], (Encoder) encoders[1], ttlMs);
            default -> throw new IllegalArgumentException("unknown state variable kind " + kind);
        };
    }

    /** {@code deleteIfExists}: drops the variable with all its data (undone if the batch fails). */
    boolean deleteVariable(String name) {
        StateVariable removed = variables.remove(name);
        Bytes key = new Bytes(name.getBytes(StandardCharsets.UTF_8));
        if (removed != null) {
            scope.journal().remember(variables, key, () -> variables.put(name, removed));
        }
        MapVariable<?, ?> sharing = sharedNameMaps.remove(name); // the same column family in Spark
        if (sharing != null) {
            scope.journal().remember(sharedNameMaps, key, () -> sharedNameMaps.put(name, sharing));
        }
        return removed != null;
    }

    /** Grouping keys with any state or timer. */
    Set<Bytes> keysWithState() {
        Set<Bytes> keys = new TreeSet<>();
        variables.values().forEach(v -> keys.addAll(v.keys()));
        sharedNameMaps.values().forEach(v -> keys.addAll(v.keys()));
        keys.addAll(timers.keys());
        return keys;
    }

    /** TTL cleanup at the end of a batch; returns the number of values removed. */
    int removeExpired(long batchTimestampMs) {
        int removed = 0;
        for (StateVariable v : variables.values()) {
            removed += v.removeExpired(batchTimestampMs);
        }
        for (StateVariable v : sharedNameMaps.values()) {
            removed += v.removeExpired(batchTimestampMs);
        }
        return removed;
    }

    /** The encoding of {@code encoder}'s type, shared by all variables and engine parts that use it. */
    @SuppressWarnings("unchecked")
    <T> KeyCodec<T> codec(Encoder<T> encoder) {
        return (KeyCodec<T>) codecs.computeIfAbsent(encoder, e -> KeyCodec.of(e));
    }

    /**
     * How values of {@code encoder}'s type are kept at this simulator's fidelity; a value an earlier
     * version wrote with Avro ({@link WrittenValue}) is read with {@code encoder} at each read.
     */
    <T> Codec<T> values(Encoder<T> encoder) {
        return WrittenValue.resolving(storedForm(encoder), encoder);
    }

    /** The stored form of {@code encoder}'s values: by reference, checked, or Spark's bytes. */
    <T> Codec<T> storedForm(Encoder<T> encoder) {
        KeyCodec<T> codec = codec(encoder);
        if (fidelity == Fidelity.FAST) {
            return Codec.byReference();
        }
        return codec.immutable() ? Codec.checked(codec) : Codec.encoded(codec);
    }

    Fidelity fidelity() {
        return fidelity;
    }

    /**
     * {@code variable}, after the check Spark's executor {@code init} makes with the {@code avro}
     * state encoding: that its Avro reader can read the variable's values ({@link AvroReaders}),
     * made once per variable.
     */
    <V extends StateVariable> V readableWithAvro(V variable) {
        if (scope.avroKeyOrder() && !avroReadable.contains(variable)) {
            AvroReaders.check(variable.encoders, variable.ttlMs);
            avroReadable.add(variable);
        }
        return variable;
    }

    /** The stored form of a value given as Spark's bytes of {@code encoder}: the bytes at FULL for a mutable type, else the object. */
    <T> Object fromBytes(Encoder<T> encoder, byte[] bytes) {
        KeyCodec<T> codec = codec(encoder);
        if (fidelity == Fidelity.FULL && !codec.immutable()) {
            return bytes;
        }
        return values(encoder).store(codec.decode(bytes));
    }

    /** The variable {@code name} if there is one, which must be of {@code kind}; else null. */
    @SuppressWarnings("unchecked")
    private <V extends StateVariable> V existing(String name, Class<?> kind) {
        StateVariable existing = variables.get(name);
        if (existing != null && !kind.isInstance(existing)) {
            throw new IllegalStateException("state variable '" + name + "' is a " + existing.kind()
                    + " state; it cannot also be obtained as another kind: give each variable its own name");
        }
        return (V) existing;
    }

    private <V extends StateVariable> V add(V created) {
        variables.put(created.name, created);
        return created;
    }
}
