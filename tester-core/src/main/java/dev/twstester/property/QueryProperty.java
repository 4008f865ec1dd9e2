package dev.twstester.property;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * A property whose tries the engine runs ({@link Property#runs}): each try's scenario through a
 * simulator of the query with a {@link CoverageRecorder} attached. Labels of your own come from the
 * run ({@link #classify}), from an output ({@link #classifyOutput}) or from the state after a batch
 * ({@link #classifyState}); the {@link CoverageTable} on the result shows the share of tries that
 * reached each. Immutable; every setter returns a new one.
 *
 * <pre>{@code
 * PropertyResult result = Property.forAll(logins).tries(200)
 *         .runs(LoginLockout.query(), LoginLockoutTest::event)
 *         .classifyOutput("locked", LockoutEvent::isLock)
 *         .classifyOutput("unlocked", LockoutEvent::isUnlock)
 *         .classifyState("failures pending", state -> !state.keys().isEmpty())
 *         .target("unlocked")             // feedback-directed generation (the default) goes after it
 *         .cover("unlocked", 20)          // fails the property when fewer than 20% of tries reach it
 *         .check(run -> everyLockIsFollowedByItsUnlock(run));
 * result.assertPassed();
 * System.out.println(result.coverage().format());
 * }</pre>
 *
 * @param <K> the query's key type
 * @param <I> input row type
 * @param <O> output row type
 */
public final class QueryProperty<K, I, O> {
    private final Property property;
    private final TwsQuery<K, I, O> query;
    private final EventFactory<? extends I> factory;
    private final List<Classifier<K, I, O>> classifiers;
    /** Whether a derived try that only adds steps goes on from its parent's simulator ({@link LiveRun}). */
    private final boolean continueRuns;

    /** One user label and when a run reaches it. */
    private record Classifier<K, I, O>(String label, Predicate<RunResult<K, I, O>> onRun,
            Predicate<StateView<K>> onState) {}

    QueryProperty(Property property, TwsQuery<K, I, O> query, EventFactory<? extends I> factory,
            List<Classifier<K, I, O>> classifiers) {
        this(property, query, factory, classifiers, true);
    }

    private QueryProperty(Property property, TwsQuery<K, I, O> query, EventFactory<? extends I> factory,
            List<Classifier<K, I, O>> classifiers, boolean continueRuns) {
        this.property = property;
        this.query = query;
        this.factory = factory;
        this.classifiers = List.copyOf(classifiers);
        this.continueRuns = continueRuns;
    }

    private QueryProperty<K, I, O> with(Property p) {
        return new QueryProperty<>(p, query, factory, classifiers, continueRuns);
    }

    /** With {@code false}, every try runs its whole scenario on a new simulator (to compare with going on from a parent's). */
    QueryProperty<K, I, O> continueRuns(boolean on) {
        return new QueryProperty<>(property, query, factory, classifiers, on);
    }

    private QueryProperty<K, I, O> adding(Classifier<K, I, O> c) {
        List<Classifier<K, I, O>> all = new ArrayList<>(classifiers);
        all.add(c);
        return new QueryProperty<>(property.declare(c.label()), query, factory, all, continueRuns);
    }

    /** A try reaches {@code label} when {@code test} holds for its run (every batch it committed and every failure). */
    public QueryProperty<K, I, O> classify(String label, Predicate<RunResult<K, I, O>> test) {
        Objects.requireNonNull(test, "test must not be null");
        return adding(new Classifier<>(requireLabel(label), test, null));
    }

    /** A try reaches {@code label} when any output row of its run satisfies {@code test}. */
    public QueryProperty<K, I, O> classifyOutput(String label, Predicate<? super O> test) {
        Objects.requireNonNull(test, "test must not be null");
        return classify(label, run -> run.outputs().stream().anyMatch(test));
    }

    /** A try reaches {@code label} when {@code test} holds for the (first operator's) state after any committed batch. */
    public QueryProperty<K, I, O> classifyState(String label, Predicate<StateView<K>> test) {
        Objects.requireNonNull(test, "test must not be null");
        return adding(new Classifier<>(requireLabel(label), null, test));
    }

    /** {@code offered} when this property ran it and {@code scenario} only adds steps to its scenario; else null. */
    @SuppressWarnings("unchecked")
    private LiveRun<K, I, O> continuable(LiveRun<?, ?, ?> offered, GenScenario scenario) {
        if (!continueRuns || offered == null || offered.owner() != this || !scenario.extendsScenario(offered.scenario())) {
            return null;
        }
        return (LiveRun<K, I, O>) offered;
    }

    private static String requireLabel(String label) {
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("a label must be a non-blank name, e.g. classify(\"locked\", run -> ...)");
        }
        return label;
    }

    /** See {@link Property#cover}. */
    public QueryProperty<K, I, O> cover(String label, double percent) {
        return with(property.cover(label, percent));
    }

    /** See {@link Property#target}. */
    public QueryProperty<K, I, O> target(String label) {
        return with(property.target(label));
    }

    /** See {@link Property#weights}. */
    public QueryProperty<K, I, O> weights(double... perVariant) {
        return with(property.weights(perVariant));
    }

    /** See {@link Property#generation}; feedback-directed by default. */
    public QueryProperty<K, I, O> generation(Generation generation) {
        return with(property.generation(generation));
    }

    /** Feedback-directed generation (the default here). */
    public QueryProperty<K, I, O> feedback() {
        return generation(Generation.FEEDBACK);
    }

    /** Uniform random generation. */
    public QueryProperty<K, I, O> uniform() {
        return generation(Generation.UNIFORM);
    }

    /**
     * Runs the tries: each scenario through a new simulator of the query, then the labels, then
     * {@code check} on the run (empty for a pass, else what went wrong). A run that throws fails
     * the try. The first failure is shrunk.
     */
    public PropertyResult check(Function<RunResult<K, I, O>, Optional<String>> check) {
        Objects.requireNonNull(check, "check must not be null");
        return property.checkTries(t -> check.apply(run(t)));
    }

    /**
     * The run of one try, labelled. A derived try whose scenario only adds steps to its parent's
     * goes on from the parent's simulator and recorder: the same run, for the added steps' cost.
     */
    private RunResult<K, I, O> run(PropertyTry t) {
        LiveRun<K, I, O> parent = continuable(t.takeOffered(), t.scenario());
        TwsSimulator<K, I, O> simulator;
        CoverageRecorder<K, I, O> recorder;
        RunResult<K, I, O> run;
        if (parent != null) {
            simulator = parent.simulator();
            recorder = parent.recorder();
            t.adopt(recorder);
            run = parent.then(simulator.run(t.scenario().toScenario(factory, parent.scenario().steps().size())));
        } else {
            recorder = t.listener(query);
            for (Classifier<K, I, O> c : classifiers) {
                if (c.onState() != null) {
                    recorder.labelWhenState(c.label(), c.onState());
                }
            }
            simulator = t.simulator(query, recorder);
            run = simulator.run(t.scenario().toScenario(factory));
        }
        t.keepLive(new LiveRun<>(this, t.scenario(), simulator, recorder, run));
        for (Classifier<K, I, O> c : classifiers) {
            if (c.onRun() != null && c.onRun().test(run)) {
                t.label(c.label());
            }
        }
        return run;
    }
}
