package dev.twstester.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/**
 * The scenarios of a legacy function with Spark's {@code initialState} argument, shared by
 * {@code GroupsWithStateInitialStateTest} (simulator) and {@code LiveGroupsWithStateInitialStateTest}
 * (the same on live Spark). The function is {@link LegacyProbe} with a {@code Long} state.
 */
public final class LegacyInitialState {
    public static final GroupStateTimeout PROCESSING = GroupStateTimeout.ProcessingTimeTimeout();
    public static final GroupStateTimeout EVENT = GroupStateTimeout.EventTimeTimeout();
    public static final GroupStateTimeout NONE = GroupStateTimeout.NoTimeout();

    private LegacyInitialState() {
    }

    public static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    public static Event e(String key, long ts, String cmd) {
        return new Event(key, ts, cmd);
    }

    /** {@code Map.entry} pairs as initial state rows, in the order given. */
    @SafeVarargs
    public static List<Map.Entry<String, Long>> rows(Map.Entry<String, Long>... rows) {
        return List.of(rows);
    }

    /** flatMapGroupsWithState(Update) of the probe with {@code initial} as its initial state. */
    public static TwsQuery.Builder<String, Event, String> flat(GroupStateTimeout timeout, List<Map.Entry<String, Long>> initial) {
        return flat(timeout, initial, Encoders.LONG());
    }

    public static <S> TwsQuery.Builder<String, Event, String> flat(GroupStateTimeout timeout,
            List<? extends Map.Entry<String, S>> initial, Encoder<S> initialEncoder) {
        TwsQuery.Builder<String, Event, String> b = TwsQuery.flatMapGroupsWithState(new LegacyProbe(timeout.equals(EVENT)),
                        OutputMode.Update(), Encoders.LONG(), timeout)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .initialState(initial, initialEncoder);
        return timeout.equals(EVENT) ? b.watermark("ts", Duration.ofSeconds(10)) : b;
    }

    /** mapGroupsWithState of the probe with {@code initial} as its initial state. */
    public static TwsQuery.Builder<String, Event, String> map(GroupStateTimeout timeout, List<Map.Entry<String, Long>> initial) {
        return TwsQuery.mapGroupsWithState(new LegacyProbe.AsMap(false), Encoders.LONG(), timeout)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .initialState(initial, Encoders.LONG());
    }

    /** The initial state of {@link #batch0Only()}: a and b have state, c only rows. */
    public static final List<Map.Entry<String, Long>> ABC = rows(Map.entry("b", 2L), Map.entry("a", 5L));

    /**
     * Batch 0 with initial state for a (and rows) and b (no rows), rows for c; a restart; batch 1
     * with rows for b: the initial state is not applied again.
     */
    public static Scenario<Event> batch0Only() {
        return Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("c", 0, "inc"), e("a", 0, "inc")))
                .restart()
                .batchAt(t(2000), List.of(e("b", 0, "inc"), e("a", 0, "peek")))
                .build();
    }

    /** ProcessingTimeTimeout: an initial-state-only key arms a timeout in batch 0; both keys time out later. */
    public static final List<Map.Entry<String, Long>> TIMEOUTS = rows(Map.entry("x", 1L), Map.entry("rearm1", 7L));

    public static Scenario<Event> processingTimeouts() {
        return Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("x", 0, "inc;dur:100")))
                .tick(t(1500))
                .tick(t(2000))
                .tick(t(2001))
                .build();
    }

    /** EventTimeTimeout: an initial-state-only key arms watermark + 1000 in batch 0 and times out in the no-data batch. */
    public static final List<Map.Entry<String, Long>> EVENT_TIMEOUTS = rows(Map.entry("rearm", 3L), Map.entry("b", 1L));

    public static Scenario<Event> eventTimeouts() {
        return Scenario.<Event>builder()
                .batch(List.of(e("a", 20_000, "inc;et:+0"), e("b", 20_000, "inc;et:+5000")))
                .batch(List.of(e("c", 40_000, "inc")))
                .build();
    }

    /** A key given twice. */
    public static final List<Map.Entry<String, Long>> DUPLICATE = rows(Map.entry("a", 1L), Map.entry("b", 1L),
            Map.entry("a", 2L));

    public static Scenario<Event> oneBatch() {
        return Scenario.<Event>builder().batchAt(t(1000), List.of(e("b", 0, "inc"), e("c", 0, "inc"))).build();
    }
}
