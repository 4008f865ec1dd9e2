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

/** Long keys; each input row is "key,mapKey": registers a timer at 5000 and puts mapKey into an Int map. */
public class LongKeyProcessor extends StatefulProcessor<Long, String, String> {
    private transient MapState<Integer, String> ints;

    @Override
    public void init(OutputMode om, TimeMode tm) {
        ints = getHandle().getMapState("ints", Encoders.INT(), Encoders.STRING(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(Long key, scala.collection.Iterator<String> rows,
            TimerValues t) {
        List<String> out = new ArrayList<>();
        for (String row : Log.list(rows)) {
            getHandle().registerTimer(5000);
            ints.updateValue(Integer.parseInt(row.substring(row.indexOf(',') + 1)), row);
        }
        out.add("in:" + key + " keys=" + Log.list(ints.keys()));
        return Log.it(out);
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(Long key, TimerValues t, ExpiredTimerInfo info) {
        return Log.it(List.of("timer:" + key));
    }
}
