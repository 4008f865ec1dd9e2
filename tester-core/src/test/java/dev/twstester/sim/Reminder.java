package dev.twstester.sim;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The migration examples' ProcessingTime processor: counts a key's values in "count" (the initial
 * state is the starting count), appends them to list "seen", maps each value to its count in
 * "byValue", and emits {@code key:value#count@processingTime}. "remind" registers a timer 5 s
 * later, "now" one at the batch's time; a timer emits {@code key:timer@expiry#count}.
 */
public class Reminder extends StatefulProcessorWithInitialState<String, String, String, Long> {
    private transient ValueState<Long> count;
    private transient ListState<String> seen;
    private transient MapState<String, Long> byValue;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
        seen = getHandle().getListState("seen", Encoders.STRING(), TTLConfig.NONE());
        byValue = getHandle().getMapState("byValue", Encoders.STRING(), Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public void handleInitialState(String key, Long initial, TimerValues timerValues) {
        count.update(initial);
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> values,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        long n = count.exists() ? count.get() : 0;
        long now = timerValues.getCurrentProcessingTimeInMs();
        while (values.hasNext()) {
            String v = values.next();
            n++;
            seen.appendValue(v);
            byValue.updateValue(v, n);
            if (v.equals("remind")) {
                getHandle().registerTimer(now + 5000);
            } else if (v.equals("now")) {
                getHandle().registerTimer(now);
            }
            out.add(key + ":" + v + "#" + n + "@" + now);
        }
        count.update(n);
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo info) {
        long n = count.exists() ? count.get() : 0;
        return CollectionConverters.asScala(List.of(key + ":timer@" + info.getExpiryTimeInMs() + "#" + n).iterator());
    }
}
