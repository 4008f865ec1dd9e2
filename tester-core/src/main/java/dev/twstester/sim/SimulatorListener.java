package dev.twstester.sim;

import java.util.List;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunResult;

/**
 * Sees what a {@link TwsSimulator} does, as it does it: each call made on it (with the
 * {@link dev.twstester.Scenario} steps it stands for), each handler call of each task, and each
 * micro-batch once it is committed. Given to {@link TwsSimulator.Builder#listener}; kept by a
 * simulator that {@link TwsSimulator#restartWith} deploys. Every method does nothing by default.
 *
 * <pre>{@code
 * List<Long> committed = new ArrayList<>();
 * TwsSimulator<String, CartEvent, CartAlert> sim = TwsSimulator.builder(CartWatch.query())
 *         .listener(new SimulatorListener<>() {
 *             @Override
 *             public void batchCommitted(BatchResult<String, CartEvent, CartAlert> batch,
 *                     TwsSimulator<String, CartEvent, CartAlert> simulator) {
 *                 committed.add(batch.batchId());          // simulator.state() shows the state after it
 *             }
 *         })
 *         .build();
 * }</pre>
 *
 * A listener runs on the simulator's thread, inside the call; an exception it throws fails that
 * call. It must not call the simulator's methods that run batches.
 *
 * @param <K> the query's grouping key type (its first operator's)
 * @param <I> input row type
 * @param <O> output row type
 */
public interface SimulatorListener<K, I, O> {
    /** A call on the simulator starts (calls it makes itself, such as a scenario's steps, are not reported). */
    default void callStarted(SimulatorCall<I> call) {
    }

    /**
     * The call ended: {@code ran} holds the batches it ran, {@code failure} what it threw (null when
     * it returned normally).
     */
    default void callEnded(SimulatorCall<I> call, RunResult<K, I, O> ran, RuntimeException failure) {
    }

    /** A handler is about to be called. */
    default void handlerStarting(HandlerCall call) {
    }

    /** A handler returned and its iterator was drained: {@code emitted} are the rows, as delivered. */
    default void handlerEnded(HandlerCall call, List<?> emitted) {
    }

    /**
     * {@link TwsSimulator#restartWith} deployed {@code next}, the simulator of the new version, which
     * keeps these listeners: told once {@code next} holds the checkpoint's state, before its first
     * trigger runs, inside the {@code restartWith} call. Later calls on {@code next} are reported
     * like calls on the simulator that deployed it; read the new version's state through {@code next}.
     */
    default void restartedWith(TwsSimulator<K, I, O> next) {
    }

    /**
     * A micro-batch was committed (by every operator); {@code simulator} already shows its state,
     * clock and watermark. A batch that fails is reported to {@link #batchFailed} instead; its run
     * at a later start, when it commits, is reported here with the same batch id.
     */
    default void batchCommitted(BatchResult<K, I, O> batch, TwsSimulator<K, I, O> simulator) {
    }

    /**
     * A micro-batch failed: its state changes are rolled back, the query is stopped, and
     * {@code simulator}'s next start runs the batch again first (see docs/faults.md). Told before
     * the exception leaves the call, which {@link #callEnded} then reports.
     */
    default void batchFailed(FailedBatch failed, TwsSimulator<K, I, O> simulator) {
    }
}
