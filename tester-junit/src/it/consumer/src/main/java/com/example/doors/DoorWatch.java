package com.example.doors;

import java.time.Duration;
import java.time.Instant;
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

/**
 * Alerts on a door left open: an open door registers an event-time timer one minute after it
 * opened; closing it in time cancels the timer and reports how long it was open. The job runs it as
 * {@code events.withWatermark("ts", "10 seconds").groupByKey(DoorEvent::getDoor, STRING)
 * .transformWithState(new DoorWatch(), TimeMode.EventTime(), OutputMode.Update(), STRING)}.
 */
public class DoorWatch extends StatefulProcessor<String, DoorEvent, String> {
    static final Duration LIMIT = Duration.ofMinutes(1);

    private transient ValueState<Long> openedAt;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        openedAt = getHandle().getValueState("openedAt", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String door, scala.collection.Iterator<DoorEvent> rows,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        while (rows.hasNext()) {
            DoorEvent e = rows.next();
            long at = e.getTs().getTime();
            if (e.isOpen() && !openedAt.exists()) {
                openedAt.update(at);
                getHandle().registerTimer(at + LIMIT.toMillis());
            } else if (!e.isOpen() && openedAt.exists()) {
                long opened = openedAt.get();
                getHandle().deleteTimer(opened + LIMIT.toMillis());
                openedAt.clear();
                out.add(door + " closed after " + Duration.ofMillis(at - opened).toSeconds() + " s");
            }
        }
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String door, TimerValues timerValues,
            ExpiredTimerInfo info) {
        String alert = door + " open since " + Instant.ofEpochMilli(openedAt.get());
        openedAt.clear();
        return CollectionConverters.asScala(List.of(alert).iterator());
    }
}
