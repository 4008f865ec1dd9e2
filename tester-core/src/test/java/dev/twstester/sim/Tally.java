package dev.twstester.sim;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.ValueState;

import scala.jdk.javaapi.CollectionConverters;

/**
 * A processor of bare values, as {@code groupByKey(...).mapValues(...)} hands them: counts each
 * key's values in value state "count" and emits {@code key:value#count@watermark}; a value
 * {@code timer:N} registers a timer at N, which emits {@code key:timer@N}.
 */
public class Tally extends StatefulProcessor<String, String, String> {
    private transient ValueState<Long> count;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> values,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        long n = count.exists() ? count.get() : 0;
        while (values.hasNext()) {
            String v = values.next();
            n++;
            if (v.startsWith("timer:")) {
                getHandle().registerTimer(Long.parseLong(v.substring(6)));
            }
            out.add(key + ":" + v + "#" + n + "@" + timerValues.getCurrentWatermarkInMs());
        }
        count.update(n);
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo info) {
        return CollectionConverters.asScala(List.of(key + ":timer@" + info.getExpiryTimeInMs()).iterator());
    }
}
