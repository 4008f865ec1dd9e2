package dev.twstester.samples.migration;

import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;

import scala.Tuple2;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Moving running totals from an old system into transformWithState with initial state. The
 * initial state is a list of (user, points) rows; {@code handleInitialState} adds each row to
 * {@code ValueState<Long> "points"}, so a user listed twice gets the sum (Spark calls it once per
 * row, duplicates included, in batch 0 only). Each input row is one point; after a batch, every
 * user with input gets {@code (user, points)}.
 */
public class MigrateFromInitialState extends StatefulProcessorWithInitialState<String, String, Tuple2<String, Long>, Long> {
    private static final long serialVersionUID = 1L;

    /** What the old system exported: user b appears twice (two partial exports). */
    public static final List<Map.Entry<String, Long>> EXPORTED = List.of(
            Map.entry("a", 10L), Map.entry("b", 20L), Map.entry("b", 21L));

    private transient ValueState<Long> points;

    /** The query seeded with {@link #EXPORTED}. */
    public static TwsQuery<String, String, Tuple2<String, Long>> query() {
        return query(EXPORTED);
    }

    /** {@code events.groupByKey(u -> u).transformWithState(new MigrateFromInitialState(), None, Update, initial, ...)}. */
    public static TwsQuery<String, String, Tuple2<String, Long>> query(List<Map.Entry<String, Long>> initial) {
        return TwsQuery.builder(MigrateFromInitialState::new)
                .keyBy(user -> user, Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.tuple(Encoders.STRING(), Encoders.LONG()))
                .timeMode(TimeMode.None())
                .outputMode(OutputMode.Update())
                .initialState(initial, Encoders.LONG())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        points = getHandle().getValueState("points", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public void handleInitialState(String user, Long exported, TimerValues timerValues) {
        long current = points.exists() ? points.get() : 0L;
        points.update(current + exported);
    }

    @Override
    public Iterator<Tuple2<String, Long>> handleInputRows(String user, Iterator<String> rows, TimerValues timerValues) {
        long current = points.exists() ? points.get() : 0L;
        while (rows.hasNext()) {
            rows.next();
            current++;
        }
        points.update(current);
        return CollectionConverters.asScala(List.of(new Tuple2<>(user, current)).iterator());
    }
}
