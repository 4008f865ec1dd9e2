package dev.twstester.samples.mutants;

import java.util.Objects;
import java.util.Optional;

import dev.twstester.TwsQuery;
import dev.twstester.property.GenScenario;
import dev.twstester.property.PropertyTry;

/**
 * A seeded bug: a query running a mutant of a sample processor, with the property of that
 * processor a user would write ({@link UserProperty}). The benchmark counts the tries the property
 * needs to fail on it.
 *
 * <pre>{@code
 * Mutant<String, CartEvent, CartAlert> m = new Mutant<>("CartCheckoutKeepsTimer", CartCheckoutKeepsTimer.BUG,
 *         CartWatch.query(CartCheckoutKeepsTimer::new), CartWatchProperties.invariants());
 * m.check(m.property().property().scenario(3L));   // the failure, or empty
 * }</pre>
 *
 * @param name     the mutant's class name
 * @param bug      the bug, in one line
 * @param query    the query running the mutant
 * @param property the property that should find it
 */
public record Mutant<K, I, O>(String name, String bug, TwsQuery<K, I, O> query, UserProperty<K, I, O> property) {
    public Mutant {
        Objects.requireNonNull(name, "name must not be null");
        Objects.requireNonNull(bug, "bug must not be null");
        Objects.requireNonNull(query, "query must not be null");
        Objects.requireNonNull(property, "property must not be null");
    }

    /** Empty when the mutant keeps the property on {@code scenario}; else the property's failure. */
    public Optional<String> check(GenScenario scenario) {
        return property.check(query, scenario);
    }

    /** {@link #check(GenScenario)} on a try of the property engine, which records what the run did. */
    public Optional<String> check(PropertyTry t) {
        return property.check(query, t);
    }
}
