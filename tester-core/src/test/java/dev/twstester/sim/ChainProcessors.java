package dev.twstester.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

import scala.jdk.javaapi.CollectionConverters;

/** The processors of the chain tests (simulator and live). */
public final class ChainProcessors {
    private ChainProcessors() {}

    /**
     * Upstream, keyed by user: counts rows per user in value state {@code n} and passes each row on
     * at its event time, or at N for command "emit:N"; "timer+N" also registers an event-time timer N
     * seconds after the row, whose output ("timer") is at its expiry.
     */
    public static class Relay extends StatefulProcessor<String, Event, OutEvent> {
        private transient ValueState<Long> n;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            n = getHandle().getValueState("n", Encoders.LONG(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleInputRows(String key, scala.collection.Iterator<Event> rows,
                TimerValues timerValues) {
            List<OutEvent> out = new ArrayList<>();
            while (rows.hasNext()) {
                Event e = rows.next();
                n.update(n.exists() ? n.get() + 1 : 1L);
                String cmd = e.getCmd();
                if (cmd.startsWith("timer+")) {
                    getHandle().registerTimer(e.getTs().getTime() + 1000L * Long.parseLong(cmd.substring(6)));
                }
                long at = cmd.startsWith("emit:") ? Long.parseLong(cmd.substring(5)) : e.getTs().getTime();
                out.add(new OutEvent(key, at, cmd));
            }
            return CollectionConverters.asScala(out.iterator());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo info) {
            return CollectionConverters.asScala(List.of(new OutEvent(key, info.getExpiryTimeInMs(), "timer")).iterator());
        }
    }

    /**
     * Downstream, keyed by team (the user's first letter): counts the rows it receives in value state
     * {@code count} and registers a timer per row, 10 s after the row's event time (EventTime mode)
     * or 1 s after the batch's processing time (ProcessingTime mode); the timer emits
     * "count=N from USER" at its expiry. A row "boom" throws.
     */
    public static class Tally<K> extends StatefulProcessor<K, OutEvent, OutEvent> {
        private transient ValueState<Long> count;
        private transient ValueState<String> last;
        private boolean processingTime;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
            last = getHandle().getValueState("last", Encoders.STRING(), TTLConfig.NONE());
            processingTime = timeMode.equals(TimeMode.ProcessingTime());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleInputRows(K team, scala.collection.Iterator<OutEvent> rows,
                TimerValues timerValues) {
            while (rows.hasNext()) {
                OutEvent e = rows.next();
                if (e.getWhat().equals("boom")) {
                    throw new IllegalStateException("boom from " + e.getKey());
                }
                count.update(count.exists() ? count.get() + 1 : 1L);
                last.update(e.getKey());
                getHandle().registerTimer(processingTime ? timerValues.getCurrentProcessingTimeInMs() + 1000
                        : e.getOutTs().getTime() + 10_000);
            }
            return CollectionConverters.asScala(List.<OutEvent>of().iterator());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleExpiredTimer(K team, TimerValues timerValues,
                ExpiredTimerInfo info) {
            OutEvent out = new OutEvent(String.valueOf(team), info.getExpiryTimeInMs(), "count=" + count.get() + " from " + last.get());
            return CollectionConverters.asScala(List.of(out).iterator());
        }
    }

    /** The upstream query: watermark on "ts" with a 5 s delay, the eventTimeColumnName overload on "outTs". */
    public static TwsQuery<String, Event, OutEvent> relay() {
        return TwsQuery.<String, Event, OutEvent>builder(Relay::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .outputMode(OutputMode.Update())
                .watermark("ts", Duration.ofSeconds(5))
                .outputEventTimeColumn("outTs")
                .build();
    }

    /** The downstream query in {@code timeMode}, keyed by the first letter of the user. */
    public static TwsQuery<String, OutEvent, OutEvent> tally(TimeMode timeMode) {
        return TwsQuery.<String, OutEvent, OutEvent>builder(Tally::new)
                .keyBy(e -> e.getKey().substring(0, 1), Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.bean(OutEvent.class))
                .outputMode(OutputMode.Update())
                .timeMode(timeMode)
                .build();
    }

    /**
     * The first part of the checkpoint stories (simulator and live): batches 0 to 3 leave state in
     * both operators, an upstream timer at 44000 and downstream timers at 20000 to 34000; the
     * watermark is then 19000.
     */
    public static Scenario<Event> firstPart() {
        return Scenario.<Event>builder()
                .batch(List.of(new Event("a1", 10000, "timer+5"), new Event("b1", 20000, "x"), new Event("a2", 12000, "x")))
                .batch(List.of(new Event("a1", 24000, "timer+20")))
                .build();
    }

    /** The rest of the checkpoint stories: a late row, then the watermark past every timer (batches 4 to 7). */
    public static Scenario<Event> restPart() {
        return Scenario.<Event>builder()
                .batch(List.of(new Event("c1", 40000, "x"), new Event("a2", 18000, "late")))
                .batch(List.of(new Event("a1", 60000, "x")))
                .build();
    }

    /**
     * One generated batch's rows (1 to 4) around event time {@code base}: users a1, a2, b1, c1, c2,
     * some rows at or before the late watermark, most registering an upstream timer.
     */
    public static List<Event> randomRows(SplittableRandom random, long base) {
        String[] users = {"a1", "a2", "b1", "c1", "c2"};
        List<Event> rows = new ArrayList<>();
        int n = 1 + random.nextInt(4);
        for (int r = 0; r < n; r++) {
            long ts = base + random.nextInt(-8, 9) * 1000L; // some at or before the late watermark
            String cmd = random.nextInt(3) == 0 ? "x" : "timer+" + (1 + random.nextInt(8));
            rows.add(new Event(users[random.nextInt(users.length)], Math.max(ts, 1000), cmd));
        }
        return rows;
    }

    /** Relay, then Tally in EventTime mode. */
    public static TwsQuery<String, Event, OutEvent> chain() {
        return relay().then(tally(TimeMode.EventTime()));
    }

    /**
     * Relay, then Tally in EventTime mode keyed by the length of the user name: a chain of another
     * downstream key type than {@link #chain()}'s.
     */
    public static TwsQuery<String, Event, OutEvent> byLength() {
        return relay().then(tallyByLength());
    }

    /** Tally in EventTime mode keyed by the length of the key of its input. */
    public static TwsQuery<Integer, OutEvent, OutEvent> tallyByLength() {
        return TwsQuery.<Integer, OutEvent, OutEvent>builder(Tally::new)
                .keyBy(e -> e.getKey().length(), Encoders.INT())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime())
                .build();
    }
}
