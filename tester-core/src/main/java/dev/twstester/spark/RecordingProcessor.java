package dev.twstester.spark;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.internal.RowCodec;

/**
 * Runs the user's processor unchanged (same handle, same calls, same exceptions) and reports to
 * its run's {@link TaskReports} each {@code handleExpiredTimer} call, so a live run knows which
 * timers fired, not only how many, and how many rows each partition's task emitted as Spark pulled
 * them from the returned iterators (the iterators stay lazy). Every operator of a query but the
 * last also reports each row it emits (the last one's are the sink's). The reports go through a Spark accumulator, so they reach the driver
 * from executors in other JVMs too. It takes initial state so it can wrap either kind of processor;
 * Spark only calls {@code handleInitialState} when the query has initial state.
 */
final class RecordingProcessor<K, I, O, S> extends StatefulProcessorWithInitialState<K, I, O, S> {
    private final StatefulProcessor<K, I, O> delegate;
    private final TaskReports reports;
    private final Encoder<K> keyEncoder;
    /** The encoder emitted rows are reported with; null when they are not reported. */
    private final Encoder<O> rowEncoder;
    /** This task's output row count; null on the driver. */
    private transient AtomicInteger emitted;

    RecordingProcessor(StatefulProcessor<K, I, O> delegate, TaskReports reports, Encoder<K> keyEncoder) {
        this(delegate, reports, keyEncoder, null);
    }

    RecordingProcessor(StatefulProcessor<K, I, O> delegate, TaskReports reports, Encoder<K> keyEncoder,
            Encoder<O> rowEncoder) {
        this.delegate = delegate;
        this.reports = reports;
        this.keyEncoder = keyEncoder;
        this.rowEncoder = rowEncoder;
    }

    /** The processor's own iterator, reporting each row as Spark takes it when outputs are reported. */
    private scala.collection.Iterator<O> recorded(scala.collection.Iterator<O> rows) {
        if (rowEncoder == null || rows == null) {
            return rows;
        }
        long batchId = getHandle().getQueryInfo().getBatchId();
        RowCodec<O> codec = RowCodec.of(rowEncoder);
        return rows.map(row -> {
            reports.rowEmitted(batchId, codec.encode(row));
            return row;
        });
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        // on the driver's init/close pass there is no task and nothing to count
        emitted = reports.startTask(getHandle().getQueryInfo().getBatchId());
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
        reports.timerFired(getHandle().getQueryInfo().getBatchId(), RowCodec.of(keyEncoder).encode(key),
                info.getExpiryTimeInMs());
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
