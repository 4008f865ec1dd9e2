package dev.twstester.spark;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

/** {@link RecordingProcessor} for processors that take initial state. */
class RecordingProcessorWithInitialState<K, I, O, S> extends StatefulProcessorWithInitialState<K, I, O, S> {
    private final StatefulProcessorWithInitialState<K, I, O, S> delegate;
    private final String run;

    RecordingProcessorWithInitialState(StatefulProcessorWithInitialState<K, I, O, S> delegate, String run) {
        this.delegate = delegate;
        this.run = run;
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        delegate.setHandle(getHandle());
        delegate.init(outputMode, timeMode);
    }

    @Override
    public void handleInitialState(K key, S initialState, TimerValues timerValues) {
        delegate.handleInitialState(key, initialState, timerValues);
    }

    @Override
    public scala.collection.Iterator<O> handleInputRows(K key, scala.collection.Iterator<I> rows, TimerValues timerValues) {
        return delegate.handleInputRows(key, rows, timerValues);
    }

    @Override
    public scala.collection.Iterator<O> handleExpiredTimer(K key, TimerValues timerValues, ExpiredTimerInfo info) {
        TimerRecorder.record(run, getHandle().getQueryInfo().getBatchId(), key, info.getExpiryTimeInMs());
        return delegate.handleExpiredTimer(key, timerValues, info);
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
