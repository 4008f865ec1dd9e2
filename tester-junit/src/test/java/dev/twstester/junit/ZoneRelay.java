package dev.twstester.junit;

import java.time.Duration;
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

/**
 * The first operator of the extension tests' query of two operators ({@link #chain()}): keyed by
 * sensor, it counts each sensor's readings in value state {@code seen} and passes every reading on
 * as a reading of its zone (the sensor's first letter) at the same event time; kind 5 is held back.
 * The second operator is {@link TallyProcessor}, keyed by zone.
 */
public class ZoneRelay extends StatefulProcessor<String, Reading, Reading> {
    private final boolean holdsBackKind5;
    private transient ValueState<Long> seen;

    public ZoneRelay() {
        this(true);
    }

    /** A relay that passes kind 5 on too when {@code holdsBackKind5} is false (a wrong version). */
    ZoneRelay(boolean holdsBackKind5) {
        this.holdsBackKind5 = holdsBackKind5;
    }

    /** No time mode, Update output, watermark on ts delayed 5 s, output event time ts. */
    public static TwsQuery<String, Reading, Reading> query() {
        return query(true);
    }

    private static TwsQuery<String, Reading, Reading> query(boolean holdsBackKind5) {
        return relay(holdsBackKind5).watermark("ts", Duration.ofSeconds(5)).build();
    }

    /** A relay that follows another operator: keyed by the zone it gets, no watermark of its own. */
    public static TwsQuery.Builder<String, Reading, Reading> downstream() {
        return relay(true);
    }

    private static TwsQuery.Builder<String, Reading, Reading> relay(boolean holdsBackKind5) {
        return TwsQuery.builder(() -> new ZoneRelay(holdsBackKind5))
                .keyBy(Reading::getSensor, Encoders.STRING())
                .input(Encoders.bean(Reading.class))
                .output(Encoders.bean(Reading.class))
                .outputMode(OutputMode.Update())
                .outputEventTimeColumn("ts");
    }

    /** The relay, then {@link TallyProcessor} per zone in EventTime mode. */
    public static TwsQuery<String, Reading, String> chain() {
        return chain(true);
    }

    /** {@link #chain()} with a relay that passes kind 5 on too when {@code holdsBackKind5} is false. */
    static TwsQuery<String, Reading, String> chain(boolean holdsBackKind5) {
        return query(holdsBackKind5).then(tally());
    }

    /** {@link TallyProcessor} per zone in EventTime mode, after a relay. */
    static TwsQuery.Builder<String, Reading, String> tally() {
        return TwsQuery.builder(TallyProcessor::new)
                .keyBy(Reading::getSensor, Encoders.STRING())
                .input(Encoders.bean(Reading.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update());
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        seen = getHandle().getValueState("seen", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<Reading> handleInputRows(String sensor, scala.collection.Iterator<Reading> rows,
            TimerValues timerValues) {
        List<Reading> out = new ArrayList<>();
        while (rows.hasNext()) {
            Reading r = rows.next();
            seen.update(seen.exists() ? seen.get() + 1 : 1L);
            if (r.getKind() != 5 || !holdsBackKind5) {
                out.add(new Reading(sensor.substring(0, 1), r.getTs().getTime(), r.getKind()));
            }
        }
        return CollectionConverters.asScala(out.iterator());
    }
}
