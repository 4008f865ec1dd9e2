package dev.twstester.junit;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.TwsQuery;

import scala.jdk.javaapi.CollectionConverters;

/**
 * A processor with the bug the key-isolation check finds: it counts rows in an instance field, so
 * a key's count includes the rows of every key handled before it on the same processor instance.
 * Emits {@code sensor=count} per key and batch. Kind 7 throws.
 */
public class LeakyTally extends StatefulProcessor<String, Reading, String> {
    private long rowsSeen;

    /** No time mode, Update output. */
    public static TwsQuery<String, Reading, String> query() {
        return TwsQuery.builder(LeakyTally::new)
                .keyBy(Reading::getSensor, Encoders.STRING())
                .input(Encoders.bean(Reading.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.None())
                .outputMode(OutputMode.Update())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Reading> rows,
            TimerValues timerValues) {
        while (rows.hasNext()) {
            if (rows.next().getKind() == 7) {
                throw new IllegalStateException("kind 7 is not allowed (sensor " + key + ")");
            }
            rowsSeen++;
        }
        return CollectionConverters.asScala(java.util.List.of(key + "=" + rowsSeen).iterator());
    }
}
