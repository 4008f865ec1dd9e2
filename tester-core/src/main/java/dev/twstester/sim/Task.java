package dev.twstester.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.FiredTimer;
import dev.twstester.ProcessorException;


/**
 * One shuffle partition's task of one operator in one micro-batch, as Spark 4.2.0's
 * {@code TransformWithStateExec} runs it: a fresh processor, {@code init}, batch 0's initial state,
 * the partition's keys in ascending key order with all of a key's rows in one call, the partition's
 * due timers, {@code close}. It runs even when the partition has no keys, as Spark's task does.
 * What differs between {@code transformWithState} and the legacy functions is the operator's
 * {@link OperatorKind}.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
final class Task<K, I, O> {
    private final Operator<K, I, O> operator;
    private final OperatorBatch<K, I, O> batch;
    private final int partition;
    private final OperatorBatch.Partitions partitions;
    private final Map<Bytes, List<Object>> initial;
    private final List<Bytes> initialKeys;
    private final List<Bytes> inputKeys;
    private final Bytes knownKey;
    private final K keyObject;
    private final int attempt;
    private StatefulProcessor<K, I, O> processor;

    /**
     * The task of {@code partition}: {@code initialKeys} and {@code inputKeys} are this partition's
     * keys with initial state and with input, in key order.
     */
    Task(Operator<K, I, O> operator, OperatorBatch<K, I, O> batch, int partition, OperatorBatch.Partitions partitions,
            Map<Bytes, List<Object>> initial, List<Bytes> initialKeys, List<Bytes> inputKeys, Bytes knownKey,
            K keyObject, int attempt) {
        this.operator = operator;
        this.batch = batch;
        this.partition = partition;
        this.partitions = partitions;
        this.initial = initial;
        this.initialKeys = initialKeys;
        this.inputKeys = inputKeys;
        this.knownKey = knownKey;
        this.keyObject = keyObject;
        this.attempt = attempt;
    }

    /** Runs the task; its outputs, timers and metrics go into the batch. */
    void run() {
        processor = operator.freshProcessor();
        int outputsBefore = batch.outputs.size();
        SimHandle handle = operator.taskHandle(batch.id());
        Scope scope = operator.store().scope();
        processor.setHandle(handle);
        try {
            try {
                processor.init(operator.query().outputMode(), operator.query().timeMode());
            } catch (Exception e) {
                throw operator.userFailure("init", null, batch.id(), e);
            }
            handle.state = HandleState.INITIALIZED;
            operator.kind().processKeys(this);
            handle.state = HandleState.DATA_PROCESSED;
            timers();
            handle.state = HandleState.TIMER_PROCESSED;
            scope.enter(null);
            try {
                processor.close();
            } catch (Exception e) {
                throw operator.userFailure("close", null, batch.id(), e);
            }
            batch.taskEmitted(partition, batch.outputs.size() - outputsBefore);
        } finally {
            scope.enter(null);
            handle.state = HandleState.CLOSED;
            processor.setHandle(null);
        }
    }

    StatefulProcessor<K, I, O> processor() {
        return processor;
    }

    /** This partition's keys with batch 0's initial state, in key order. */
    List<Bytes> initialKeys() {
        return initialKeys;
    }

    /** This partition's keys with input rows, in key order. */
    List<Bytes> inputKeys() {
        return inputKeys;
    }

    /** This partition's keys with initial state or input rows, in key order. */
    List<Bytes> keysWithInitialStateOrInput() {
        Map<Bytes, Boolean> union = new LinkedHashMap<>();
        initialKeys.forEach(k -> union.put(k, true));
        inputKeys.forEach(k -> union.put(k, true));
        return operator.sortedKeys(union);
    }

    /** Batch 0's initial-state values of {@code key}, or null. */
    List<Object> initialValues(Bytes key) {
        return initial.get(key);
    }

    /** Sets the implicit key and returns a fresh key object, as Spark deserializes one per call. */
    K enter(Bytes key) {
        K k = keyObject != null && key == knownKey ? keyObject : operator.keyCodec().decode(key.array());
        if (k == null && operator.kind().implicitKeyOnly()) {
            operator.store().scope().enterNullKey(key);
        } else {
            operator.store().scope().enter(key);
        }
        return k;
    }

    /** One {@code handleInitialState} call per initial-state value of {@code key}. */
    @SuppressWarnings("unchecked")
    void initialState(Bytes key) {
        StatefulProcessorWithInitialState<K, I, O, Object> p = (StatefulProcessorWithInitialState<K, I, O, Object>) processor;
        for (Object value : initial.get(key)) {
            K k = enter(key);
            operator.run("handleInitialState", k, batch.id(),
                    () -> p.handleInitialState(k, value, batch.timerValues));
        }
    }

    /**
     * {@code key}'s rows in one {@code handleInputRows} call (none for a key with no rows); in
     * real-time mode, one call per row.
     */
    void input(Bytes key) {
        K k = enter(key);
        List<I> rows = batch.input.byKey.getOrDefault(key, List.of());
        if (operator.realTime() && !rows.isEmpty()) {
            for (I row : rows) {
                call(k, List.of(row));
            }
        } else {
            call(k, rows);
        }
    }

    private void call(K k, List<I> rows) {
        scala.collection.Iterator<I> values = new Rows<>(rows);
        HandlerCall call = operator.handlerStarting("handleInputRows", k, batch.id(), attempt, partition, processor);
        scala.collection.Iterator<O> out;
        try {
            out = processor.handleInputRows(k, values, batch.timerValues);
        } catch (Exception e) {
            throw operator.userFailure("handleInputRows", k, batch.id(), e);
        }
        consume(call, "handleInputRows", k, out);
    }

    /** Timers due at the threshold, from a snapshot taken now; each is deleted after its callback. */
    private void timers() {
        long threshold;
        TimeMode mode = operator.query().timeMode();
        if (mode.equals(TimeMode.ProcessingTime())) {
            threshold = batch.timerValues.processingTimeMs();
        } else if (mode.equals(TimeMode.EventTime())) {
            threshold = batch.timerValues.watermarkMs();
        } else {
            return;
        }
        TimerStore timers = operator.store().timers();
        Scope scope = operator.store().scope();
        for (TimerStore.Timer timer : operator.kind().dueTimers(timers, threshold)) {
            if (partitions.of(timer.key()) != partition) {
                continue;
            }
            K k = enter(timer.key());
            long expiry = timer.expiry();
            ExpiredTimerInfo info = () -> expiry;
            HandlerCall call = operator.handlerStarting("handleExpiredTimer", k, batch.id(), attempt, partition,
                    processor);
            scala.collection.Iterator<O> out = operator.callSync("handleExpiredTimer", k, batch.id(),
                    () -> processor.handleExpiredTimer(k, batch.timerValues, info));
            consume(call, "handleExpiredTimer", k, out);
            timers.delete(timer.key(), expiry);
            scope.metrics().add(Metric.EXPIRED_TIMERS, 1);
            scope.metrics().add(Metric.DELETED_TIMERS, 1);
            batch.fired(new FiredTimer<>(k, Instant.ofEpochMilli(expiry)));
        }
    }

    /** Drains a handler's iterator into the batch's outputs, through the output encoder at FULL. */
    private void consume(HandlerCall call, String function, K key, scala.collection.Iterator<O> out) {
        if (out == null) {
            throw ProcessorException.lazyIterator(function, key, batch.id(),
                    new NullPointerException(function + " returned null; return scala.collection.Iterator.empty()"));
        }
        List<Object> emitted = null;
        if (batch.calls != null || call != null) {
            emitted = new ArrayList<>();
            if (batch.calls != null) {
                batch.calls.add(new RetryCheck.Call(function, key, emitted));
            }
        }
        while (true) {
            O next;
            try {
                if (!out.hasNext()) {
                    break;
                }
                next = out.next();
            } catch (Exception e) {
                throw ProcessorException.lazyIterator(function, key, batch.id(), e);
            }
            O delivered = operator.delivered(next);
            operator.checkEventTime(delivered, batch.lateWatermarkMs());
            batch.outputs.add(delivered);
            if (emitted != null) {
                emitted.add(delivered);
            }
        }
        if (call != null) {
            operator.handlerEnded(call, emitted);
        }
    }

    /** A key's rows as the handler's iterator: one object, where a Java iterator and its Scala wrapper are two. */
    private static final class Rows<I> extends scala.collection.AbstractIterator<I> {
        private final List<I> rows;
        private int next;

        Rows(List<I> rows) {
            this.rows = rows;
        }

        @Override
        public boolean hasNext() {
            return next < rows.size();
        }

        @Override
        public I next() {
            if (next >= rows.size()) {
                throw new java.util.NoSuchElementException("next on an exhausted iterator of " + rows.size() + " rows");
            }
            return rows.get(next++);
        }
    }
}
