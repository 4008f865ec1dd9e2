package dev.twstester.cli;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.sim.StateDump;

/**
 * Where a replay writes what happened (stdout): {@link TextReport} for people, {@link JsonReport}
 * for tools (one JSON object per batch).
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
interface Report<K, I, O> {
    /** Before the first batch. */
    void start(String queryName, ReplayPlan plan);

    /**
     * A file without a value in the watermark column on any row, found before the first batch ran
     * (and already on stderr); right after {@link #start}.
     */
    void warning(EventInputs.Warning warning);

    /**
     * One batch the simulator ran; {@code states} (or null) is every key's state after it, one dump
     * per stateful operator in plan order.
     */
    void batch(BatchResult<K, I, O> batch, BatchCause cause, List<StateDump<?>> states);

    /**
     * The query started again from its checkpoint (a plan's {@code start} step, or the second half
     * of {@code restart}): {@code nextBatchId}, the watermark and processing time carry over; its
     * first trigger reads the {@code waitingRows} rows added meanwhile (reported next as a batch),
     * and with none no batch runs until the next input.
     */
    void restart(long nextBatchId, Instant watermark, Instant processingTime, int waitingRows);

    /**
     * A batch failed and stopped the query, and the replay goes on (a later {@code start} or
     * {@code deploy} step runs it again): {@code message} is the error, as a failure's line has it;
     * {@code cause} what ran the batch.
     */
    void failedBatch(FailedBatch failed, BatchCause cause, String message);

    /**
     * A plan's {@code deploy} step: the query stopped and {@code version} started on its checkpoint;
     * its first trigger runs {@code rerun} again (a failed batch's id, or null) and then reads the
     * {@code waitingRows} rows added meanwhile (those batches are reported next).
     */
    void deploy(String version, long nextBatchId, Long rerun, int waitingRows);

    /** The query stopped (a plan's {@code stop} step that a {@code start} does not follow at once). */
    void stop(Instant processingTime);

    /** A clock tick that ran no batch: {@code why} says why (no trigger then, stopped, nothing to run). */
    void tickWithoutBatch(Instant to, String why);

    /** An add step whose {@code rows} wait in the source ({@code waiting} in all), for the reason {@code why}. */
    void addWithoutBatch(String file, int rows, int waiting, String why);

    /**
     * After the last batch: what the batches added up to and where the simulator stands;
     * {@code keysWithState} has each operator's keys with state or timers, in plan order;
     * {@code pendingNoDataBatchAt} (or null) is the trigger time of a no-data batch the last batch
     * asked for, which the replay ended before (EventTime and None mode only).
     */
    void end(Replay.Totals totals, int files, Instant watermark, Instant processingTime, List<List<?>> keysWithState,
            Instant pendingNoDataBatchAt);

    /**
     * The simulator's run compared with another ({@code otherName}: {@code spark} or {@code expected});
     * {@code causes} labels the other run's batches by batch id; {@code endState} is the comparison
     * of the two runs' end states ({@code --live}), or null when the other run has none ({@code --expect}).
     */
    void comparison(String otherName, String otherTitle, RunResult<K, I, O> other, List<RunDifference> differences,
            Map<Long, BatchCause> causes, EndState endState);

    /**
     * The end states of a {@code --live} replay compared: the simulator's {@code snapshot()} after
     * its last step against the state live Spark's checkpoint holds after the same steps, key by key
     * ({@code RunComparison#stateDifferences}), or why they were not compared.
     *
     * @param afterBatch  the last batch both runs ran (-1 when none ran)
     * @param keys        the keys the simulator ended with state or timers for
     * @param differences the differences found, in {@code stateDifferences}' order (empty when the
     *                    states are the same or were not compared)
     * @param notCompared why the end states were not compared, or null when they were
     */
    record EndState(long afterBatch, int keys, List<RunDifference> differences, String notCompared) {
        public EndState {
            differences = List.copyOf(differences);
        }

        static EndState compared(long afterBatch, int keys, List<RunDifference> differences) {
            return new EndState(afterBatch, keys, differences, null);
        }

        static EndState notCompared(String why) {
            return new EndState(-1, 0, List.of(), why);
        }

        boolean compared() {
            return notCompared == null;
        }

        boolean same() {
            return differences.isEmpty();
        }
    }
}
