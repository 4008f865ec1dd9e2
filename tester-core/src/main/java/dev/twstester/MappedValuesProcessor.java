package dev.twstester;

import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.internal.RowCodec;
import dev.twstester.internal.Sneaky;

/**
 * What the simulator runs for a query with {@code mapValues} ({@link ValueMapping}): the user's
 * processor, handed each source row's mapped value as Spark hands it, after a trip through the
 * value encoder (Spark serializes the value in {@code AppendColumns} and deserializes it for the
 * processor). Every other call goes to the user's processor unchanged, with this adapter's handle.
 * The iterator stays lazy.
 */
class MappedValuesProcessor<K, I, V, O> extends StatefulProcessor<K, I, O> {
    private final StatefulProcessor<K, V, O> delegate;
    private final MapFunction<I, V> function;
    private final Encoder<V> encoder;
    private transient RowCodec<V> codec;

    MappedValuesProcessor(StatefulProcessor<K, V, O> delegate, MapFunction<I, V> function, Encoder<V> encoder) {
        this.delegate = delegate;
        this.function = function;
        this.encoder = encoder;
    }

    /** The adapter of {@code delegate}, taking initial state when the delegate does. */
    static <K, I, V, O> StatefulProcessor<K, I, O> of(StatefulProcessor<K, V, O> delegate, MapFunction<I, V> function,
            Encoder<V> encoder) {
        return delegate instanceof StatefulProcessorWithInitialState<K, V, O, ?> withInitial
                ? new WithInitialState<>(withInitial, function, encoder)
                : new MappedValuesProcessor<>(delegate, function, encoder);
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        delegate.setHandle(getHandle());
        delegate.init(outputMode, timeMode);
    }

    @Override
    public scala.collection.Iterator<O> handleInputRows(K key, scala.collection.Iterator<I> rows, TimerValues timerValues) {
        if (codec == null) {
            codec = RowCodec.of(encoder);
        }
        return delegate.handleInputRows(key, rows.map(row -> {
            try {
                return codec.decode(codec.encode(function.call(row)));
            } catch (Exception e) {
                throw Sneaky.raise(e); // as Spark's mapValues does: the function's own exception
            }
        }), timerValues);
    }

    @Override
    public scala.collection.Iterator<O> handleExpiredTimer(K key, TimerValues timerValues, ExpiredTimerInfo info) {
        return delegate.handleExpiredTimer(key, timerValues, info);
    }

    @Override
    public void close() {
        closeAndDropHandle(delegate);
    }

    /** Closes {@code processor} and drops its handle, which the simulator's copies of the adapter must not carry. */
    private static void closeAndDropHandle(StatefulProcessor<?, ?, ?> processor) {
        try {
            processor.close();
        } finally {
            processor.setHandle(null);
        }
    }

    /** The adapter of a processor that takes initial state. */
    static final class WithInitialState<K, I, V, O, S> extends StatefulProcessorWithInitialState<K, I, O, S> {
        private final MappedValuesProcessor<K, I, V, O> mapped;
        private final StatefulProcessorWithInitialState<K, V, O, S> delegate;

        WithInitialState(StatefulProcessorWithInitialState<K, V, O, S> delegate, MapFunction<I, V> function,
                Encoder<V> encoder) {
            this.delegate = delegate;
            this.mapped = new MappedValuesProcessor<>(delegate, function, encoder);
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            mapped.setHandle(getHandle());
            mapped.init(outputMode, timeMode);
        }

        @Override
        public void handleInitialState(K key, S initialState, TimerValues timerValues) {
            delegate.handleInitialState(key, initialState, timerValues);
        }

        @Override
        public scala.collection.Iterator<O> handleInputRows(K key, scala.collection.Iterator<I> rows,
                TimerValues timerValues) {
            return mapped.handleInputRows(key, rows, timerValues);
        }

        @Override
        public scala.collection.Iterator<O> handleExpiredTimer(K key, TimerValues timerValues, ExpiredTimerInfo info) {
            return mapped.handleExpiredTimer(key, timerValues, info);
        }

        @Override
        public void close() {
            closeAndDropHandle(mapped);
        }
    }
}
