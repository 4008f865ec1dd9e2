package dev.twstester.samples.mutants;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import dev.twstester.TwsQuery;
import dev.twstester.property.EventFactory;
import dev.twstester.property.GenScenario;
import dev.twstester.property.Property;
import dev.twstester.property.PropertyTry;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.sim.TwsSimulator;

/**
 * The property a user writes for one sample processor: the generator they would configure from its
 * time mode, keys, event kinds and durations, how a generated event becomes a row, the correct
 * query, and the check a version of the query must pass on a generated scenario (an
 * {@link Invariants invariant over the run}, or a {@link Migration migration check} against the
 * correct version). The benchmark runs each mutant through the property of its processor.
 *
 * <pre>{@code
 * UserProperty<String, CartEvent, CartAlert> p = CartWatchProperties.invariants();
 * Optional<String> broken = p.check(CartWatch.query(), p.property().scenario(42L));   // empty: holds
 * }</pre>
 *
 * @param name      what the property says, e.g. "cart_watch invariants"
 * @param generator the scenarios, as a user configures them for the processor
 * @param events    a generated event as an input row
 * @param correct   the correct query, which must pass
 * @param check     empty when {@code candidate} keeps the property on the scenario, else what broke
 * @param <K>       the first operator's key
 * @param <I>       input rows
 * @param <O>       the query's outputs
 */
public record UserProperty<K, I, O>(String name, ScenarioGenerator generator, EventFactory<I> events,
        TwsQuery<K, I, O> correct, UserProperty.Check<K, I, O> check) {
    public UserProperty {
        Objects.requireNonNull(name, "name must not be null");
        Objects.requireNonNull(generator, "generator must not be null");
        Objects.requireNonNull(events, "events must not be null");
        Objects.requireNonNull(correct, "correct must not be null");
        Objects.requireNonNull(check, "check must not be null");
    }

    /** The property over this generator's scenarios, before a generation mode and a seed are set. */
    public Property property() {
        return Property.forAll(generator);
    }

    /**
     * The check of a version on a scenario: empty when {@code candidate} keeps the property, else what
     * broke. {@code simulators} makes the simulator of the version under test as the scenario asks,
     * with the try's coverage recorder when the property engine runs it (the feedback-directed
     * generation steers by what it records).
     */
    @FunctionalInterface
    public interface Check<K, I, O> {
        Optional<String> apply(TwsQuery<K, I, O> candidate, GenScenario scenario,
                Function<TwsQuery<K, I, O>, TwsSimulator<K, I, O>> simulators);
    }

    /** Empty when {@code candidate} keeps the property on {@code scenario}, else what broke. */
    public Optional<String> check(TwsQuery<K, I, O> candidate, GenScenario scenario) {
        return check.apply(candidate, scenario, q -> new TwsSimulator<>(scenario.applyTo(q)));
    }

    /** {@link #check(TwsQuery, GenScenario)} on a try of the property engine, which records what the run did. */
    public Optional<String> check(TwsQuery<K, I, O> candidate, PropertyTry t) {
        return check.apply(candidate, t.scenario(), t::simulator);
    }
}
