package dev.twstester.property;

import java.util.ArrayList;
import java.util.Collection;
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
 * (from the state after each committed batch, compared with the one before for the keys a handler
 * ran for; for every key when a variable has a TTL or a call wrote state outside a batch),
 * {@code outputs in a batch: 0|1|2+},
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
    /** The {@code keys:} features, for 1, 2 and 3 or more keys. */
    private static final List<String> KEYS = List.of("keys: 1", "keys: 2", "keys: 3+");

    private final List<String> timeModes = new ArrayList<>();
    private final Set<String> features = new LinkedHashSet<>();
    private final Map<SequenceKey, StringBuilder> sequences = new LinkedHashMap<>();
    /** Feature names built once (per property run when the engine made the recorder), so a batch does not concatenate (and hash) them again. */
    private final FeatureNames names;

    /** A key of an operator, for its handler sequence. */
    private record SequenceKey(int operator, Object key) {}
    private final Set<String> keys = new LinkedHashSet<>();
    /** Per operator, each key's state and timers after the last committed batch. */
    private final Map<Integer, Map<Object, StateDump.KeyState<?>>> lastByKey = new HashMap<>();
    /** Per operator, the keys a handler ran for since the last committed batch: the only keys whose state can change. */
    private final Map<Integer, Set<Object>> touched = new HashMap<>();
    /** Set by a call that writes state outside a batch (a restore, a new version, a state write): read every key then. */
    private boolean wholeStateNext = true;
    private final Map<String, Predicate<StateView<K>>> stateLabels = new LinkedHashMap<>();
    private final List<BatchResult<K, I, O>> batches = new ArrayList<>();
    private final List<FailedBatch> failures = new ArrayList<>();
    private final Set<String> labels = new LinkedHashSet<>();

    private CoverageRecorder(TwsQuery<K, I, O> query, FeatureNames names) {
        this.names = names;
        for (TwsQuery<?, ?, ?> operator : query.operators()) {
            timeModes.add(Times.name(operator.timeMode()));
        }
    }

    /** A recorder for a run of {@code query}. */
    public static <K, I, O> CoverageRecorder<K, I, O> of(TwsQuery<K, I, O> query) {
        return new CoverageRecorder<>(Objects.requireNonNull(query, "query must not be null"), new FeatureNames());
    }

    /** A recorder for a run of {@code query} whose feature names come from {@code names} (shared by a property run's tries). */
    static <K, I, O> CoverageRecorder<K, I, O> of(TwsQuery<K, I, O> query, FeatureNames names) {
        return new CoverageRecorder<>(query, names);
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
            all.add(KEYS.get(Math.min(keys.size(), 3) - 1));
        }
        if (!batches.isEmpty()) {
            int n = batches.size();
            all.add(n == 1 ? "batches: 1" : n <= 3 ? "batches: 2-3" : n <= 7 ? "batches: 4-7" : "batches: 8+");
        }
        return all;
    }

    /** The user labels reached: those given to {@link #label} and to {@link #labelWhenState}. */
    public Set<String> labels() {
        return Set.copyOf(labels);
    }

    /** Adds the user labels reached to {@code into}. */
    void addLabelsTo(Set<String> into) {
        into.addAll(labels);
    }

    /** {@link #features()} plus each key's handler sequence ({@code sequence: II T}), for feedback. */
    public Set<String> signals() {
        Set<String> all = features();
        addSequencesTo(all);
        return all;
    }

    /** Adds each key's handler sequence ({@code sequence: II T}) to {@code signals}. */
    void addSequencesTo(Set<String> signals) {
        sequences.values().forEach(s -> signals.add(names.sequence(s)));
    }

    /** The batches the run committed and the batches that failed, as one result. */
    public RunResult<K, I, O> run() {
        return new RunResult<>(batches, failures);
    }

    /** The first operator's timers pending after the last committed batch, in epoch ms. */
    List<Long> pendingTimers() {
        List<Long> out = new ArrayList<>();
        lastByKey.getOrDefault(0, Map.of()).values().forEach(k -> k.timers().forEach(t -> out.add(t.toEpochMilli())));
        return out;
    }

    @Override
    public void callStarted(SimulatorCall<I> call) {
        if (!call.replayable()) {
            wholeStateNext = true;           // a restore or a state write changes keys no handler ran for
        }
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
        features.add(name(call.operator(), "handler: ", call.handler()));
        SequenceKey key = new SequenceKey(call.operator(), call.key());
        if (call.operator() == 0) {
            keys.add(String.valueOf(call.key()));
        }
        touched.computeIfAbsent(call.operator(), o -> new LinkedHashSet<>()).add(call.key());
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
        wholeStateNext = true;
        features.add("new version deployed");
    }

    @Override
    public void batchCommitted(BatchResult<K, I, O> batch, TwsSimulator<K, I, O> simulator) {
        batches.add(batch);
        List<BatchResult<?, ?, ?>> views = batch.operators();
        for (int i = 0; i < views.size(); i++) {
            recordBatch(i, views.get(i));
            recordState(i, simulator.state(i));
        }
        touched.clear();
        wholeStateNext = false;
        int outputs = batch.outputs().size();
        features.add(outputs == 0 ? "outputs in a batch: 0" : outputs == 1 ? "outputs in a batch: 1" : "outputs in a batch: 2+");
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
        String mode = operator < timeModes.size() ? timeModes.get(operator) : "?";
        if (!batch.hadInput()) {
            features.add(name(operator, "no-data batch", ""));
        }
        if (!batch.droppedLate().isEmpty()) {
            features.add(name(operator, "late rows dropped", ""));
        }
        if (batch.metric("numRegisteredTimers") > 0) {
            features.add(name(operator, "timer registered: ", mode));
        }
        if (batch.metric("numDeletedTimers") > batch.firedTimers().size()) {     // Spark counts each fired timer too
            features.add(name(operator, "timer deleted: ", mode));
        }
        if (!batch.firedTimers().isEmpty()) {
            features.add(name(operator, "timer fired: ", mode));
        }
        if (batch.metric("numValuesRemovedDueToTTLExpiry") > 0) {
            features.add(name(operator, "TTL expired", ""));
        }
    }

    /**
     * Compares each key's variables with the last committed batch's: created, updated, cleared.
     * Reads only the keys a handler ran for, unless a variable has a TTL (values then expire
     * without one) or a call wrote state outside a batch.
     */
    @SuppressWarnings("unchecked")
    private void recordState(int operator, StateView<?> view) {
        Map<Object, StateDump.KeyState<?>> old = lastByKey.get(operator);
        boolean whole = old == null || wholeStateNext || anyTtl(view);
        Collection<Object> keysRead = whole ? null : touched.getOrDefault(operator, Set.of());
        StateDump<?> now = whole ? view.dump() : ((StateView<Object>) view).dump(keysRead);
        Map<Object, StateDump.KeyState<?>> current = new HashMap<>();
        now.keys().forEach(k -> current.put(k.key(), k));
        Map<Object, StateDump.KeyState<?>> before = old == null ? Map.of() : old;
        Set<Object> compared = new LinkedHashSet<>(whole ? before.keySet() : keysRead);
        compared.addAll(current.keySet());
        for (Object key : compared) {
            compare(operator, variables(before.get(key)), variables(current.get(key)));
        }
        if (whole) {
            lastByKey.put(operator, current);
        } else {
            keysRead.forEach(key -> {
                if (current.containsKey(key)) {
                    old.put(key, current.get(key));
                } else {
                    old.remove(key);
                }
            });
        }
    }

    private void compare(int operator, Map<String, StateDump.Variable> was, Map<String, StateDump.Variable> is) {
        is.forEach((name, v) -> {
            StateDump.Variable prior = was.get(name);
            if (prior == null) {
                features.add(name(operator, "state created: ", name));
            } else if (!Objects.equals(prior, v)) {
                features.add(name(operator, "state updated: ", name));
            }
        });
        was.keySet().forEach(name -> {
            if (!is.containsKey(name)) {
                features.add(name(operator, "state cleared: ", name));
            }
        });
    }

    private static Map<String, StateDump.Variable> variables(StateDump.KeyState<?> state) {
        return state == null ? Map.of() : state.variables();
    }

    private static boolean anyTtl(StateView<?> view) {
        for (String name : view.variableNames()) {
            if (view.ttlOf(name).isPresent()) {
                return true;
            }
        }
        return false;
    }

    private String name(int operator, String kind, String detail) {
        return names.name(operator, kind, detail);
    }
}
