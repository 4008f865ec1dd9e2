package dev.twstester.sim;

/**
 * How faithfully a {@link TwsSimulator} treats objects.
 *
 * <pre>{@code
 * new TwsSimulator<>(query);                    // FULL, the default
 * new TwsSimulator<>(query, Fidelity.FAST);     // objects by reference, like Spark's TwsTester
 * }</pre>
 */
public enum Fidelity {
    /**
     * As Spark: inputs, state values and outputs go through the query's encoders, so stored state
     * is a copy, reads return new objects, and an object the encoder cannot take fails as in Spark.
     */
    FULL,
    /**
     * Inputs, state values and outputs are kept by reference, as Spark's {@code TwsTester} keeps
     * them: mutating an object after {@code update} changes the stored state, outputs are the
     * returned objects, and encoder checks (nulls in beans, unsupported types) do not run. Each
     * batch gets a new processor from the query's supplier instead of a deserialized copy of the
     * driver's instance (so fields set in the driver-side {@code init} and transient fields'
     * initial values differ from Spark, and a processor Spark cannot serialize does not fail). A
     * batch's {@code input()} is a read-only view of the list passed in, and {@code test(key, rows)}
     * checks the key of the first and last row only. Batch
     * semantics, timers, TTL, errors of the state API and every order (keys, timer ties, MapState
     * iteration) stay as Spark's: keys and map keys are still encoded to compute them.
     */
    FAST
}
