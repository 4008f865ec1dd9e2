package dev.twstester.sim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import dev.twstester.BatchResult;

/**
 * One micro-batch of the query, through every stateful operator in plan order, as Spark's
 * {@code MicroBatchExecution} runs it: the batch is written to the offset log
 * ({@link Checkpoint#plan}), each operator's tasks run on the previous operator's outputs (the first
 * on the source's rows), and the batch commits in every operator and the commit log, or (when any
 * operator throws) in none. Every operator shares the batch's id and timestamp, and the query's two
 * watermarks reach every operator up to the first that passes none on: a {@code transformWithState}
 * in EventTime or None mode passes its input watermark on unchanged, one in ProcessingTime mode and
 * a legacy function none, so the operators after them run with 0 ({@link Operator#passesWatermarkOn}).
 * With {@code checkRetries()} the batch runs twice from the same committed state, as a retried task
 * would, and the two runs must agree.
 *
 * @param <K> the query's grouping key type (its first operator's)
 * @param <I> input row type
 * @param <O> output row type
 */
final class BatchExecution<K, I, O> {
    private final List<Operator<?, ?, ?>> operators;
    private final Checkpoint checkpoint;
    private final SimulatorOptions options;
    private final long delayMs;
    /** Spark's refusal of this version of the query, thrown by its every batch; null when accepted. */
    private RuntimeException refusal;
    /** With a refusal: the checkpoint's state, kept as it was for the next version. */
    private List<StateSnapshot.OperatorData> refusedCheckpoint;

    BatchExecution(List<Operator<?, ?, ?>> operators, Checkpoint checkpoint, SimulatorOptions options, long delayMs) {
        this.operators = List.copyOf(operators);
        this.checkpoint = checkpoint;
        this.options = options;
        this.delayMs = delayMs;
    }

    /**
     * Spark refuses this version of the query on {@code checkpoint}'s state: it fails each batch it
     * runs with {@code error}, as Spark fails the first batch of a run that plans the refused
     * operator, and the state stays the checkpoint's for a fixed version or a rollback.
     */
    void refuse(RuntimeException error, List<StateSnapshot.OperatorData> checkpoint) {
        this.refusal = error;
        this.refusedCheckpoint = List.copyOf(checkpoint);
    }

    /** The checkpoint's state when this version is refused ({@link #refuse}), else null. */
    List<StateSnapshot.OperatorData> refusedCheckpoint() {
        return refusedCheckpoint;
    }

    /** Every operator, in plan order. */
    List<Operator<?, ?, ?>> operators() {
        return operators;
    }

    /**
     * Runs the next micro-batch on {@code rows} and commits it; on failure its state changes are
     * rolled back, it stays in the offset log uncommitted ({@link Checkpoint#uncommitted()}) and the
     * exception propagates. {@code knownKey}, when not null, is the encoded key every row is known
     * to have, and {@code keyObject} that key.
     */
    BatchResult<K, I, O> run(List<I> rows, boolean hadInput, Bytes knownKey, K keyObject) {
        return execute(checkpoint.plan(rows, hadInput), knownKey, keyObject);
    }

    /**
     * Runs the offset log's uncommitted batch again, as Spark does at the first trigger of a new
     * run: the same id, rows, timestamp and watermarks, on the state of the last commit.
     */
    BatchResult<K, I, O> rerunUncommitted() {
        return execute(checkpoint.uncommitted(), null, null);
    }

    @SuppressWarnings("unchecked")
    private BatchResult<K, I, O> execute(Checkpoint.PlannedBatch planned, Bytes knownKey, K keyObject) {
        List<I> rows = (List<I>) planned.rows();
        List<OperatorBatch<?, ?, ?>> ran;
        try {
            // planning the batch: each operator's driver-side pass, then Spark's checks against the checkpoint
            operators.forEach(Operator::throwDriverFailure);
            if (refusal != null) {
                throw refusal;
            }
            ran = attempt(planned, rows, knownKey, keyObject, 0);
            if (options.checkRetries()) {
                ran = retry(planned, rows, knownKey, keyObject, ran);
            }
        } catch (Throwable t) { // anything: the user's Errors and undeclared checked exceptions too
            operators.forEach(op -> op.store().rollback());
            throw t;
        }
        for (Operator<?, ?, ?> op : operators) {
            op.store().commit();
        }
        checkpoint.commit(planned, ran.get(0).input.maxEventTimeMs, delayMs);
        return result(rows, ran);
    }

    /** Whether the next trigger, finding no rows, runs a no-data batch: Spark's {@code shouldRunAnotherBatch}. */
    boolean wantsNoDataBatch() {
        if (!checkpoint.batchRanInThisRun()) {
            return false;
        }
        boolean advanced = checkpoint.watermarkAdvanced();
        for (Operator<?, ?, ?> op : operators) {
            if (op.asksForNoDataBatch(advanced)) {
                return true;
            }
        }
        return false;
    }

    /** One run of the batch's tasks in every operator, uncommitted. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private List<OperatorBatch<?, ?, ?>> attempt(Checkpoint.PlannedBatch planned, List<I> rows, Bytes knownKey,
            K keyObject, int attempt) {
        boolean recordCalls = options.checkRetries();
        if (operators.size() == 1) {
            Operator only = operators.get(0);
            return List.of(only.runBatch(planned, rows, knownKey, keyObject, attempt, recordCalls));
        }
        List<OperatorBatch<?, ?, ?>> ran = new ArrayList<>(operators.size());
        List input = rows;
        for (Operator op : operators) {
            boolean first = ran.isEmpty();
            OperatorBatch<?, ?, ?> batch = op.runBatch(planned, input, first ? knownKey : null, first ? keyObject : null,
                    attempt, recordCalls);
            ran.add(batch);
            input = batch.outputs;
        }
        return ran;
    }

    /**
     * A task retry: the batch runs again from the state committed before it, and both runs must
     * leave the same outputs, state and timers. Returns the second run, which is the one kept.
     */
    private List<OperatorBatch<?, ?, ?>> retry(Checkpoint.PlannedBatch planned, List<I> rows, Bytes knownKey,
            K keyObject, List<OperatorBatch<?, ?, ?>> first) {
        List<Map<String, Map<Bytes, Object>>> states = new ArrayList<>();
        List<Map<Bytes, long[]>> timers = new ArrayList<>();
        for (Operator<?, ?, ?> op : operators) {
            states.add(op.store().copyState());
            timers.add(op.store().timers().copyData());
            op.store().rollback();
        }
        List<OperatorBatch<?, ?, ?>> second = attempt(planned, rows, knownKey, keyObject, 1);
        for (int i = 0; i < operators.size(); i++) {
            Operator<?, ?, ?> op = operators.get(i);
            String difference = RetryCheck.difference(first.get(i).calls, second.get(i).calls, op::sameOutput,
                    states.get(i), op.store().copyState(), op.store().variables(), timers.get(i),
                    op.store().timers().copyData(), key -> op.keyCodec().decode(key.array()));
            if (difference != null) {
                throw new NondeterministicBatchException("batch " + planned.id() + " is not deterministic: run twice "
                        + "from the same committed state, as Spark does when it retries a task, "
                        + (operators.size() > 1 ? op.describe() + ": " : "") + difference
                        + ". Look for reads of the wall clock (use TimerValues instead), randomness, or state kept "
                        + "outside the state API in the processor.");
            }
        }
        return second;
    }

    /**
     * The committed batch: for one operator its view; for several, the query's (the source's
     * input and the first operator's late rows, timers and metrics, the last operator's outputs)
     * with each operator's view.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private BatchResult<K, I, O> result(List<I> rows, List<OperatorBatch<?, ?, ?>> ran) {
        List received = options.fidelity() == Fidelity.FAST ? Collections.unmodifiableList(rows) : rows;
        if (ran.size() == 1) {
            OperatorBatch only = ran.get(0);
            return only.result(received, operators.get(0).metrics(only));
        }
        List<BatchResult<?, ?, ?>> views = new ArrayList<>(ran.size());
        for (int i = 0; i < ran.size(); i++) {
            OperatorBatch batch = ran.get(i);
            Operator op = operators.get(i);
            views.add(batch.result(received, op.metrics(batch)));
            received = batch.outputs;
        }
        BatchResult<K, I, O> first = (BatchResult<K, I, O>) views.get(0);
        BatchResult<?, ?, O> last = (BatchResult<?, ?, O>) views.get(views.size() - 1);
        return new BatchResult<>(first.batchId(), first.hadInput(), first.input(), first.droppedLate(),
                first.lateWatermark(), first.evictionWatermark(), first.batchTimestamp(), last.outputs(),
                first.firedTimers(), first.metrics(), last.outputPartitions(), views);
    }
}
