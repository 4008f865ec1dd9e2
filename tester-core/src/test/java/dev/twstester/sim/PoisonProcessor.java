package dev.twstester.sim;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import scala.jdk.javaapi.CollectionConverters;

/**
 * Counts each key's rows in a value state and throws on a row whose command is "poison" (the
 * {@link Fixed} version skips it): the crash loop of docs/faults.md. Each output shows the batch's
 * processing time and watermark ("a:2@pt=2000,wm=5000"); a row "timer:N" registers a timer at N,
 * and the timer at {@link #POISON_TIMER} throws too.
 */
public class PoisonProcessor extends StatefulProcessor<String, Event, String> {
    /** A timer at this time throws when it fires (the {@link Fixed} version emits it). */
    public static final long POISON_TIMER = 666;
    private transient ValueState<Long> count;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), ttl());
    }

    /** The count's TTL: none here. */
    protected TTLConfig ttl() {
        return TTLConfig.NONE();
    }

    /** Whether this version skips a poison row instead of throwing. */
    protected boolean skipsPoison() {
        return false;
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Event> rows,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        while (rows.hasNext()) {
            Event e = rows.next();
            if (e.getCmd().equals("poison")) {
                if (!skipsPoison()) {
                    throw new IllegalStateException("poison row for key " + key);
                }
                out.add(key + ":skipped" + seen(timerValues));
                continue;
            }
            if (e.getCmd().startsWith("timer:")) {
                getHandle().registerTimer(Long.parseLong(e.getCmd().substring(6)));
            }
            Long c = count.get();
            count.update(c == null ? 1 : c + 1);
            out.add(key + ":" + count.get() + seen(timerValues));
        }
        return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
            ExpiredTimerInfo info) {
        if (info.getExpiryTimeInMs() == POISON_TIMER && !skipsPoison()) {
            throw new IllegalStateException("poison timer for key " + key);
        }
        return CollectionConverters.asScala(List.of("timer:" + key + ":" + info.getExpiryTimeInMs()
                + seen(timerValues)).iterator());
    }

    private static String seen(TimerValues v) {
        return "@pt=" + v.getCurrentProcessingTimeInMs() + ",wm=" + v.getCurrentWatermarkInMs();
    }

    /** The fixed version: a poison row is skipped ("a:skipped@..."), not counted. */
    public static class Fixed extends PoisonProcessor {
        @Override
        protected boolean skipsPoison() {
            return true;
        }
    }

    /** The count expires 10 s after its last write (at the writing batch's timestamp + 10 s). */
    public static class WithTtl extends PoisonProcessor {
        @Override
        protected TTLConfig ttl() {
            return new TTLConfig(java.time.Duration.ofSeconds(10));
        }
    }

    /** A version Spark refuses on a checkpoint of the others: "count" as list state. */
    public static class CountAsList extends PoisonProcessor {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            getHandle().getListState("count", Encoders.LONG(), TTLConfig.NONE());
        }
    }

    /** A version whose {@code init} throws, on the driver and in every task. */
    public static class InitFails extends PoisonProcessor {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            throw new IllegalStateException("init fails");
        }
    }
}
