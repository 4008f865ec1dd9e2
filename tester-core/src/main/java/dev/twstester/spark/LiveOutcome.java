package dev.twstester.spark;

import dev.twstester.RunResult;
import dev.twstester.sim.StateSnapshot;

/**
 * A live run ({@link LiveRunner#runWithEndState}) and the state its checkpoint holds after it.
 *
 * @param run      the batches Spark ran
 * @param endState the operator's state as the last batch committed it (read with
 *                 {@link CheckpointState}); empty when no batch ran
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public record LiveOutcome<K, I, O>(RunResult<K, I, O> run, StateSnapshot endState) {}
