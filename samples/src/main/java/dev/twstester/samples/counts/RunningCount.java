package dev.twstester.samples.counts;

import java.util.List;
import java.util.function.Supplier;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;

import scala.Tuple2;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The smallest useful processor: counts the rows of each key across batches and, after each batch
 * in which a key had rows, emits {@code (key, running count)}. {@code ValueState<Long> "count"},
 * {@code TimeMode.None}. The input rows are the keys themselves ({@code groupByKey(s -> s)}).
 */
public class RunningCount extends StatefulProcessor<String, String, Tuple2<String, Long>> {
    private static final long serialVersionUID = 1L;

    protected transient ValueState<Long> count;

    /** {@code words.groupByKey(w -> w, STRING).transformWithState(new RunningCount(), None, Update, tuple(STRING, LONG))}. */
    public static TwsQuery<String, String, Tuple2<String, Long>> query() {
        return query(RunningCount::new);
    }

    /** The same query running another version of the processor (a subclass, such as a refactoring of it). */
    public static TwsQuery<String, String, Tuple2<String, Long>> query(Supplier<? extends RunningCount> version) {
        return TwsQuery.builder(version)
                .keyBy(word -> word, Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.tuple(Encoders.STRING(), Encoders.LONG()))
                .timeMode(TimeMode.None())
                .outputMode(OutputMode.Update())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public Iterator<Tuple2<String, Long>> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
        long n = count.exists() ? count.get() : 0L;
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        count.update(n);
        return CollectionConverters.asScala(List.of(new Tuple2<>(key, n)).iterator());
    }
}
