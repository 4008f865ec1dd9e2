package dev.twstester.spark;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.TaskContext;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

/**
 * Runs the user's processor unchanged (same handle, same calls, same exceptions) and reports
 * each {@code handleExpiredTimer} call to the {@link TimerRecorder}, so a live run knows which
 * timers fired, not only how many, and each row Spark pulls from the returned iterators to the
 * {@link OutputRecorder} under the task's partition (when it pulls it: the iterators stay lazy).
 * The upstream operator of a chain also reports each row it emits to {@link EmittedRows}.
 * It takes initial state so it can wrap either kind of processor; Spark only calls
 * {@code handleInitialState} when the query has initial state.
 */
final class RecordingProcessor<K, I, O, S> extends StatefulProcessorWithInitialState<K, I, O, S> {
    private final StatefulProcessor<K, I, O> delegate;
    private final String run;
    /** This task's output row count; null on the driver. */
    private transient AtomicInteger emitted;
    /** The run id emitted rows are reported under; null when they are not recorded. */
    private final String outputRun;

    RecordingProcessor(StatefulProcessor<K, I, O> delegate, String run) {
        this(delegate, run, null);
    }

    RecordingProcessor(StatefulProcessor<K, I, O> delegate, String run, String outputRun) {
        this.delegate = delegate;
        this.run = run;
        this.outputRun = outputRun;
    }

    /** The processor's own iterator, reporting each row as Spark takes it when outputs are recorded. */
    private scala.collection.Iterator<O> recorded(scala.collection.Iterator<O> rows) {
        if (outputRun == null || rows == null) {
            return rows;
        }
        long batchId = getHandle().getQueryInfo().getBatchId();
        return rows.map(row -> {
            EmittedRows.record(outputRun, batchId, row);
            return row;
        });
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        // on the driver's init/close pass there is no task and nothing to count
        emitted = TaskContext.get() == null ? null : OutputRecorder.startTask(run, getHandle().getQueryInfo().getBatchId());
        delegate.setHandle(getHandle());
        delegate.init(outputMode, timeMode);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void handleInitialState(K key, S initialState, TimerValues timerValues) {
        ((StatefulProcessorWithInitialState<K, I, O, S>) delegate).handleInitialState(key, initialState, timerValues);
    }

    @Override
    public scala.collection.Iterator<O> handleInputRows(K key, scala.collection.Iterator<I> rows, TimerValues timerValues) {
        return counted(recorded(delegate.handleInputRows(key, rows, timerValues)));
    }

    @Override
    public scala.collection.Iterator<O> handleExpiredTimer(K key, TimerValues timerValues, ExpiredTimerInfo info) {
        TimerRecorder.record(run, getHandle().getQueryInfo().getBatchId(), key, info.getExpiryTimeInMs());
        return counted(recorded(delegate.handleExpiredTimer(key, timerValues, info)));
    }

    /** {@code out}, counting each row as it is pulled; null stays null (Spark reports it). */
    private scala.collection.Iterator<O> counted(scala.collection.Iterator<O> out) {
        AtomicInteger count = emitted;
        if (out == null || count == null) {
            return out;
        }
        return new scala.collection.AbstractIterator<O>() {
            @Override
            public boolean hasNext() {
                return out.hasNext();
            }

            @Override
            public O next() {
                O row = out.next();
                count.incrementAndGet();
                return row;
            }
        };
    }

    @Override
    public void close() {
        try {
            delegate.close();
        } finally {
            delegate.setHandle(null);
        }
    }
}
