package dev.twstester;

import java.util.List;

/**
 * A query's state at the end of a run, as its checkpoint holds it: each operator's state and
 * timers, the watermarks and the next batch id. What {@link RunComparison#stateDifferences}
 * compares; {@code dev.twstester.sim.StateSnapshot} is one (taken from the simulator, or read from
 * a Spark checkpoint by {@code dev.twstester.spark.CheckpointState}).
 */
public interface EndState {
    /** The id the next batch gets: the last batch's plus one. */
    long nextBatchId();

    /**
     * Every way this state differs from {@code other}'s: the next batch id and the watermarks,
     * then per operator each variable's data key by key in Spark's key order, then timers key by key.
     *
     * @throws IllegalArgumentException when {@code other} is not the same kind of end state
     */
    List<StateDifference> differencesTo(EndState other);
}
