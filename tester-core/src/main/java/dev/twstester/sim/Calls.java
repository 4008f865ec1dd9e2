package dev.twstester.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunResult;

/**
 * The public calls of one {@link TwsSimulator}: each runs its batches, each kept in the history as it
 * commits (unless built with {@code keepHistory(false)}), and, when it is the outermost call (a
 * scenario's steps are calls too), is told to the listeners with what it ran or threw.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
final class Calls<K, I, O> {
    private final Listeners<K, I, O> listeners;
    private final boolean keepHistory;
    private final List<BatchResult<K, I, O>> history = new ArrayList<>();
    /** Every batch that failed, kept whatever {@code keepHistory} says (a failure stops the query). */
    private final List<FailedBatch> failures = new ArrayList<>();
    /** How deep in calls on the simulator we are: only the outermost call is reported and kept. */
    private int depth;
    /** Where a scenario's run collects every batch that commits, or null ({@link #recordInto}). */
    private List<BatchResult<K, I, O>> recorder;

    Calls(Listeners<K, I, O> listeners, boolean keepHistory) {
        this.listeners = listeners;
        this.keepHistory = keepHistory;
    }

    /** Runs a call whose {@code body} runs batches, described by {@code describe} for the listeners. */
    RunResult<K, I, O> run(Supplier<SimulatorCall<I>> describe, Supplier<List<BatchResult<K, I, O>>> body) {
        boolean outermost = depth == 0;
        SimulatorCall<I> call = outermost && !listeners.isEmpty() ? describe.get() : null;
        if (call != null) {
            listeners.callStarted(call);
        }
        List<BatchResult<K, I, O>> batches;
        int failedBefore = failures.size();
        depth++;
        try {
            batches = body.get();
        } catch (RuntimeException e) {
            if (call != null) {
                listeners.callEnded(call, new RunResult<>(List.of()), e);
            }
            throw e;
        } finally {
            depth--;
        }
        RunResult<K, I, O> ran = new RunResult<>(batches,
                failures.size() == failedBefore ? List.of() : failures.subList(failedBefore, failures.size()));
        if (call != null) {
            listeners.callEnded(call, ran, null);
        }
        return ran;
    }

    /** A call that runs no batch of this simulator and returns {@code value}'s result. */
    <R> R value(Supplier<SimulatorCall<I>> describe, Supplier<R> value) {
        List<R> result = new ArrayList<>(1);
        run(describe, () -> {
            result.add(value.get());
            return List.of();
        });
        return result.get(0);
    }

    /**
     * Runs {@code body} as part of the call running now on another simulator (a scenario's steps
     * after a deploy step run on the new version's simulator): its calls are not reported on their own.
     */
    <R> R nested(Supplier<R> body) {
        depth++;
        try {
            return body.get();
        } finally {
            depth--;
        }
    }

    /**
     * Adds every batch that commits from now on to {@code sink} (null: stops): a scenario's run
     * keeps the batches a step committed before a batch of it failed.
     */
    void recordInto(List<BatchResult<K, I, O>> sink) {
        this.recorder = sink;
    }

    /** Every batch kept so far. */
    List<BatchResult<K, I, O>> history() {
        return history;
    }

    /** Every batch that failed so far. */
    List<FailedBatch> failures() {
        return failures;
    }

    /** Keeps a failed batch and tells the listeners. */
    void failed(FailedBatch failed, TwsSimulator<K, I, O> simulator) {
        failures.add(failed);
        if (!listeners.isEmpty()) {
            listeners.batchFailed(failed, simulator);
        }
    }

    /** Tells the listeners that {@code next} now runs the new version of the query. */
    void restartedWith(TwsSimulator<K, I, O> next) {
        if (!listeners.isEmpty()) {
            listeners.restartedWith(next);
        }
    }

    /**
     * Keeps a committed batch in the history (when kept), as it commits: a call that fails later
     * leaves the batches it committed before the failure there; and tells the listeners.
     */
    void committed(BatchResult<K, I, O> batch, TwsSimulator<K, I, O> simulator) {
        if (keepHistory) {
            history.add(batch);
        }
        if (recorder != null) {
            recorder.add(batch);
        }
        if (!listeners.isEmpty()) {
            listeners.batchCommitted(batch, simulator);
        }
    }
}
