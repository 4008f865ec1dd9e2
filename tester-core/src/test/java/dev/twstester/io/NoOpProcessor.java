package dev.twstester.io;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

/** A processor that is never run: RunResultJson only needs the query's encoders. */
class NoOpProcessor<K, I, O> extends StatefulProcessor<K, I, O> {
    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {}

    @Override
    public scala.collection.Iterator<O> handleInputRows(K key, scala.collection.Iterator<I> rows, TimerValues timerValues) {
        return scala.collection.Iterator$.MODULE$.empty();
    }
}
