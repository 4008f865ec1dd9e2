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
 * Echoes each row and fired timer with the batch's processing time and watermark as the callback
 * sees them; a row "timer:N" registers a timer at N, "timer:+N" at the batch time + N.
 */
public class TickProcessor extends StatefulProcessor<String, Event, String> {
    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Event> rows,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        while (rows.hasNext()) {
            Event e = rows.next();
            if (e.getCmd().startsWith("timer:+")) {
                getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + Long.parseLong(e.getCmd().substring(7)));
            } else if (e.getCmd().startsWith("timer:")) {
                getHandle().registerTimer(Long.parseLong(e.getCmd().substring(6)));
            }
            out.add("in:" + key + ":" + e.getCmd() + seen(timerValues));
        }
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo info) {
        return CollectionConverters.asScala(List.of("timer:" + key + ":" + info.getExpiryTimeInMs()
                + seen(timerValues)).iterator());
    }

    private static String seen(TimerValues v) {
        return "@pt=" + v.getCurrentProcessingTimeInMs() + ",wm=" + v.getCurrentWatermarkInMs();
    }
}
