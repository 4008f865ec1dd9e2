package dev.twstester.property;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

/**
 * One try of a property run, as {@link Property#checkTries} hands it to the check: the generated
 * scenario, and the simulator (or the bare listener) through which the engine records what the
 * try exercised, so {@code classify}, {@code cover}, {@code target} and the feedback-directed
 * generation see it.
 *
 * <pre>{@code
 * Property.forAll(generator).target("unlocked").checkTries(t -> {
 *     TwsSimulator<String, LoginEvent, LockoutEvent> sim = t.simulator(LoginLockout.query());
 *     RunResult<String, LoginEvent, LockoutEvent> run = sim.run(t.scenario().toScenario(logins));
 *     if (run.outputs().stream().anyMatch(LockoutEvent::isUnlock)) {
 *         t.label("unlocked");
 *     }
 *     return Optional.empty();
 * });
 * }</pre>
 */
public final class PropertyTry {
    private final int index;
    private final GenScenario scenario;
    private final FeatureNames names;
    private final List<CoverageRecorder<?, ?, ?>> recorders = new ArrayList<>();
    private final Set<String> labels = new LinkedHashSet<>();
    private Reached reached;
    /** {@link #signals()}, once asked (feedback generation only). */
    private Set<String> signals;
    /** A parent try's run this try may go on from (when its scenario only adds steps to the parent's). */
    private LiveRun<?, ?, ?> offered;
    /** This try's own run, once done, for a derived try to go on from. */
    private LiveRun<?, ?, ?> live;

    /** The labels and the features of a finished try. */
    private record Reached(Set<String> labels, Set<String> features) {}

    PropertyTry(int index, GenScenario scenario, FeatureNames names) {
        this.index = index;
        this.scenario = Objects.requireNonNull(scenario, "scenario must not be null");
        this.names = names;
    }

    /** The try's index in the run, from 0 (-1 while the shrinker tries smaller scenarios). */
    public int index() {
        return index;
    }

    /** The scenario this try checks. */
    public GenScenario scenario() {
        return scenario;
    }

    /**
     * A simulator of {@code query} as the scenario asks ({@link GenScenario#applyTo}: its shuffle
     * partitions and trigger interval), with this try's coverage recorder attached.
     */
    public <K, I, O> TwsSimulator<K, I, O> simulator(TwsQuery<K, I, O> query) {
        return simulator(query, listener(query));
    }

    /** A simulator of {@code query} as the scenario asks, with {@code recorder} (one of this try's) attached. */
    <K, I, O> TwsSimulator<K, I, O> simulator(TwsQuery<K, I, O> query, CoverageRecorder<K, I, O> recorder) {
        return TwsSimulator.builder(scenario.applyTo(query)).listener(recorder).build();
    }

    /**
     * A new coverage recorder of this try, for a simulator the check builds itself
     * ({@code TwsSimulator.builder(q).listener(t.listener(q))}). Every recorder's features count.
     */
    public <K, I, O> CoverageRecorder<K, I, O> listener(TwsQuery<K, I, O> query) {
        CoverageRecorder<K, I, O> recorder = CoverageRecorder.of(Objects.requireNonNull(query, "query must not be null"), names);
        recorders.add(recorder);
        return recorder;
    }

    /** Marks {@code label} reached by this try (a user label of the coverage table). */
    public PropertyTry label(String label) {
        labels.add(Objects.requireNonNull(label, "label must not be null"));
        return this;
    }

    /** Offers this try the run of the corpus entry it was derived from; null for none. */
    void offer(LiveRun<?, ?, ?> parent) {
        offered = parent;
    }

    /** The parent's run offered to this try, once: taking it leaves none. */
    LiveRun<?, ?, ?> takeOffered() {
        LiveRun<?, ?, ?> taken = offered;
        offered = null;
        return taken;
    }

    /** Goes on from a parent's run: its recorder, which has its coverage so far, becomes this try's too. */
    void adopt(CoverageRecorder<?, ?, ?> recorder) {
        recorders.add(recorder);
    }

    /** Keeps this try's finished run, for a derived try to go on from. */
    void keepLive(LiveRun<?, ?, ?> run) {
        live = run;
    }

    /** This try's finished run, when its check ran the scenario through {@code QueryProperty}; else null. */
    LiveRun<?, ?, ?> live() {
        return live;
    }

    /** The recorders made for this try, in order. */
    List<CoverageRecorder<?, ?, ?>> recorders() {
        return recorders;
    }

    /** User labels reached: given to {@link #label} or reached in a recorder. Read once the check is done. */
    Set<String> labels() {
        return reached().labels();
    }

    /** Built-in features of every recorder. Read once the check is done. */
    Set<String> features() {
        return reached().features();
    }

    /** Features, labels and handler sequences: what counts as new coverage for feedback. Read once the check is done. */
    Set<String> signals() {
        if (signals == null) {
            signals = new HashSet<>(labels());
            signals.addAll(features());
            recorders.forEach(r -> r.addSequencesTo(signals));
        }
        return signals;
    }

    /** What the try reached, gathered from its recorders the first time the engine asks, after the check. */
    private Reached reached() {
        if (reached == null) {
            Set<String> userLabels = new LinkedHashSet<>(labels);
            Set<String> builtIn = recorders.size() == 1 ? recorders.get(0).features() : new LinkedHashSet<>();
            for (CoverageRecorder<?, ?, ?> r : recorders) {
                r.addLabelsTo(userLabels);
                if (recorders.size() > 1) {
                    builtIn.addAll(r.features());
                }
            }
            reached = new Reached(userLabels, builtIn);
        }
        return reached;
    }

    /** Timers left pending at the end of the run, in epoch ms (of every recorder's first operator). */
    List<Long> pendingTimers() {
        List<Long> all = new ArrayList<>();
        recorders.forEach(r -> all.addAll(r.pendingTimers()));
        return all;
    }
}
