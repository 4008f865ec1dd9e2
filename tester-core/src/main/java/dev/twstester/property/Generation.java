package dev.twstester.property;

/**
 * How the property engine makes each try's scenario.
 *
 * <pre>{@code
 * Property.forAll(generator).generation(Generation.UNIFORM).runs(query, factory).check(run -> ...);
 * }</pre>
 */
public enum Generation {
    /** Every try is the generator's scenario for its own try seed, independent of the others. */
    UNIFORM,
    /**
     * Tries that reached new coverage (new labels, features, per-key handler sequences) are kept in
     * a corpus, and most later tries are derived from them: extended, spliced, advanced past their
     * pending timers or across the interesting durations, given late rows, restarts and clock gaps.
     * Needs the coverage the engine records ({@link Property#runs} or {@link Property#checkTries}).
     */
    FEEDBACK
}
