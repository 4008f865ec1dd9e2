package dev.twstester.sim;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The migration examples' EventTime processor: emits {@code key:cmd@watermark} for each row; a
 * row "timer+N" registers a timer N ms after its event time, which emits {@code key:timer@expiry}.
 */
public class EventEcho extends StatefulProcessor<String, Event, String> {
    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {}

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Event> rows,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        while (rows.hasNext()) {
            Event e = rows.next();
            if (e.getCmd().startsWith("timer+")) {
                getHandle().registerTimer(e.getTs().getTime() + Long.parseLong(e.getCmd().substring(6)));
            }
            out.add(key + ":" + e.getCmd() + "@" + timerValues.getCurrentWatermarkInMs());
        }
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo info) {
        return CollectionConverters.asScala(List.of(key + ":timer@" + info.getExpiryTimeInMs()).iterator());
    }
}
