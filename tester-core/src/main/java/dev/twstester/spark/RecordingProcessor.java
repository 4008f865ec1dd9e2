package dev.twstester.spark;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

/**
 * Runs the user's processor unchanged (same handle, same calls, same exceptions) and reports
 * each {@code handleExpiredTimer} call to the {@link TimerRecorder}, so a live run knows which
 * timers fired, not only how many. It takes initial state so it can wrap either kind of processor;
 * Spark only calls {@code handleInitialState} when the query has initial state. The upstream
 * operator of a chain also reports each row it emits to the {@link OutputRecorder}.
 */
final class RecordingProcessor<K, I, O, S> extends StatefulProcessorWithInitialState<K, I, O, S> {
    private final StatefulProcessor<K, I, O> delegate;
    private final String run;
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
            OutputRecorder.record(outputRun, batchId, row);
            return row;
        });
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
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
        return recorded(delegate.handleInputRows(key, rows, timerValues));
    }

    @Override
    public scala.collection.Iterator<O> handleExpiredTimer(K key, TimerValues timerValues, ExpiredTimerInfo info) {
        TimerRecorder.record(run, getHandle().getQueryInfo().getBatchId(), key, info.getExpiryTimeInMs());
        return recorded(delegate.handleExpiredTimer(key, timerValues, info));
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
