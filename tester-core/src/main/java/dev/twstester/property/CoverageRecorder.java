package dev.twstester.property;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.HandlerCall;
import dev.twstester.sim.SimulatorCall;
import dev.twstester.sim.SimulatorListener;
import dev.twstester.sim.StateDump;
import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * Records what one run of a simulator exercised, as named features: the listener the property
 * engine attaches to each try ({@link PropertyTry#simulator}), usable on its own too.
 *
 * <pre>{@code
 * CoverageRecorder<String, LoginEvent, LockoutEvent> coverage = CoverageRecorder.of(LoginLockout.query());
 * TwsSimulator<String, LoginEvent, LockoutEvent> sim = TwsSimulator.builder(LoginLockout.query())
 *         .listener(coverage).build();
 * sim.run(scenario);
 * coverage.features();  // [keys: 1, batches: 2-3, handler: handleInputRows, state created: failures, ...]
 * }</pre>
 *
 * <h2>Features</h2>
 * {@code keys: 1|2|3+}, {@code batches: 1|2-3|4-7|8+}, {@code handler: <name>}, {@code no-data batch},
 * {@code late rows dropped}, {@code timer registered|deleted|fired: <TimeMode>} (from the batch's
 * metrics and fired timers; deleted counts the handler's deletes, not the fired timers Spark counts too), {@code TTL expired}, {@code state created|updated|cleared: <variable>}
 * (from the state after each committed batch), {@code outputs in a batch: 0|1|2+},
 * {@code restart}, {@code new version deployed}, {@code batch failed[: <Spark error class>]} and
 * {@code error: <exception>}. Features of a query's second and later operators start with
 * {@code [op N] }.
 *
 * <p>Beyond the features, {@link #signals()} adds each key's sequence of handler kinds (for the
 * feedback-directed generation). Not thread-safe: one recorder per simulator run.
 *
 * @param <K> the query's key type
 * @param <I> input row type
 * @param <O> output row type
 */
public final class CoverageRecorder<K, I, O> implements SimulatorListener<K, I, O> {
    /** Handler kinds per key longer than this are cut, so the sequences stay a small set. */
    private static final int MAX_SEQUENCE = 8;

    private final List<String> timeModes = new ArrayList<>();
    private final Set<String> features = new LinkedHashSet<>();
    private final Map<String, StringBuilder> sequences = new LinkedHashMap<>();
    private final Set<String> keys = new LinkedHashSet<>();
    private final Map<Integer, StateDump<?>> lastState = new HashMap<>();
    /** {@link #lastState} by key, per operator: the last batch's, so a batch decodes only its own dump. */
    private final Map<Integer, Map<Object, Map<String, StateDump.Variable>>> lastByKey = new HashMap<>();
    private final Map<String, Predicate<StateView<K>>> stateLabels = new LinkedHashMap<>();
    private final List<BatchResult<K, I, O>> batches = new ArrayList<>();
    private final List<FailedBatch> failures = new ArrayList<>();
    private final Set<String> labels = new LinkedHashSet<>();

    private CoverageRecorder(TwsQuery<K, I, O> query) {
        for (TwsQuery<?, ?, ?> operator : query.operators()) {
            timeModes.add(Times.name(operator.timeMode()));
        }
    }

    /** A recorder for a run of {@code query}. */
    public static <K, I, O> CoverageRecorder<K, I, O> of(TwsQuery<K, I, O> query) {
        return new CoverageRecorder<>(Objects.requireNonNull(query, "query must not be null"));
    }

    /** Also reach {@code label} when {@code test} holds for the first operator's state after any committed batch. */
    public CoverageRecorder<K, I, O> labelWhenState(String label, Predicate<StateView<K>> test) {
        stateLabels.put(Objects.requireNonNull(label, "label must not be null"),
                Objects.requireNonNull(test, "test must not be null"));
        return this;
    }

    /** Marks {@code label} as reached by this run (a user's own label). */
    public CoverageRecorder<K, I, O> label(String label) {
        labels.add(Objects.requireNonNull(label, "label must not be null"));
        return this;
    }

    /** The built-in features this run reached, in the order it reached them, plus {@code keys:} and {@code batches:}. */
    public Set<String> features() {
        Set<String> all = new LinkedHashSet<>(features);
        if (!keys.isEmpty()) {
            all.add("keys: " + (keys.size() >= 3 ? "3+" : keys.size()));
        }
        if (!batches.isEmpty()) {
            all.add("batches: " + bucket(batches.size()));
        }
        return all;
    }

    /** The user labels reached: those given to {@link #label} and to {@link #labelWhenState}. */
    public Set<String> labels() {
        return Set.copyOf(labels);
    }

    /** {@link #features()} plus each key's handler sequence ({@code sequence: II T}), for feedback. */
    public Set<String> signals() {
        Set<String> all = features();
        sequences.values().forEach(s -> all.add("sequence: " + s));
        return all;
    }

    /** The batches the run committed and the batches that failed, as one result. */
    public RunResult<K, I, O> run() {
        return new RunResult<>(batches, failures);
    }

    /** The first operator's timers pending after the last committed batch, in epoch ms. */
    List<Long> pendingTimers() {
        List<Long> out = new ArrayList<>();
        StateDump<?> last = lastState.get(0);
        if (last != null) {
            last.keys().forEach(k -> k.timers().forEach(t -> out.add(t.toEpochMilli())));
        }
        return out;
    }

    private static String bucket(int n) {
        return n == 1 ? "1" : n <= 3 ? "2-3" : n <= 7 ? "4-7" : "8+";
    }

    @Override
    public void callStarted(SimulatorCall<I> call) {
        for (Scenario.Step<I> step : call.steps()) {
            if (step instanceof Scenario.Stop<?>) {
                features.add("restart");
            }
        }
    }

    @Override
    public void callEnded(SimulatorCall<I> call, RunResult<K, I, O> ran, RuntimeException failure) {
        if (failure != null) {
            features.add("error: " + failure.getClass().getSimpleName());
        }
    }

    @Override
    public void handlerStarting(HandlerCall call) {
        features.add(prefix(call.operator()) + "handler: " + call.handler());
        String key = call.operator() + "/" + call.key();
        if (call.operator() == 0) {
            keys.add(String.valueOf(call.key()));
        }
        StringBuilder seq = sequences.computeIfAbsent(key, k -> new StringBuilder());
        if (seq.length() < MAX_SEQUENCE && call.attempt() == 0) {
            seq.append(switch (call.handler()) {
                case "handleExpiredTimer" -> 'T';
                case "handleInitialState" -> 'S';
                default -> 'I';
            });
        }
    }

    @Override
    public void restartedWith(TwsSimulator<K, I, O> next) {
        features.add("new version deployed");
    }

    @Override
    public void batchCommitted(BatchResult<K, I, O> batch, TwsSimulator<K, I, O> simulator) {
        batches.add(batch);
        List<BatchResult<?, ?, ?>> views = batch.operators();
        for (int i = 0; i < views.size(); i++) {
            recordBatch(i, views.get(i));
            recordState(i, simulator.state(i).dump());
        }
        int outputs = batch.outputs().size();
        features.add("outputs in a batch: " + (outputs >= 2 ? "2+" : outputs));
        stateLabels.forEach((label, test) -> {
            if (!labels.contains(label) && test.test(simulator.state())) {
                labels.add(label);
            }
        });
    }

    @Override
    public void batchFailed(FailedBatch failed, TwsSimulator<K, I, O> simulator) {
        failures.add(failed);
        features.add("batch failed" + (failed.errorClass() == null ? "" : ": " + failed.errorClass()));
    }

    private void recordBatch(int operator, BatchResult<?, ?, ?> batch) {
        String p = prefix(operator);
        String mode = operator < timeModes.size() ? timeModes.get(operator) : "?";
        if (!batch.hadInput()) {
            features.add(p + "no-data batch");
        }
        if (!batch.droppedLate().isEmpty()) {
            features.add(p + "late rows dropped");
        }
        if (batch.metric("numRegisteredTimers") > 0) {
            features.add(p + "timer registered: " + mode);
        }
        if (batch.metric("numDeletedTimers") > batch.firedTimers().size()) {     // Spark counts each fired timer too
            features.add(p + "timer deleted: " + mode);
        }
        if (!batch.firedTimers().isEmpty()) {
            features.add(p + "timer fired: " + mode);
        }
        if (batch.metric("numValuesRemovedDueToTTLExpiry") > 0) {
            features.add(p + "TTL expired");
        }
    }

    /** Compares each key's variables with the last committed batch's: created, updated, cleared. */
    private void recordState(int operator, StateDump<?> now) {
        lastState.put(operator, now);
        Map<Object, Map<String, StateDump.Variable>> current = byKey(now);
        Map<Object, Map<String, StateDump.Variable>> before = lastByKey.put(operator, current);
        Map<Object, Map<String, StateDump.Variable>> old = before == null ? Map.of() : before;
        String p = prefix(operator);
        current.forEach((key, vars) -> {
            Map<String, StateDump.Variable> was = old.getOrDefault(key, Map.of());
            vars.forEach((name, v) -> {
                StateDump.Variable prior = was.get(name);
                if (prior == null) {
                    features.add(p + "state created: " + name);
                } else if (!Objects.equals(prior, v)) {
                    features.add(p + "state updated: " + name);
                }
            });
        });
        old.forEach((key, vars) -> vars.keySet().forEach(name -> {
            if (!current.getOrDefault(key, Map.of()).containsKey(name)) {
                features.add(p + "state cleared: " + name);
            }
        }));
    }

    private static Map<Object, Map<String, StateDump.Variable>> byKey(StateDump<?> dump) {
        Map<Object, Map<String, StateDump.Variable>> out = new HashMap<>();
        if (dump != null) {
            dump.keys().forEach(k -> out.put(k.key(), k.variables()));
        }
        return out;
    }

    private static String prefix(int operator) {
        return operator == 0 ? "" : "[op " + operator + "] ";
    }
}
