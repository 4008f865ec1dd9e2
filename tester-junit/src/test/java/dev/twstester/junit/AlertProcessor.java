package dev.twstester.junit;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;
import scala.jdk.javaapi.CollectionConverters;

/** Emits an {@link Alert} with the sensor's running count per row, and keeps the last one in state. */
public class AlertProcessor extends StatefulProcessor<String, Reading, Alert> {
    private transient ValueState<Alert> last;

    /** No time mode, Update. */
    public static TwsQuery<String, Reading, Alert> query() {
        return TwsQuery.builder(AlertProcessor::new)
                .keyBy(Reading::getSensor, Encoders.STRING())
                .input(Encoders.bean(Reading.class))
                .output(Encoders.bean(Alert.class))
                .timeMode(TimeMode.None())
                .outputMode(OutputMode.Update())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        last = getHandle().getValueState("last", Encoders.bean(Alert.class), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<Alert> handleInputRows(String key, scala.collection.Iterator<Reading> rows,
            TimerValues timerValues) {
        List<Alert> out = new ArrayList<>();
        long n = last.exists() ? last.get().getCount() : 0;
        while (rows.hasNext()) {
            rows.next();
            out.add(Alert.of(key, ++n));
        }
        last.update(out.get(out.size() - 1));
        return CollectionConverters.asScala(out.iterator());
    }
}
