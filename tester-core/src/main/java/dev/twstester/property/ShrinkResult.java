package dev.twstester.property;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Shrinker#shrink} did.
 *
 * <pre>{@code
 * ShrinkResult r = Shrinker.create().shrink(failing, s -> check.apply(s).isPresent());
 * r.shrunk().eventCount();   // e.g. 2, down from r.original().eventCount() == 17
 * r.steps();                 // ["dropped steps 4-7", "dropped all events of key c", ...]
 * }</pre>
 *
 * @param original        the scenario shrinking started from
 * @param shrunk          the smallest failing scenario found ({@code original} if nothing smaller fails)
 * @param attempts        how many candidates the predicate was called with
 * @param steps           the reductions kept, in order
 * @param budgetExhausted true when the attempt budget ran out before a fixpoint was reached
 */
public record ShrinkResult(GenScenario original, GenScenario shrunk, int attempts, List<String> steps,
        boolean budgetExhausted) {
    public ShrinkResult {
        Objects.requireNonNull(original, "original must not be null");
        Objects.requireNonNull(shrunk, "shrunk must not be null");
        steps = List.copyOf(steps);
    }
}
