package dev.twstester.junit;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

/** Defines the state variable "count" twice in init(): Spark rejects it when the query plans its first batch. */
public class DuplicateStateProcessor extends StatefulProcessor<String, Reading, String> {
    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
        getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Reading> rows,
            TimerValues timerValues) {
        return scala.collection.Iterator$.MODULE$.empty();
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo info) {
        return scala.collection.Iterator$.MODULE$.empty();
    }
}
