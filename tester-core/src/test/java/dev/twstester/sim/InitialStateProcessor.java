package dev.twstester.sim;

import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

/** The experiments' ProcInit: initial Long per key; keys "c" and "e" register processing-time timers. */
public class InitialStateProcessor extends StatefulProcessorWithInitialState<String, String, String, Long> {
    private transient ValueState<Long> state;

    @Override
    public void init(OutputMode om, TimeMode tm) {
        state = getHandle().getValueState("s", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public void handleInitialState(String key, Long initial, TimerValues t) {
        Log.add("initState key=" + key + " s=" + initial + " " + Log.tv(t) + " batch="
                + getHandle().getQueryInfo().getBatchId() + " prev=" + state.get());
        state.update(initial);
        if (key.equals("c")) {
            getHandle().registerTimer(t.getCurrentProcessingTimeInMs() + 2000);
        }
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
            TimerValues t) {
        Log.add("input key=" + key + " " + Log.tv(t) + " batch=" + getHandle().getQueryInfo().getBatchId()
                + " rows=" + Log.list(rows) + " state=" + state.get());
        if (key.equals("e")) {
            getHandle().registerTimer(t.getCurrentProcessingTimeInMs() + 1000);
        }
        return Log.it(List.of("in:" + key + ":" + state.get()));
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues t, ExpiredTimerInfo info) {
        return Log.it(List.of("timer:" + key + ":" + info.getExpiryTimeInMs()));
    }
}
