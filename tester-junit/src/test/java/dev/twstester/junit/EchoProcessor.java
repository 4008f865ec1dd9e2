package dev.twstester.junit;

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

import scala.jdk.javaapi.CollectionConverters;

/** Emits every row it is given with a running count; kind 1 registers an event-time timer 2 s later. */
public class EchoProcessor extends StatefulProcessor<String, Reading, String> {
    private transient ValueState<Long> count;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Reading> rows,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        long n = count.exists() ? count.get() : 0;
        while (rows.hasNext()) {
            Reading r = rows.next();
            n++;
            out.add(key + ":" + r.getTs().getTime() + ":" + n);
            if (r.getKind() == 1) {
                getHandle().registerTimer(r.getTs().getTime() + 2000);
            }
        }
        count.update(n);
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo info) {
        return CollectionConverters.asScala(List.of(key + ":timer:" + info.getExpiryTimeInMs()).iterator());
    }
}
