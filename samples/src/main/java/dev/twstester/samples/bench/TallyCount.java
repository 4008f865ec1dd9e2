package dev.twstester.samples.bench;

import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code RunningCount} with a bean state: {@code ValueState<Tally> "tally"} (the last row and the
 * count), emitting the tally after each call. For the memory benchmark's bean case.
 */
public class TallyCount extends StatefulProcessor<String, String, Tally> {
    private static final long serialVersionUID = 1L;

    /** The state variable's name. */
    public static final String STATE = "tally";

    private transient ValueState<Tally> tally;

    public static TwsQuery<String, String, Tally> query() {
        return TwsQuery.builder(TallyCount::new)
                .keyBy(row -> row, Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.bean(Tally.class))
                .timeMode(TimeMode.None())
                .outputMode(OutputMode.Update())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        tally = getHandle().getValueState(STATE, Encoders.bean(Tally.class), TTLConfig.NONE());
    }

    @Override
    public Iterator<Tally> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
        Tally t = tally.exists() ? tally.get() : new Tally(null, 0);
        Tally next = new Tally(t.getLast(), t.getCount());
        while (rows.hasNext()) {
            next.setLast(rows.next());
            next.setCount(next.getCount() + 1);
        }
        tally.update(next);
        return CollectionConverters.asScala(List.of(next).iterator());
    }
}
