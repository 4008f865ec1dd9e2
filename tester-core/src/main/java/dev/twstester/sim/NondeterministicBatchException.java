package dev.twstester.sim;

/**
 * Thrown by a simulator built with {@link TwsSimulator.Builder#checkRetries()} when a batch run
 * twice from the same committed state, as Spark runs a retried task, emits different rows or
 * leaves different state or timers. The message names the batch and the key. Nothing of the batch
 * is kept.
 *
 * <pre>{@code
 * TwsSimulator<String, Event, Alert> sim = TwsSimulator.builder(query).checkRetries().build();
 * sim.runBatch(events);   // throws if the processor reads the wall clock, say
 * }</pre>
 */
public final class NondeterministicBatchException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    NondeterministicBatchException(String message) {
        super(message);
    }
}
