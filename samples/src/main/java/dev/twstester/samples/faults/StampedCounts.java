package dev.twstester.samples.faults;

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
 * Counts rows per key and emits {@code "key=count@time"}. With {@code wallClock} the time is
 * {@code System.currentTimeMillis()}: a retried task (or a restarted query replaying a batch)
 * emits a different row than the first attempt did, so the sink may see both. Without it, the time
 * is the batch's processing time from {@code TimerValues}, which Spark keeps in the offset log and
 * gives a retried batch again. A simulator built with {@code checkRetries()} catches the first.
 */
public class StampedCounts extends StatefulProcessor<String, String, String> {
    private static final long serialVersionUID = 1L;
    private final boolean wallClock;
    private transient ValueState<Long> count;

    public StampedCounts(boolean wallClock) {
        this.wallClock = wallClock;
    }

    /** {@code rows.groupByKey(r -> r).transformWithState(new StampedCounts(wallClock), ProcessingTime, Update, STRING)}. */
    public static TwsQuery<String, String, String> query(boolean wallClock) {
        return TwsQuery.builder(() -> new StampedCounts(wallClock))
                .keyBy(row -> row, Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
        long n = count.exists() ? count.get() : 0L;
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        count.update(n);
        long time = wallClock ? System.currentTimeMillis() : timerValues.getCurrentProcessingTimeInMs();
        return CollectionConverters.asScala(List.of(key + "=" + n + "@" + time).iterator());
    }
}
