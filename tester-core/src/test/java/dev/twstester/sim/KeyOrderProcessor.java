package dev.twstester.sim;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The orders RocksDB gives back, which depend on the state encoding: each key puts int map keys
 * 1, 256, -1, 2, 65536 and registers five timers, then emits {@code "map:"} with the map's keys
 * and {@code "timers:"} with {@code listTimers()}, in the order the state API returns them. A
 * fired timer emits {@code "fired key@expiry"}. ProcessingTime mode.
 */
public class KeyOrderProcessor extends StatefulProcessor<String, String, String> {
    static final int[] MAP_KEYS = {1, 256, -1, 2, 65536};
    static final long[] TIMERS = {11_000_000L, 10_000_300L, 10_005_000L, 10_000_070L, 10_000_129L};

    private transient MapState<Integer, String> map;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        map = getHandle().getMapState("m", Encoders.INT(), Encoders.STRING(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
            TimerValues timerValues) {
        while (rows.hasNext()) {
            rows.next();
        }
        for (int k : MAP_KEYS) {
            map.updateValue(k, "v" + k);
        }
        for (long t : TIMERS) {
            getHandle().registerTimer(t);
        }
        StringBuilder keys = new StringBuilder("map:");
        CollectionConverters.asJava(map.keys()).forEachRemaining(k -> keys.append(' ').append(k));
        StringBuilder timers = new StringBuilder("timers:");
        CollectionConverters.asJava(getHandle().listTimers()).forEachRemaining(t -> timers.append(' ').append(t));
        List<String> out = new ArrayList<>(List.of(keys.toString(), timers.toString()));
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo info) {
        return CollectionConverters.asScala(List.of("fired " + key + "@" + info.getExpiryTimeInMs()).iterator());
    }
}
