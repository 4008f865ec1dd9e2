package dev.twstester.sim;

import java.sql.Timestamp;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The null grouping key in initial state and with event-time timers. {@code access} names what the
 * processor does: "init-none" (no state access in {@code handleInitialState}), "init-value-update"
 * (updates value "v" there), "init-timer" (registers a processing-time timer there), "et-none" (an
 * event-time query whose handler touches no state), "et-timer" (registers an event-time timer at
 * the row's time plus 10 s), "et-timer-list" (lists timers). Rows are "key,seconds"; "null,..."
 * gives the null key. Each input call emits "key:rows=n".
 */
public class NullKeyInitialStateProcessor extends StatefulProcessorWithInitialState<String, NullKeyInitialStateProcessor.Row,
        String, Long> {
    private final String access;
    private transient ValueState<Long> v;

    /** An input row: key text and event time. */
    public static class Row implements java.io.Serializable {
        private String id;
        private Timestamp ts;

        public Row() {}

        public Row(String id, long seconds) {
            this.id = id;
            this.ts = new Timestamp(seconds * 1000);
        }

        public String getId() { return id; }
        public void setId(String id) { this.id = id; }
        public Timestamp getTs() { return ts; }
        public void setTs(Timestamp ts) { this.ts = ts; }
    }

    public NullKeyInitialStateProcessor(String access) {
        this.access = access;
    }

    /** The query of {@code access}: initial state {@code (null, 7), ("x", 1)} for "init-", event time for "et-". */
    public static TwsQuery<String, Row, String> query(String access) {
        TwsQuery.Builder<String, Row, String> b = TwsQuery.builder(() -> new NullKeyInitialStateProcessor(access))
                .keyBy(r -> "null".equals(r.getId()) ? null : r.getId(), Encoders.STRING())
                .input(Encoders.bean(Row.class)).output(Encoders.STRING())
                .outputMode(OutputMode.Update());
        if (access.startsWith("et-")) {
            b.timeMode(TimeMode.EventTime()).watermark("ts", Duration.ofSeconds(5));
        } else {
            b.timeMode(TimeMode.ProcessingTime());
        }
        List<Map.Entry<String, Long>> initial = List.of(new AbstractMap.SimpleEntry<>(null, 7L), Map.entry("x", 1L));
        return b.initialState(initial, Encoders.LONG()).build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        v = getHandle().getValueState("v", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public void handleInitialState(String key, Long initial, TimerValues timerValues) {
        if (key == null && access.equals("init-value-update")) {
            v.update(initial);
        } else if (key == null && access.equals("init-timer")) {
            getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + 60_000);
        } else if (key != null) {
            v.update(initial);
        }
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Row> rows,
            TimerValues timerValues) {
        int n = 0;
        long last = 0;
        while (rows.hasNext()) {
            last = rows.next().getTs().getTime();
            n++;
        }
        String result = "";
        if (access.equals("et-timer")) {
            getHandle().registerTimer(last + 10_000);
            result = " timer";
        } else if (access.equals("et-timer-list")) {
            result = " timers=" + getHandle().listTimers().hasNext();
        }
        return CollectionConverters.asScala(List.of(key + ":rows=" + n + result).iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo info) {
        return CollectionConverters.asScala(List.of(key + ":fired=" + info.getExpiryTimeInMs()).iterator());
    }
}
