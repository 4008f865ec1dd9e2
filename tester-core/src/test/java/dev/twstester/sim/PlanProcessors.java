package dev.twstester.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.spark.api.java.function.FlatMapGroupsWithStateFunction;
import org.apache.spark.api.java.function.MapGroupsWithStateFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.GroupState;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The plans of several operators that Spark accepts beyond the {@code eventTimeColumnName}
 * overload (simulator and live tests): an operator after a {@code transformWithState} without the
 * overload, after a ProcessingTime-mode operator, after a legacy function, and two legacy functions.
 * Their last operator, {@link Probe}, emits the watermark it sees, so the outputs pin it.
 */
public final class PlanProcessors {
    private PlanProcessors() {}

    /**
     * Keyed by team (the key's first letter): passes each row on as "WHAT wm=W", W the watermark its
     * {@code TimerValues} give, counts rows in "rows" and, in EventTime mode, registers a timer 10 s
     * after the row's event time, which emits "timer wm=W" at its expiry.
     */
    public static class Probe extends StatefulProcessor<String, OutEvent, OutEvent> {
        private transient ValueState<Long> rows;
        private boolean eventTime;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            rows = getHandle().getValueState("rows", Encoders.LONG(), TTLConfig.NONE());
            eventTime = timeMode.equals(TimeMode.EventTime());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleInputRows(String team, scala.collection.Iterator<OutEvent> in,
                TimerValues timerValues) {
            List<OutEvent> out = new ArrayList<>();
            while (in.hasNext()) {
                OutEvent row = in.next();
                rows.update(rows.exists() ? rows.get() + 1 : 1L);
                if (eventTime) {
                    getHandle().registerTimer(row.getOutTs().getTime() + 10_000);
                }
                out.add(new OutEvent(row.getKey(), row.getOutTs().getTime(),
                        row.getWhat() + " wm=" + timerValues.getCurrentWatermarkInMs()));
            }
            return CollectionConverters.asScala(out.iterator());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleExpiredTimer(String team, TimerValues timerValues,
                ExpiredTimerInfo info) {
            OutEvent out = new OutEvent(team, info.getExpiryTimeInMs(), "timer wm=" + timerValues.getCurrentWatermarkInMs());
            return CollectionConverters.asScala(List.of(out).iterator());
        }
    }

    /** {@link Probe} in {@code timeMode} and {@code outputMode}, keyed by the first letter of the key. */
    public static TwsQuery.Builder<String, OutEvent, OutEvent> probe(TimeMode timeMode, OutputMode outputMode) {
        return TwsQuery.<String, OutEvent, OutEvent>builder(Probe::new)
                .keyBy(e -> e.getKey().substring(0, 1), Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(timeMode)
                .outputMode(outputMode);
    }

    /** The Relay of {@link ChainProcessors#relay()} in EventTime mode without the eventTimeColumnName overload. */
    public static TwsQuery<String, Event, OutEvent> plainRelay() {
        return TwsQuery.<String, Event, OutEvent>builder(ChainProcessors.Relay::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime())
                .watermark("ts", Duration.ofSeconds(5))
                .build();
    }

    /** {@link MultiOperatorQueryTest.Pass} in ProcessingTime mode (no overload: that one runs in EventTime). */
    public static TwsQuery.Builder<String, OutEvent, OutEvent> processingTimePass() {
        return TwsQuery.<String, OutEvent, OutEvent>builder(MultiOperatorQueryTest.Pass::new)
                .keyBy(OutEvent::getKey, Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.ProcessingTime());
    }

    /**
     * Counts a team's rows (the first letter of the key) and emits one row per call: "n=N" at the
     * call's latest event time. No timeout.
     */
    public static final class TeamRunning implements FlatMapGroupsWithStateFunction<String, OutEvent, Long, OutEvent> {
        @Override
        public Iterator<OutEvent> call(String team, Iterator<OutEvent> rows, GroupState<Long> state) {
            long[] counted = countRows(rows, state);
            return List.of(new OutEvent(team, counted[1], "n=" + counted[0])).iterator();
        }
    }

    /**
     * Adds {@code rows} to the count in {@code state} and stores it: the new count and the latest
     * event time of the rows (0 for none), as the legacy functions of the chain tests count.
     */
    public static long[] countRows(Iterator<OutEvent> rows, GroupState<Long> state) {
        long count = state.exists() ? state.get() : 0L;
        long last = 0;
        while (rows.hasNext()) {
            count++;
            last = Math.max(last, rows.next().getOutTs().getTime());
        }
        state.update(count);
        return new long[] {count, last};
    }

    /** {@link TeamRunning} as a flatMapGroupsWithState in {@code mode} with no timeout. */
    public static TwsQuery.Builder<String, OutEvent, OutEvent> teamRunning(OutputMode mode) {
        return TwsQuery.flatMapGroupsWithState(new TeamRunning(), mode, Encoders.LONG(), GroupStateTimeout.NoTimeout())
                .keyBy(e -> e.getKey().substring(0, 1), Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.bean(OutEvent.class));
    }

    /** Counts a team's rows and returns "n=N" at the call's latest event time (mapGroupsWithState, no timeout). */
    public static final class TeamTotal implements MapGroupsWithStateFunction<String, OutEvent, Long, OutEvent> {
        @Override
        public OutEvent call(String team, Iterator<OutEvent> rows, GroupState<Long> state) throws Exception {
            return new TeamRunning().call(team, rows, state).next();
        }
    }

    /** {@link TeamTotal} as a mapGroupsWithState with no timeout. */
    public static TwsQuery.Builder<String, OutEvent, OutEvent> teamTotal() {
        return TwsQuery.mapGroupsWithState(new TeamTotal(), Encoders.LONG(), GroupStateTimeout.NoTimeout())
                .keyBy(e -> e.getKey().substring(0, 1), Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.bean(OutEvent.class));
    }

    /** {@link MultiOperatorQueryTest#story()}, then a row Relay emits at 1000, far behind the watermark. */
    public static Scenario<Event> storyWithAnOldRow() {
        List<Scenario.Step<Event>> steps = new ArrayList<>(MultiOperatorQueryTest.story().steps());
        steps.addAll(Scenario.<Event>builder().batch(List.of(new Event("b1", 65000, "emit:1000"))).build().steps());
        return new Scenario<>(steps);
    }

    /**
     * {@link MultiOperatorQueryTest#story()}'s batches one second apart in processing time (a
     * ProcessingTime-mode operator runs a batch at every trigger, and live Spark triggers on clock
     * moves), then a clock move that runs a no-data batch.
     */
    public static Scenario<Event> timedStory() {
        Scenario.Builder<Event> steps = Scenario.builder();
        long at = 1000;
        for (Scenario.Step<Event> step : MultiOperatorQueryTest.story().steps()) {
            steps.batchAt(Instant.ofEpochMilli(at), ((Scenario.Input<Event>) step).rows());
            at += 1000;
        }
        return steps.tick(Instant.ofEpochMilli(at)).build();
    }
}
