package dev.twstester.samples.chain;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The second operator of {@link ChainQueries#abandonedCartDigest()}, keyed by the hour a cart was
 * flagged in ({@link ChainQueries#hourOf}): counts the hour's abandoned carts and their items, and
 * emits one {@link CartDigest} when the watermark passes the hour's end (an event-time timer).
 *
 * <ul>
 *   <li>{@code ValueState<Long> "carts"} and {@code ValueState<Long> "items"}: the hour's counts;</li>
 *   <li>one event-time timer per hour, at its end.</li>
 * </ul>
 */
public class HourlyDigest extends StatefulProcessor<String, AbandonedCart, CartDigest> {
    private static final long serialVersionUID = 1L;

    protected transient ValueState<Long> carts;
    protected transient ValueState<Long> items;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        carts = getHandle().getValueState("carts", Encoders.LONG(), TTLConfig.NONE());
        items = getHandle().getValueState("items", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public Iterator<CartDigest> handleInputRows(String hour, Iterator<AbandonedCart> flagged, TimerValues timerValues) {
        while (flagged.hasNext()) {
            AbandonedCart cart = flagged.next();
            carts.update(carts.exists() ? carts.get() + 1 : 1L);
            items.update((items.exists() ? items.get() : 0L) + cart.getItemCount());
        }
        getHandle().registerTimer(digestTimeOf(hour));
        return Iterator.empty();
    }

    /** When the digest of {@code hour} (its start, ISO-8601) is due: the hour's end, in epoch ms. */
    protected long digestTimeOf(String hour) {
        return Instant.parse(hour).plus(Duration.ofHours(1)).toEpochMilli();
    }

    @Override
    public Iterator<CartDigest> handleExpiredTimer(String hour, TimerValues timerValues, ExpiredTimerInfo timer) {
        CartDigest digest = new CartDigest(Instant.parse(hour), carts.get(), items.get());
        carts.clear();
        items.clear();
        return CollectionConverters.asScala(List.of(digest).iterator());
    }
}
