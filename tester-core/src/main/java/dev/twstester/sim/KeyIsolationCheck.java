package dev.twstester.sim;

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
        FieldWatch watch = new FieldWatch();
        Map<Object, List<Call>> reference = null;
        Set<String> differences = new LinkedHashSet<>();
        for (int n : partitionCounts) {
            TwsSimulator<K, I, O> sim = new TwsSimulator<>(query.withShufflePartitions(n));
            sim.engine.watchCalls(watch);
            sim.run(scenario);
            Map<Object, List<Call>> byKey = callsByKey(sim.engine);
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

    private static <K, I, O> Map<Object, List<Call>> callsByKey(Engine<K, I, O> engine) {
        Map<Object, List<Call>> byKey = new LinkedHashMap<>();
        List<List<RetryCheck.Call>> calls = engine.loggedCalls();
        for (int b = 0; b < calls.size(); b++) {
            for (RetryCheck.Call call : calls.get(b)) {
                List<String> encoded = new ArrayList<>();
                for (Object o : call.outputs()) {
                    @SuppressWarnings("unchecked")
                    O row = (O) o;
                    encoded.add(Arrays.toString(engine.outputCodec.encode(row)));
                }
                byKey.computeIfAbsent(call.key(), k -> new ArrayList<>())
                        .add(new Call("batch " + b + " " + call.function(), encoded, String.valueOf(call.outputs())));
            }
        }
        return byKey;
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

    /** Watches the processor's fields around handler calls. */
    private static final class FieldWatch implements HandlerObserver {
        private final Map<Object, Map<Field, String>> before = new IdentityHashMap<>();
        private final Map<Object, Map<Field, Object>> writer = new IdentityHashMap<>();
        final Set<String> leaks = new LinkedHashSet<>();

        @Override
        public void before(String function, Object key, Object processor) {
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

        @Override
        public void after(String function, Object key, Object processor) {
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
