package dev.twstester.sim;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

/** The experiments' event-time processor (ProcE). */
public class EventTimeProcessor extends StatefulProcessor<String, Event, OutEvent> {
    @Override
    public void init(OutputMode om, TimeMode tm) {
        Log.add("init");
    }

    @Override
    public scala.collection.Iterator<OutEvent> handleInputRows(String key, scala.collection.Iterator<Event> rows,
            TimerValues t) {
        List<Event> in = Log.list(rows);
        Log.add("input key=" + key + " wm=" + t.getCurrentWatermarkInMs() + " batch="
                + getHandle().getQueryInfo().getBatchId() + " rows=" + in);
        List<OutEvent> out = new ArrayList<>();
        for (Event e : in) {
            if (e.getCmd().startsWith("reg:")) {
                getHandle().registerTimer(Long.parseLong(e.getCmd().substring(4)));
            } else if (e.getCmd().equals("timer+5")) {
                getHandle().registerTimer(e.getTs().getTime() + 5000);
            }
            long outTs = e.getCmd().equals("emitold") ? 1L : e.getTs().getTime();
            out.add(new OutEvent(key, outTs, "in:" + e.getCmd()));
        }
        return Log.it(out);
    }

    @Override
    public scala.collection.Iterator<OutEvent> handleExpiredTimer(String key, TimerValues t, ExpiredTimerInfo info) {
        Log.add("timer key=" + key + " exp=" + info.getExpiryTimeInMs() + " wm=" + t.getCurrentWatermarkInMs()
                + " batch=" + getHandle().getQueryInfo().getBatchId());
        return Log.it(List.of(new OutEvent(key, info.getExpiryTimeInMs(), "timer")));
    }
}
