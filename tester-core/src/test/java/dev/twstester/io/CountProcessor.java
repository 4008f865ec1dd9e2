package dev.twstester.io;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Counts readings per sensor and emits (sensor, count); the first reading registers an
 * event-time timer 5 s after it, which emits (sensor, -count).
 */
public class CountProcessor extends StatefulProcessor<String, Reading, Tuple2<String, Long>> {
    private transient ValueState<Long> count;

    /** The query: readings by sensor, event time on {@code ts} with a 10 s watermark delay, Update mode. */
    public static dev.twstester.TwsQuery<String, Reading, Tuple2<String, Long>> query() {
        return dev.twstester.TwsQuery.builder(CountProcessor::new)
                .keyBy(Reading::getSensor, Encoders.STRING())
                .input(Encoders.bean(Reading.class))
                .output(Encoders.tuple(Encoders.STRING(), Encoders.LONG()))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", java.time.Duration.ofSeconds(10))
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<Tuple2<String, Long>> handleInputRows(String key,
            scala.collection.Iterator<Reading> rows, TimerValues timerValues) {
        List<Tuple2<String, Long>> out = new ArrayList<>();
        while (rows.hasNext()) {
            Reading r = rows.next();
            Long c = count.get();
            if (c == null) {
                getHandle().registerTimer(r.getTs().getTime() + 5000);
            }
            long next = c == null ? 1 : c + 1;
            count.update(next);
            out.add(new Tuple2<>(key, next));
        }
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public scala.collection.Iterator<Tuple2<String, Long>> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo expiredTimerInfo) {
        return CollectionConverters.asScala(List.of(new Tuple2<>(key, -count.get())).iterator());
    }
}
