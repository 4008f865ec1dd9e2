package dev.twstester.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StatefulProcessorHandle;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.BatchResult;
import dev.twstester.internal.RowCodec;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.HandlerCall;
import dev.twstester.sim.SimulatorListener;
import dev.twstester.sim.TwsSimulator;

/**
 * Finds processor instance fields that carry data from one key to another. Spark runs the keys of
 * one partition through one processor instance, one after another (and different partitions at the
 * same time), so a field written while handling one key is still there for the next key of the
 * partition, and which keys share an instance depends on the partition count.
 *
 * <p>The check runs the scenario at several partition counts ({@code 1, 2, 3, 5, 8} by default),
 * compares every key's handler outputs across them, and watches every handler call for fields
 * that another key's call changed.
 *
 * <pre>{@code
 * KeyIsolationCheck.Report report = KeyIsolationCheck.run(query, scenario);
 * assertThat(report.isolated()).as(report.toString()).isTrue();
 * }</pre>
 */
public final class KeyIsolationCheck {
    private static final int[] DEFAULT_PARTITIONS = {1, 2, 3, 5, 8};

    private KeyIsolationCheck() {
    }

    /** Runs {@code scenario} at partition counts 1, 2, 3, 5 and 8 (at {@link Fidelity#FULL}). */
    public static <K, I, O> Report run(TwsQuery<K, I, O> query, Scenario<I> scenario) {
        return run(query, scenario, DEFAULT_PARTITIONS);
    }

    /** Runs {@code scenario} once per partition count; the first count is the reference. */
    public static <K, I, O> Report run(TwsQuery<K, I, O> query, Scenario<I> scenario, int... partitionCounts) {
        Objects.requireNonNull(query, "query must not be null");
        Objects.requireNonNull(scenario, "scenario must not be null");
        if (partitionCounts.length < 2) {
            throw new IllegalArgumentException("give at least two partition counts to compare, got "
                    + Arrays.toString(partitionCounts));
        }
        FieldWatch<K, I, O> watch = new FieldWatch<>();
        Map<Object, List<Call>> reference = null;
        Set<String> differences = new LinkedHashSet<>();
        List<RowCodec<?>> outputCodecs = new ArrayList<>();
        query.operators().forEach(op -> outputCodecs.add(RowCodec.of(op.outputEncoder())));
        for (int n : partitionCounts) {
            TwsSimulator<K, I, O> sim = TwsSimulator.builder(query.withShufflePartitions(n)).listener(watch).build();
            sim.run(scenario);
            Map<Object, List<Call>> byKey = watch.callsByKey(outputCodecs, query.operators().size() > 1);
            if (reference == null) {
                reference = byKey;
                continue;
            }
            for (Map.Entry<Object, List<Call>> e : reference.entrySet()) {
                List<Call> other = byKey.getOrDefault(e.getKey(), List.of());
                if (!same(e.getValue(), other)) {
                    differences.add("key " + e.getKey() + " with " + partitionCounts[0] + " partition(s): "
                            + firstDifference(e.getValue(), other) + " with " + n + " partitions");
                }
            }
        }
        return new Report(List.copyOf(watch.leaks), List.copyOf(differences));
    }

    /**
     * One handler call as the check compares it: where it ran (batch, function) and the encoded
     * bytes of what it emitted, so rows without {@code equals} compare by content. {@code shown} is
     * the emitted rows as text, for the report only.
     */
    private record Call(String where, List<String> emitted, String shown) {
        boolean same(Call other) {
            return where.equals(other.where) && emitted.equals(other.emitted);
        }

        @Override
        public String toString() {
            return where + " emitted " + shown;
        }
    }

    private static boolean same(List<Call> a, List<Call> b) {
        return a.size() == b.size() && firstMismatch(a, b) < 0;
    }

    private static int firstMismatch(List<Call> a, List<Call> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).same(b.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static String firstDifference(List<Call> a, List<Call> b) {
        int i = firstMismatch(a, b);
        return i >= 0 ? a.get(i) + ", but " + b.get(i) : a.size() + " handler calls, but " + b.size();
    }

    /** What the check found. */
    public record Report(List<String> leakingFields, List<String> keyDifferences) {
        /** True when no field carried data between keys and every key's outputs were the same at every count. */
        public boolean isolated() {
            return leakingFields.isEmpty() && keyDifferences.isEmpty();
        }

        @Override
        public String toString() {
            if (isolated()) {
                return "keys are isolated: no instance field carried data between keys, and every key's outputs "
                        + "were the same at every partition count";
            }
            StringBuilder sb = new StringBuilder("keys are not isolated; handlers run one key after another "
                    + "on one processor instance per partition, so keep per-key data in state variables, not fields:");
            leakingFields.forEach(f -> sb.append("\n  - ").append(f));
            keyDifferences.forEach(d -> sb.append("\n  - ").append(d));
            return sb.toString();
        }
    }

    /**
     * Watches the processor's fields around handler calls, and keeps every committed batch's handler
     * calls with what they emitted.
     */
    private static final class FieldWatch<K, I, O> implements SimulatorListener<K, I, O> {
        private final Map<Object, Map<Field, String>> before = new IdentityHashMap<>();
        private final Map<Object, Map<Field, Object>> writer = new IdentityHashMap<>();
        final Set<String> leaks = new LinkedHashSet<>();
        /** The running batch's calls, and the committed batches' (cleared by {@link #callsByKey}). */
        private final List<Logged> running = new ArrayList<>();
        private final List<Logged> committed = new ArrayList<>();

        private record Logged(HandlerCall call, List<?> emitted) {}

        @Override
        public void handlerStarting(HandlerCall call) {
            before(call.handler(), call.key(), call.instance());
        }

        @Override
        public void handlerEnded(HandlerCall call, List<?> emitted) {
            after(call.handler(), call.key(), call.instance());
            running.add(new Logged(call, List.copyOf(emitted)));
        }

        @Override
        public void batchCommitted(BatchResult<K, I, O> batch, TwsSimulator<K, I, O> simulator) {
            committed.addAll(running);
            running.clear();
        }

        /** The committed calls by key (and operator, for several), with the emitted rows encoded; forgets them. */
        Map<Object, List<Call>> callsByKey(List<RowCodec<?>> outputCodecs, boolean severalOperators) {
            Map<Object, List<Call>> byKey = new LinkedHashMap<>();
            for (Logged logged : committed) {
                HandlerCall call = logged.call();
                @SuppressWarnings("unchecked")
                RowCodec<Object> codec = (RowCodec<Object>) outputCodecs.get(call.operator());
                List<String> encoded = new ArrayList<>();
                for (Object row : logged.emitted()) {
                    encoded.add(Arrays.toString(codec.encode(row)));
                }
                Object key = severalOperators ? "operator " + call.operator() + " " + call.key() : call.key();
                byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(new Call("batch " + call.batchId() + " "
                        + call.handler(), encoded, String.valueOf(logged.emitted())));
            }
            committed.clear();
            running.clear();
            return byKey;
        }

        private void before(String function, Object key, Object processor) {
            Map<Field, String> now = fingerprints(processor);
            Map<Field, Object> writers = writer.computeIfAbsent(processor, p -> new LinkedHashMap<>());
            for (Map.Entry<Field, Object> w : writers.entrySet()) {
                if (!Objects.equals(w.getValue(), key)) {
                    leaks.add("field '" + w.getKey().getName() + "' of " + w.getKey().getDeclaringClass().getName()
                            + " was written while handling key " + w.getValue() + " and still held that value when "
                            + function + " started for key " + key);
                }
            }
            before.put(processor, now);
        }

        private void after(String function, Object key, Object processor) {
            Map<Field, String> was = before.get(processor);
            Map<Field, String> now = fingerprints(processor);
            Map<Field, Object> writers = writer.computeIfAbsent(processor, p -> new LinkedHashMap<>());
            for (Map.Entry<Field, String> f : now.entrySet()) {
                if (was != null && !Objects.equals(was.get(f.getKey()), f.getValue())) {
                    writers.put(f.getKey(), key);
                }
            }
        }

        private static Map<Field, String> fingerprints(Object processor) {
            Map<Field, String> out = new LinkedHashMap<>();
            for (Class<?> c = processor.getClass(); c != null && c != StatefulProcessor.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || isStateHandle(f.getType())) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                        out.put(f, fingerprint(f.get(processor)));
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        // a field we cannot read is not reported
                    }
                }
            }
            return out;
        }

        private static boolean isStateHandle(Class<?> type) {
            return ValueState.class.isAssignableFrom(type) || ListState.class.isAssignableFrom(type)
                    || MapState.class.isAssignableFrom(type) || StatefulProcessorHandle.class.isAssignableFrom(type);
        }

        private static String fingerprint(Object value) {
            if (value == null || value instanceof Number || value instanceof CharSequence || value instanceof Boolean
                    || value instanceof Character || value instanceof Enum<?>) {
                return String.valueOf(value);
            }
            if (value instanceof Serializable) {
                try (ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                        ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                    out.writeObject(value);
                    out.flush();
                    return Arrays.toString(bytes.toByteArray());
                } catch (IOException | RuntimeException e) {
                    // fall through
                }
            }
            return value.getClass().getName() + "@" + System.identityHashCode(value) + ":" + value;
        }
    }
}
