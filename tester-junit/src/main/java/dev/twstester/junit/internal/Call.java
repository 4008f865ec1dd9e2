package dev.twstester.junit.internal;

import java.util.List;

import dev.twstester.BatchResult;
import dev.twstester.Scenario;

/**
 * Internal, not API: may change in any release.
 *
 * <p>One recorded call on a simulator and what it did.
 *
 * @param number         1-based position in the simulator's timeline
 * @param description    the call as written, e.g. {@code runBatch(3 rows)}
 * @param steps          the scenario steps that replay it on live Spark (empty when it has none)
 * @param notReplayable  why it cannot be replayed on live Spark, or null when it can
 * @param committed      the micro-batches it ran (those that committed) and kept, each with the state changes it made
 * @param leftOut        its earlier batches not kept ({@code keepHistory = false}) and their changes together
 * @param changes        the state changes from before the call to after it, every operator's
 * @param trailing       the state changes after its last batch (all of them when it ran none), e.g. a state write
 * @param newVersion     the query a {@code restartWith} deployed, described; null for other calls
 * @param error          what it threw, or null
 */
public record Call<K, I, O>(int number, String description, List<Scenario.Step<I>> steps, String notReplayable,
        List<Committed<K, I, O>> committed, LeftOut leftOut, List<StateChange> changes, List<StateChange> trailing,
        String newVersion, RuntimeException error) {
    public Call {
        steps = List.copyOf(steps);
        committed = List.copyOf(committed);
        changes = List.copyOf(changes);
        trailing = List.copyOf(trailing);
    }

    /**
     * A batch a call ran.
     *
     * @param batch   the batch
     * @param changes the state changes from the state before it (after the batch or call before) to after it
     */
    public record Committed<K, I, O>(BatchResult<K, I, O> batch, List<StateChange> changes) {
        public Committed {
            changes = List.copyOf(changes);
        }
    }

    /**
     * The first batches of a call that were not kept, and the state changes they made together.
     *
     * @param batches how many
     * @param changes from before the first of them to after the last, every operator's
     */
    public record LeftOut(int batches, List<StateChange> changes) {
        static final LeftOut NONE = new LeftOut(0, List.of());

        public LeftOut {
            changes = List.copyOf(changes);
        }

        /** These and one more batch, which made {@code more}; {@code keys} encode each operator's keys. */
        LeftOut and(List<StateChange> more, List<dev.twstester.io.EncoderRows<?>> keys) {
            return new LeftOut(batches + 1, StateChanges.compose(changes, more, keys));
        }
    }

    /** The batches it ran and kept, in order. */
    public List<BatchResult<K, I, O>> batches() {
        return committed.stream().map(Committed::batch).toList();
    }
}
