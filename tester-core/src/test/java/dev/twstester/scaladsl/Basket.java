package dev.twstester.scaladsl;

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
import scala.jdk.javaapi.CollectionConverters;

/**
 * Rows {@code user:item}: value state "count" (rows seen), list state "items" (in order), map state
 * "seen" (item to times seen); emits {@code user:item#count}. An item {@code timer@N} registers a
 * processing-time timer at N ms, which emits {@code user:timer@N}.
 */
public class Basket extends StatefulProcessor<String, String, String> {
    private transient ValueState<Long> count;
    private transient ListState<String> items;
    private transient MapState<String, Integer> seen;

    static TwsQuery<String, String, String> query() {
        return TwsQuery.builder(Basket::new)
                .keyBy(row -> row.substring(0, row.indexOf(':')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
        items = getHandle().getListState("items", Encoders.STRING(), TTLConfig.NONE());
        seen = getHandle().getMapState("seen", Encoders.STRING(), Encoders.INT(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String user, scala.collection.Iterator<String> rows,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        long n = count.exists() ? count.get() : 0;
        while (rows.hasNext()) {
            String item = rows.next().substring(user.length() + 1);
            n++;
            if (item.startsWith("timer@")) {
                getHandle().registerTimer(Long.parseLong(item.substring(6)));
            }
            items.appendValue(item);
            seen.updateValue(item, seen.containsKey(item) ? seen.getValue(item) + 1 : 1);
            out.add(user + ":" + item + "#" + n);
        }
        count.update(n);
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String user, TimerValues timerValues,
            ExpiredTimerInfo info) {
        return CollectionConverters.asScala(List.of(user + ":timer@" + info.getExpiryTimeInMs()).iterator());
    }
}
