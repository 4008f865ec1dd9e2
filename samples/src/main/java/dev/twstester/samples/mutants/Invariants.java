package dev.twstester.samples.mutants;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.property.EventFactory;
import dev.twstester.property.GenScenario;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.sim.TwsSimulator;

/**
 * A property made of invariants: the version under test runs the generated scenario on the
 * simulator, must not fail, and must keep every {@link Invariant}, checked in order.
 *
 * <pre>{@code
 * UserProperty<String, CartEvent, CartAlert> p = Invariants.property("cart_watch invariants",
 *         CartWatch.query(), generator, events, List.of(noEmptyCarts, flaggedOnlyWhenIdle));
 * }</pre>
 */
public final class Invariants {
    private Invariants() {}

    /** The property that {@code invariants} hold on every run of a version of {@code correct}. */
    public static <K, I, O> UserProperty<K, I, O> property(String name, TwsQuery<K, I, O> correct,
            ScenarioGenerator generator, EventFactory<I> events, List<Invariant<K, I, O>> invariants) {
        List<Invariant<K, I, O>> all = List.copyOf(invariants);
        return new UserProperty<>(name, generator, events, correct,
                (candidate, scenario, simulators) -> check(candidate, scenario, simulators, events, all));
    }

    private static <K, I, O> Optional<String> check(TwsQuery<K, I, O> candidate, GenScenario scenario,
            Function<TwsQuery<K, I, O>, TwsSimulator<K, I, O>> simulators, EventFactory<I> events,
            List<Invariant<K, I, O>> invariants) {
        TwsSimulator<K, I, O> sim = simulators.apply(candidate);
        RunResult<K, I, O> run;
        try {
            run = sim.run(scenario.toScenario(events));
        } catch (RuntimeException e) {
            return Optional.of("the run failed: " + e);
        }
        for (Invariant<K, I, O> invariant : invariants) {
            Optional<String> broken = invariant.check(run, sim);
            if (broken.isPresent()) {
                return broken;
            }
        }
        return Optional.empty();
    }
}
