package dev.twstester.samples.mutants;

import java.util.Optional;

import dev.twstester.RunResult;
import dev.twstester.sim.TwsSimulator;

/**
 * One rule a run of a query must keep, over its batches (outputs, fired timers, watermarks) and the
 * simulator it ran on (the end state and timers). {@link Invariants} checks several on a generated
 * scenario.
 *
 * <pre>{@code
 * Invariant<String, CartEvent, CartAlert> noEmptyCarts = (run, sim) -> run.outputs().stream()
 *         .filter(a -> a.getItemCount() == 0).findFirst().map(a -> "an alert for an empty cart: " + a);
 * }</pre>
 *
 * @param <K> the first operator's key
 * @param <I> input rows
 * @param <O> the query's outputs
 */
@FunctionalInterface
public interface Invariant<K, I, O> {
    /** Empty when the run keeps the rule, else what broke it. */
    Optional<String> check(RunResult<K, I, O> run, TwsSimulator<K, I, O> end);
}
