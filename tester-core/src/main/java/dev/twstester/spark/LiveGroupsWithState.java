package dev.twstester.spark;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapGroupsWithStateFunction;
import org.apache.spark.api.java.function.MapGroupsWithStateFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.KeyValueGroupedDataset;
import org.apache.spark.sql.streaming.GroupState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TestGroupState;

import dev.twstester.GroupsWithState;
import dev.twstester.TwsQuery;
import dev.twstester.internal.GroupStateTimeouts;
import dev.twstester.internal.RowCodec;

/**
 * The live side of a {@code mapGroupsWithState} / {@code flatMapGroupsWithState} query: the real
 * {@code groupByKey(...).mapGroupsWithState(...)} or {@code flatMapGroupsWithState(...)} with the
 * user's function wrapped so that its tasks report what a live run cannot read from Spark: which
 * keys timed out, each call's output rows (per task; the rows themselves for an operator before the
 * query's last) and the timeout each call left. The function
 * itself runs unchanged, with Spark's {@code GroupState}, and its exceptions reach Spark as they are.
 *
 * <p>Spark does not tell the function the timeout that fired; the run knows it as the timeout the
 * key's previous call left ({@link #firedIn}), since every call resets the timeout unless it sets one.
 */
final class LiveGroupsWithState<K, I, S, O> {
    /** The local property Spark's {@code MicroBatchExecution} sets to the running batch id. */
    private static final String BATCH_ID_PROPERTY = "streaming.sql.batchId";

    private final GroupsWithState<K, I, S, O> function;
    private final TaskReports reports;
    private final Encoder<K> keyEncoder;
    /** The timeout each key's last call left, by encoded key (no entry: none). */
    private final Map<ByteBuffer, Long> timeouts;

    private LiveGroupsWithState(GroupsWithState<K, I, S, O> function, TaskReports reports, Encoder<K> keyEncoder,
            Map<ByteBuffer, Long> timeouts) {
        this.function = function;
        this.reports = reports;
        this.keyEncoder = keyEncoder;
        this.timeouts = timeouts;
    }

    /** The live side of {@code query}'s legacy function, or null for a transformWithState query. */
    static <K, I, O> LiveGroupsWithState<K, I, ?, O> of(TwsQuery<K, I, O> query, TaskReports reports) {
        if (query.groupsWithState().isEmpty()) {
            return null;
        }
        return create(query.groupsWithState().get(), reports, query.keyEncoder());
    }

    private static <K, I, S, O> LiveGroupsWithState<K, I, S, O> create(GroupsWithState<K, I, S, O> function,
            TaskReports reports, Encoder<K> keyEncoder) {
        return new LiveGroupsWithState<>(function, reports, keyEncoder, new HashMap<>());
    }

    /**
     * The live side of {@code next}'s function, a new version of this one started on the same
     * checkpoint: the same reports, and the timeouts the keys' last calls left.
     */
    LiveGroupsWithState<K, I, ?, O> withFunctionOf(TwsQuery<K, I, O> next) {
        return withFunction(next.groupsWithState().orElseThrow());
    }

    private <S2> LiveGroupsWithState<K, I, S2, O> withFunction(GroupsWithState<K, I, S2, O> next) {
        return new LiveGroupsWithState<>(next, reports, keyEncoder, timeouts);
    }

    /** The query's output mode: Spark requires the operator's ({@code Update()} for mapGroupsWithState). */
    OutputMode outputMode() {
        return function.outputMode();
    }

    /**
     * The operator on {@code grouped}, as the user's job would call it: with {@code initialState}
     * (its values of any type: Spark reads them with the state encoder) when not null. Each row
     * the function emits is reported with {@code recordedRows} when not null (an operator before
     * the query's last).
     */
    @SuppressWarnings("unchecked")
    Dataset<O> apply(KeyValueGroupedDataset<K, I> grouped, Encoder<O> outputEncoder,
            KeyValueGroupedDataset<K, ?> initialState, Encoder<O> recordedRows) {
        KeyValueGroupedDataset<K, S> initial = (KeyValueGroupedDataset<K, S>) initialState;
        if (function.isMapGroupsWithState()) {
            RecordingMap<K, I, S, O> f = new RecordingMap<>(function.mapFunction(), reports, keyEncoder, recordedRows);
            return initial == null ? grouped.mapGroupsWithState(f, function.stateEncoder(), outputEncoder, function.timeout())
                    : grouped.mapGroupsWithState(f, function.stateEncoder(), outputEncoder, function.timeout(), initial);
        }
        RecordingFlatMap<K, I, S, O> f = new RecordingFlatMap<>(function.flatMapFunction(), reports, keyEncoder,
                recordedRows);
        return initial == null
                ? grouped.flatMapGroupsWithState(f, function.outputMode(), function.stateEncoder(), outputEncoder,
                        function.timeout())
                : grouped.flatMapGroupsWithState(f, function.outputMode(), function.stateEncoder(), outputEncoder,
                        function.timeout(), initial);
    }

    /**
     * The keys that timed out in {@code batchId}, each with the timeout its previous call left;
     * then remembers the timeouts this batch's calls left. Call once per batch, in batch order.
     */
    List<TaskReports.Fired> firedIn(long batchId) {
        List<TaskReports.Fired> fired = new ArrayList<>();
        for (TaskReports.Fired f : reports.firedIn(batchId)) {
            Long timeout = timeouts.get(ByteBuffer.wrap(f.key()));
            if (timeout == null) {
                throw new IllegalStateException("a key timed out in batch " + batchId + " with no timeout reported "
                        + "by an earlier call; the run's reports are incomplete");
            }
            fired.add(new TaskReports.Fired(f.key(), timeout));
        }
        for (TaskReports.Fired set : reports.timeoutsSetIn(batchId)) {
            if (set.expiryMs() == GroupStateTimeouts.NO_TIMESTAMP) {
                timeouts.remove(ByteBuffer.wrap(set.key()));
            } else {
                timeouts.put(ByteBuffer.wrap(set.key()), set.expiryMs());
            }
        }
        return fired;
    }

    /**
     * What both wrappers report: per task, its call count of output rows; per call, time-out and
     * timeout left; each emitted row when its encoder is given.
     */
    private abstract static class Recording<K, S, O> implements Serializable {
        private static final long serialVersionUID = 1L;
        final TaskReports reports;
        private final Encoder<K> keyEncoder;
        /** The encoder emitted rows are reported with; null when they are not reported. */
        private final Encoder<O> rowEncoder;
        /** This task's emitted-row counter (the function is deserialized per task). */
        private transient AtomicInteger emitted;
        private transient long taskAttempt = -1;

        Recording(TaskReports reports, Encoder<K> keyEncoder, Encoder<O> rowEncoder) {
            this.reports = reports;
            this.keyEncoder = keyEncoder;
            this.rowEncoder = rowEncoder;
        }

        /** Counts an emitted row, and reports it when rows are reported. */
        O emitted(AtomicInteger count, long batchId, O row) {
            count.incrementAndGet();
            if (rowEncoder != null) {
                reports.rowEmitted(batchId, RowCodec.of(rowEncoder).encode(row));
            }
            return row;
        }

        /** Starts a call: the task's counter (reported when the task completes) and a time-out report. */
        AtomicInteger start(long batchId, byte[] key, GroupState<S> state) {
            TaskContext task = TaskContext.get();
            if (emitted == null || task.taskAttemptId() != taskAttempt) {
                emitted = reports.startTask(batchId);
                taskAttempt = task.taskAttemptId();
            }
            if (state.hasTimedOut()) {
                reports.timerFired(batchId, key, -1L); // the timeout that fired is not known here: firedIn gives it
            }
            return emitted;
        }

        byte[] encode(K key) {
            return RowCodec.of(keyEncoder).encode(key);
        }

        static long batchId() {
            return Long.parseLong(TaskContext.get().getLocalProperty(BATCH_ID_PROPERTY));
        }

        /** The timeout the call left, or {@code GroupStateTimeouts.NO_TIMESTAMP}. */
        static long timeoutOf(GroupState<?> state) {
            return GroupStateTimeouts.timeoutOf((TestGroupState<?>) state);
        }
    }

    private static final class RecordingMap<K, I, S, O> extends Recording<K, S, O>
            implements MapGroupsWithStateFunction<K, I, S, O> {
        private static final long serialVersionUID = 1L;
        private final MapGroupsWithStateFunction<K, I, S, O> delegate;

        RecordingMap(MapGroupsWithStateFunction<K, I, S, O> delegate, TaskReports reports, Encoder<K> keyEncoder,
                Encoder<O> rowEncoder) {
            super(reports, keyEncoder, rowEncoder);
            this.delegate = delegate;
        }

        @Override
        public O call(K key, Iterator<I> values, GroupState<S> state) throws Exception {
            long batchId = batchId();
            byte[] k = encode(key);
            AtomicInteger count = start(batchId, k, state);
            O row = emitted(count, batchId, delegate.call(key, values, state));
            reports.timeoutSet(batchId, k, timeoutOf(state));
            return row;
        }
    }

    private static final class RecordingFlatMap<K, I, S, O> extends Recording<K, S, O>
            implements FlatMapGroupsWithStateFunction<K, I, S, O> {
        private static final long serialVersionUID = 1L;
        private final FlatMapGroupsWithStateFunction<K, I, S, O> delegate;

        RecordingFlatMap(FlatMapGroupsWithStateFunction<K, I, S, O> delegate, TaskReports reports,
                Encoder<K> keyEncoder, Encoder<O> rowEncoder) {
            super(reports, keyEncoder, rowEncoder);
            this.delegate = delegate;
        }

        @Override
        public Iterator<O> call(K key, Iterator<I> values, GroupState<S> state) throws Exception {
            long batchId = batchId();
            byte[] k = encode(key);
            AtomicInteger count = start(batchId, k, state);
            Iterator<O> out = delegate.call(key, values, state);
            if (out == null) {
                return null; // Spark's own failure follows
            }
            return new Iterator<>() {
                private boolean done;

                @Override
                public boolean hasNext() {
                    boolean more = out.hasNext();
                    if (!more && !done) {   // the call is complete: Spark writes the state now
                        done = true;
                        reports.timeoutSet(batchId, k, timeoutOf(state));
                    }
                    return more;
                }

                @Override
                public O next() {
                    return emitted(count, batchId, out.next());
                }
            };
        }
    }
}
