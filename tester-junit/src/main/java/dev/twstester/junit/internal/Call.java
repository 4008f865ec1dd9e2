package dev.twstester.junit.internal;

import java.util.List;

import dev.twstester.BatchResult;
import dev.twstester.Scenario;

/**
 * Internal, not API: may change in any release.
 *
 * <p>One recorded call on a simulator and what it did.
 *
 * @param number        1-based position in the simulator's timeline
 * @param description   the call as written, e.g. {@code runBatch(3 rows)}
 * @param steps         the scenario steps that replay it on live Spark (empty when it has none)
 * @param notReplayable why it cannot be replayed on live Spark, or null when it can
 * @param batches       the micro-batches it ran (those that committed)
 * @param changes       the state changes from before the call to after it
 * @param error         what it threw, or null
 * @param unrecorded    true for batches run on the underlying simulator directly, found afterwards
 */
public record Call<K, I, O>(int number, String description, List<Scenario.Step<I>> steps, String notReplayable,
        List<BatchResult<K, I, O>> batches, List<StateChange> changes, RuntimeException error, boolean unrecorded) {
    public Call {
        steps = List.copyOf(steps);
        batches = List.copyOf(batches);
        changes = List.copyOf(changes);
    }
}
