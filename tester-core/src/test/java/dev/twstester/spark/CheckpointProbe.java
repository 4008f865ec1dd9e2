package dev.twstester.spark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;

import scala.Tuple2;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Every kind of state a checkpoint holds, for {@link CheckpointStateTest}: value, list and map
 * state with a TTL of {@link #TTL}, a struct value without TTL, and processing-time timers. Input
 * rows are {@code "key,command"}: {@code v:X} sets "last", {@code l:X} appends to "seen",
 * {@code m:K=V} puts into "tags", {@code p:N} sets "pair" to (X, N), {@code t:MS} registers a
 * timer at MS; each row emits {@code key:command}, each fired timer {@code key fired MS} with what
 * is visible then.
 */
public class CheckpointProbe extends StatefulProcessor<String, String, String> {
    private static final long serialVersionUID = 1L;

    static final Duration TTL = Duration.ofMinutes(10);

    private transient ValueState<String> last;
    private transient ListState<String> seen;
    private transient MapState<String, Long> tags;
    private transient ValueState<Tuple2<String, Long>> pair;

    public static TwsQuery<String, String, String> query() {
        return query(CheckpointProbe::new);
    }

    /** The probe's query (rows "key,..." grouped by key, ProcessingTime, Update) running {@code version}. */
    static TwsQuery<String, String, String> query(java.util.function.Supplier<? extends CheckpointProbe> version) {
        return TwsQuery.builder(version)
                .keyBy(row -> row.substring(0, row.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .outputMode(OutputMode.Update())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        TTLConfig ttl = new TTLConfig(TTL);
        last = getHandle().getValueState("last", Encoders.STRING(), ttl);
        seen = getHandle().getListState("seen", Encoders.STRING(), ttl);
        tags = getHandle().getMapState("tags", Encoders.STRING(), Encoders.LONG(), ttl);
        pair = getHandle().getValueState("pair", Encoders.tuple(Encoders.STRING(), Encoders.LONG()), TTLConfig.NONE());
    }

    @Override
    public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        while (rows.hasNext()) {
            String cmd = rows.next();
            cmd = cmd.substring(cmd.indexOf(',') + 1);
            String arg = cmd.substring(2);
            switch (cmd.charAt(0)) {
                case 'v' -> last.update(arg);
                case 'l' -> seen.appendValue(arg);
                case 'm' -> tags.updateValue(arg.split("=")[0], Long.parseLong(arg.split("=")[1]));
                case 'p' -> pair.update(new Tuple2<>(key + "!", Long.parseLong(arg)));
                case 't' -> getHandle().registerTimer(Long.parseLong(arg));
                default -> throw new IllegalArgumentException(cmd);
            }
            out.add(key + ":" + cmd);
        }
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo timer) {
        List<String> seenNow = new ArrayList<>();
        seen.get().foreach(seenNow::add);
        List<String> tagsNow = new ArrayList<>();
        tags.iterator().foreach(t -> tagsNow.add(t._1() + "=" + t._2()));
        String text = key + " fired " + timer.getExpiryTimeInMs() + " last=" + last.get() + " seen=" + seenNow
                + " tags=" + tagsNow + " pair=" + pair.get();
        return CollectionConverters.asScala(List.of(text).iterator());
    }

    /** A newer version: the same state variables and a new value state "notes". */
    public static class WithNotes extends CheckpointProbe {
        private static final long serialVersionUID = 1L;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            super.init(outputMode, timeMode);
            getHandle().getValueState("notes", Encoders.STRING(), TTLConfig.NONE());
        }

        public static TwsQuery<String, String, String> query() {
            return CheckpointProbe.query(WithNotes::new);
        }
    }

    /** The same state variables, but "last" holds a Long: another version of the processor. */
    public static class LongLast extends CheckpointProbe {
        private static final long serialVersionUID = 1L;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            TTLConfig ttl = new TTLConfig(TTL);
            getHandle().getValueState("last", Encoders.LONG(), ttl);
            getHandle().getMapState("seen", Encoders.STRING(), Encoders.LONG(), ttl);
            getHandle().getMapState("tags", Encoders.STRING(), Encoders.LONG(), ttl);
            getHandle().getValueState("pair", Encoders.tuple(Encoders.STRING(), Encoders.LONG()), TTLConfig.NONE());
        }

        public static TwsQuery<String, String, String> query() {
            return TwsQuery.builder(LongLast::new)
                    .keyBy(row -> row.substring(0, row.indexOf(',')), Encoders.STRING())
                    .input(Encoders.STRING())
                    .output(Encoders.STRING())
                    .timeMode(TimeMode.ProcessingTime())
                    .outputMode(OutputMode.Update())
                    .build();
        }
    }
}
