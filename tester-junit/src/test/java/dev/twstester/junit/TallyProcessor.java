package dev.twstester.junit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The extension tests' processor: per sensor a running count (value state), the kinds seen (list
 * state) and a count per kind (map state); emits {@code sensor=count} once per batch. Kind 1
 * registers an event-time timer 2 s after the reading, which emits {@code sensor timer <time>} and
 * clears the sensor; kind 9 clears it at once; kind 7 throws.
 */
public class TallyProcessor extends StatefulProcessor<String, Reading, String> {
    private transient ValueState<Long> count;
    private transient ListState<Integer> kinds;
    private transient MapState<Integer, Long> perKind;

    /** EventTime, Update, watermark on ts delayed 5 s. */
    public static TwsQuery<String, Reading, String> query() {
        return query(OutputMode.Update());
    }

    /** EventTime, watermark on ts delayed 5 s, in {@code outputMode}. */
    public static TwsQuery<String, Reading, String> query(OutputMode outputMode) {
        return Reading.eventTimeQuery(TallyProcessor::new, outputMode);
    }

    /** A reading of {@code sensor} at {@code second} seconds after the epoch. */
    public static Reading reading(String sensor, int second, int kind) {
        return new Reading(sensor, second * 1000L, kind);
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
        kinds = getHandle().getListState("kinds", Encoders.INT(), TTLConfig.NONE());
        perKind = getHandle().getMapState("perKind", Encoders.INT(), Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Reading> rows,
            TimerValues timerValues) {
        long n = count.exists() ? count.get() : 0;
        while (rows.hasNext()) {
            Reading r = rows.next();
            if (r.getKind() == 7) {
                throw new IllegalStateException("kind 7 is not allowed (sensor " + key + ")");
            }
            if (r.getKind() == 9) {
                clear();
                return CollectionConverters.asScala(List.of(key + " cleared").iterator());
            }
            n++;
            kinds.appendValue(r.getKind());
            perKind.updateValue(r.getKind(), perKind.containsKey(r.getKind()) ? perKind.getValue(r.getKind()) + 1 : 1L);
            if (r.getKind() == 1) {
                getHandle().registerTimer(r.getTs().getTime() + 2000);
            }
        }
        count.update(n);
        return CollectionConverters.asScala(List.of(key + "=" + n).iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo info) {
        clear();
        return CollectionConverters.asScala(
                List.of(key + " timer " + Instant.ofEpochMilli(info.getExpiryTimeInMs())).iterator());
    }

    private void clear() {
        count.clear();
        kinds.clear();
        perKind.clear();
        List<Long> timers = new ArrayList<>();
        CollectionConverters.asJava(getHandle().listTimers()).forEachRemaining(t -> timers.add((Long) t));
        timers.forEach(getHandle()::deleteTimer);
    }
}
