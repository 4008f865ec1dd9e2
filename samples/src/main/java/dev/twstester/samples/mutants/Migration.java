package dev.twstester.samples.mutants;

import java.util.Optional;
import java.util.function.Function;

import dev.twstester.RunComparison;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.property.EventFactory;
import dev.twstester.property.GenScenario;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;

/**
 * The migration check a user writes before deploying a new version: the same generated scenario on
 * the version in production and on the new one, outputs compared batch by batch (as multisets per
 * batch; fired timers and metrics left out) with {@link RunComparison}, then the end states (state
 * and timers, key by key) when both versions keep the same state.
 *
 * <pre>{@code
 * UserProperty<String, CartEvent, CartAlert> p = Migration.property("cart_watch migration",
 *         CartWatch.query(), generator, events, true);
 * p.check(CartWatch.query(RefactoredCartWatch::new), p.property().scenario(7L));
 * }</pre>
 */
public final class Migration {
    private static final RunComparison<Object> OUTPUTS = RunComparison.between("old", "new").ordered(false)
            .ignoring(RunDifference.Aspect.FIRED_TIMERS, RunDifference.Aspect.METRICS);

    private Migration() {}

    /**
     * The property that a new version of {@code old} answers as {@code old} does; with
     * {@code compareState} its end state must be the same too (for versions that keep the same
     * state variables; a port to another API keeps other ones).
     */
    public static <K, I, O> UserProperty<K, I, O> property(String name, TwsQuery<K, I, O> old,
            ScenarioGenerator generator, EventFactory<I> events, boolean compareState) {
        return property(name, old, old, generator, events, compareState);
    }

    /**
     * The property that a new version answers as {@code old} does, where the correct new version is
     * {@code correct} (a port of {@code old} to another API, say).
     */
    public static <K, I, O> UserProperty<K, I, O> property(String name, TwsQuery<K, I, O> old, TwsQuery<K, I, O> correct,
            ScenarioGenerator generator, EventFactory<I> events, boolean compareState) {
        return new UserProperty<>(name, generator, events, correct,
                (candidate, scenario, simulators) -> compare(old, candidate, scenario, simulators, events, compareState));
    }

    private static <K, I, O> Optional<String> compare(TwsQuery<K, I, O> old, TwsQuery<K, I, O> candidate,
            GenScenario scenario, Function<TwsQuery<K, I, O>, TwsSimulator<K, I, O>> simulators, EventFactory<I> events,
            boolean compareState) {
        TwsSimulator<K, I, O> before = new TwsSimulator<>(scenario.applyTo(old));
        TwsSimulator<K, I, O> after = simulators.apply(candidate);
        RunResult<K, I, O> oldRun = before.run(scenario.toScenario(events));
        RunResult<K, I, O> newRun;
        try {
            newRun = after.run(scenario.toScenario(events));
        } catch (RuntimeException e) {
            return Optional.of("the new version failed where the old one ran: " + e);
        }
        Optional<String> outputs = OUTPUTS.firstDifference(oldRun, newRun).map(RunDifference::message);
        if (outputs.isPresent() || !compareState) {
            return outputs;
        }
        StateSnapshot oldEnd = before.snapshot();
        return OUTPUTS.stateDifferences(oldEnd, after.snapshot()).stream().findFirst().map(RunDifference::message);
    }
}
