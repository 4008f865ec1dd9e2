package dev.twstester.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

import scala.Option;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;

/**
 * Spark 4.2's {@code org.apache.spark.sql.streaming.TwsTester}, method for method (same names,
 * argument order and Scala types), answering as real Spark does: a test written for Spark's
 * {@code TwsTester} runs after changing its import to {@code dev.twstester.sim.TwsTester}. Behind
 * it is a {@link TwsSimulator} ({@link #simulator()}), and every call is one of its calls:
 * {@code test} is one micro-batch holding one key's rows, {@code setProcessingTime} and
 * {@code setWatermark} move the clock or watermark and run the no-data batch Spark runs then.
 *
 * <pre>{@code
 * // import org.apache.spark.sql.streaming.TwsTester;   the only line a TwsTester test changes
 * import dev.twstester.sim.TwsTester;
 *
 * TwsTester<String, String, String> tester = new TwsTester<>(new Reminder(), List$.MODULE$.empty(),
 *         TimeMode.ProcessingTime(), OutputMode.Update(), Option.empty());
 * tester.setProcessingTime(1000);                               // no batch yet: nothing runs
 * tester.test("a", asScala(List.of("now", "remind")).toList()); // batch 0 at 1 s: a:now#1@1000,
 *                                                               // a:remind#2@1000, then a:timer@1000#2
 * tester.peekValueState("count", "a");                          // Some(2)
 * tester.setProcessingTime(7000);                               // the no-data batch at 7 s: a:timer@6000#2
 * }</pre>
 *
 * <p>Where Spark's {@code TwsTester} answers otherwise, this one gives real Spark's answer, and
 * each method's Javadoc says which rule differs. A call that only makes sense under
 * {@code TwsTester}'s rules (the watermark set before any batch, a clock moved backwards, state
 * read before the batch that applies the initial state, a key tested with no rows) fails with
 * an error naming the rule. The rules, side by side: {@code docs/from-twstester.md}.
 *
 * <p>The Spark-shaped constructor needs no key function: each row is fed as a (key, row) pair
 * grouped by the key and handed to the processor through {@code mapValues}, as
 * {@code groupByKey(...).mapValues(...)} would. {@link #TwsTester(TwsQuery)} runs the query itself
 * (its key function, encoders and watermark), which EventTime mode needs.
 *
 * @param <K> grouping key type
 * @param <I> input row type (what the processor reads)
 * @param <O> output row type
 */
public class TwsTester<K, I, O> {
    static final String GUIDE = "see docs/from-twstester.md";

    private final TwsSimulator<K, Object, O> sim;
    /** Whether rows go in as (key, row) pairs, grouped by the key and mapped to the row (the Spark-shaped constructor). */
    private final boolean keyedPairs;
    private final boolean initialState;
    private final TimeMode timeMode;

    /**
     * As Spark's {@code new TwsTester(processor, initialState, timeMode, outputMode, eventTimeExtractor)}:
     * the encoders are Spark's for the types the processor's class names ({@code Encoders.bean} for a
     * bean), the initial state's for the first value's class.
     * <ul>
     * <li>{@code initialState}: Spark runs {@code handleInitialState} in batch 0 (the first
     * {@link #test} call), before that batch's rows, not in the constructor.</li>
     * <li>{@code TimeMode.EventTime()}: refused, since Spark reads event time from an input column
     * with {@code withWatermark}, not from a function: use {@link #TwsTester(TwsQuery)} with
     * {@code .watermark(column, delay)}.</li>
     * </ul>
     *
     * @throws IllegalArgumentException for EventTime mode, or a type whose encoder cannot be chosen
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public TwsTester(StatefulProcessor<K, I, O> processor, scala.collection.immutable.List<Tuple2<K, Object>> initialState,
            TimeMode timeMode, OutputMode outputMode, Option<scala.Function1<I, Object>> eventTimeExtractor) {
        Objects.requireNonNull(processor, "processor must not be null");
        if (timeMode.equals(TimeMode.EventTime()) || eventTimeExtractor.isDefined()) {
            throw new IllegalArgumentException("EventTime mode: real Spark takes event time from a timestamp column of "
                    + "the input (withWatermark(column, delay)), not from an eventTimeExtractor function, and moves the "
                    + "watermark from the rows' event times: build a TwsQuery with .watermark(column, delay) and use "
                    + "new TwsTester<>(query); " + GUIDE + "#event-time");
        }
        Encoder<K> keys = ProcessorTypes.encoderFor(ProcessorTypes.typeArgument(processor, 0), "key");
        Encoder<I> values = ProcessorTypes.encoderFor(ProcessorTypes.typeArgument(processor, 1), "input");
        TwsQuery.Builder<K, Tuple2<K, I>, O> builder = TwsQuery.<K, I, O>builder(() -> processor)
                .mapValues((MapFunction<Tuple2<K, I>, I>) Tuple2::_2, values)
                .keyBy((MapFunction<Tuple2<K, I>, K>) Tuple2::_1, keys)
                .input(Encoders.tuple(keys, values))
                .output(ProcessorTypes.encoderFor(ProcessorTypes.typeArgument(processor, 2), "output"))
                .timeMode(timeMode)
                .outputMode(outputMode);
        List<Map.Entry<K, Object>> initial = new ArrayList<>();
        CollectionConverters.asJava(initialState).forEach(t -> initial.add(Map.entry(t._1(), t._2())));
        if (!initial.isEmpty()) {
            builder.initialState(initial, ProcessorTypes.encoderFor(initial.get(0).getValue().getClass(), "initial state"));
        }
        this.sim = (TwsSimulator) new TwsSimulator<>(builder.build());
        this.keyedPairs = true;
        this.initialState = !initial.isEmpty();
        this.timeMode = timeMode;
    }

    /**
     * Runs {@code query} (its key function, encoders, watermark and initial state): {@link #test}
     * rows must belong to the key under the query's key function. The native form of the same
     * calls is {@code new TwsSimulator<>(query)}.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public TwsTester(TwsQuery<K, I, O> query) {
        this.sim = (TwsSimulator) new TwsSimulator<>(query);
        this.keyedPairs = false;
        this.initialState = query.initialState().isPresent();
        this.timeMode = query.timeMode();
    }

    /**
     * One micro-batch holding {@code key}'s {@code values}, as Spark runs it when they arrive together
     * ({@link TwsSimulator#test}); its outputs, and those of the no-data batch Spark runs right after it
     * when the watermark moved. Differs from Spark's {@code TwsTester}:
     * <ul>
     * <li>batch 0 first runs {@code handleInitialState} for every initial-state key;</li>
     * <li>due timers fire in the same batch, after its rows (ProcessingTime mode: those due at the
     * batch's time; EventTime mode: at the batch's watermark), and their outputs are returned too;</li>
     * <li>EventTime mode: rows at or before the previous batch's watermark are dropped, and the
     * watermark moves to the batch's latest event time minus the delay (a no-data batch then fires
     * the timers it passed);</li>
     * <li>no rows: refused, as Spark runs no batch and calls no {@code handleInputRows} for a key
     * without rows.</li>
     * </ul>
     */
    public scala.collection.immutable.List<O> test(K key, scala.collection.immutable.List<I> values) {
        List<I> rows = CollectionConverters.asJava(values);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("test(" + key + ", List()) relies on a TwsTester-only rule: Spark calls "
                    + "handleInputRows only for a key with rows in the batch. Pass rows, or move time with "
                    + "setProcessingTime/setWatermark to run timers; " + GUIDE + "#a-key-without-rows");
        }
        List<Object> source = new ArrayList<>(rows.size());
        rows.forEach(row -> source.add(keyedPairs ? new Tuple2<>(key, row) : row));
        return toScala(sim.test(key, source).outputs());
    }

    /**
     * Sets ValueState {@code stateName} of {@code key} through its encoder, as the processor's
     * {@code update} would. Before batch 0 of a query with initial state it is refused: Spark's
     * {@code handleInitialState} has not run yet (it runs in batch 0), where {@code TwsTester} ran it
     * in its constructor.
     */
    public <T> void updateValueState(String stateName, K key, T value) {
        requireInitialStateApplied("updateValueState");
        sim.state().setValue(stateName, key, value);
    }

    /** ValueState {@code stateName} of {@code key}; before batch 0 as {@link #updateValueState}. */
    public <T> Option<T> peekValueState(String stateName, K key) {
        requireInitialStateApplied("peekValueState");
        return Option.apply(sim.state().<T>value(stateName, key).orElse(null));
    }

    /** Replaces ListState {@code stateName} of {@code key}; before batch 0 as {@link #updateValueState}. */
    public <T> void updateListState(String stateName, K key, scala.collection.immutable.List<T> value, ClassTag<T> ct) {
        requireInitialStateApplied("updateListState");
        sim.state().setList(stateName, key, CollectionConverters.asJava(value));
    }

    /** ListState {@code stateName} of {@code key}, in append order; before batch 0 as {@link #updateValueState}. */
    public <T> scala.collection.immutable.List<T> peekListState(String stateName, K key) {
        requireInitialStateApplied("peekListState");
        return toScala(sim.state().<T>list(stateName, key));
    }

    /** Replaces MapState {@code stateName} of {@code key}; before batch 0 as {@link #updateValueState}. */
    public <MK, MV> void updateMapState(String stateName, K key, scala.collection.immutable.Map<MK, MV> value) {
        requireInitialStateApplied("updateMapState");
        sim.state().setMap(stateName, key, new LinkedHashMap<>(CollectionConverters.asJava(value)));
    }

    /** MapState {@code stateName} of {@code key}; before batch 0 as {@link #updateValueState}. */
    public <MK, MV> scala.collection.immutable.Map<MK, MV> peekMapState(String stateName, K key) {
        requireInitialStateApplied("peekMapState");
        Map<MK, MV> entries = sim.state().map(stateName, key);
        return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(entries));
    }

    /** Removes what state variable {@code stateName} holds for {@code key}; before batch 0 as {@link #updateValueState}. */
    public void deleteState(String stateName, K key) {
        requireInitialStateApplied("deleteState");
        sim.state().clear(stateName, key);
    }

    /**
     * Moves the processing-time clock to {@code currentTimeMs} ({@link TwsSimulator#setProcessingTime}):
     * after the query's first batch Spark's trigger runs a no-data batch at that time, which fires the
     * timers due by then, key by key in key order, and expires TTL; its outputs are returned. Differs
     * from Spark's {@code TwsTester}: before the first batch no batch runs and nothing fires (Spark
     * has not run {@code handleInitialState} yet, so timers it registers wait for batch 0, where
     * {@code TwsTester} fires them now), and a move backwards is refused as a clock that never goes
     * back (the same time again runs nothing). With live Spark, whose trigger runs a batch only when
     * its clock moves, a {@code test} right after a {@code setProcessingTime} to the same time cannot
     * be replayed: move the clock once per batch.
     */
    public scala.collection.immutable.List<O> setProcessingTime(long currentTimeMs) {
        requireMode(TimeMode.ProcessingTime(), "setProcessingTime");
        long now = sim.processingTime().toEpochMilli();
        if (currentTimeMs < now) {
            throw new IllegalArgumentException("setProcessingTime(" + currentTimeMs + ") moves the clock back from " + now
                    + ": Spark's processing time never moves backwards; " + GUIDE + "#processing-time");
        }
        return currentTimeMs == now ? toScala(List.of()) : toScala(sim.setProcessingTime(Instant.ofEpochMilli(currentTimeMs)).outputs());
    }

    /**
     * Forces the watermark up to {@code currentWatermarkMs} ({@link TwsSimulator#advanceWatermarkTo})
     * and runs the no-data batch Spark runs after a watermark advance, which fires the event-time
     * timers due by then; its outputs are returned. Real Spark moves the watermark only from event
     * times (a row at {@code currentWatermarkMs} plus the delay moves it there), so a live run cannot
     * replay this call. Refused before the first batch (Spark has no watermark before its first
     * input) and backwards (Spark's watermark never decreases).
     */
    public scala.collection.immutable.List<O> setWatermark(long currentWatermarkMs) {
        requireMode(TimeMode.EventTime(), "setWatermark");
        if (sim.nextBatchId() == 0) {
            throw new IllegalStateException("setWatermark before the first test(...) relies on a TwsTester-only rule: "
                    + "Spark's watermark moves only from the event times of a batch's rows, and no batch runs before the "
                    + "first input. Call test(...) first; " + GUIDE + "#watermark");
        }
        long now = sim.watermark().toEpochMilli();
        if (currentWatermarkMs < now) {
            throw new IllegalArgumentException("setWatermark(" + currentWatermarkMs + ") moves the watermark back from "
                    + now + ": Spark's watermark never decreases; " + GUIDE + "#watermark");
        }
        return toScala(sim.advanceWatermarkTo(Instant.ofEpochMilli(currentWatermarkMs)).outputs());
    }

    /** The simulator behind this tester: its history, state, timeline listeners and every other call. */
    public TwsSimulator<K, ?, O> simulator() {
        return sim;
    }

    private void requireInitialStateApplied(String method) {
        if (initialState && sim.nextBatchId() == 0) {
            throw new IllegalStateException(method + " before the first test(...) relies on a TwsTester-only rule: "
                    + "TwsTester runs handleInitialState in its constructor, Spark in batch 0 (the first test call), "
                    + "before that batch's rows. Call test(...) first; " + GUIDE + "#initial-state");
        }
    }

    private void requireMode(TimeMode mode, String method) {
        if (!timeMode.equals(mode)) {
            throw new IllegalArgumentException(method + " needs TimeMode." + mode + " (as in Spark's TwsTester); this "
                    + "query runs in " + timeMode);
        }
    }

    private static <T> scala.collection.immutable.List<T> toScala(List<T> rows) {
        return CollectionConverters.asScala(rows).toList();
    }
}
