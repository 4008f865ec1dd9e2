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

import dev.twstester.samples.cart.CartEvent;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The first operator of {@link ChainQueries#abandonedCartDigest()}, keyed by user: a cart is
 * flagged when no item was added for {@link #IDLE} of event time, unless its user checked out. It
 * emits an {@link AbandonedCart} at the flag's time (the timer's expiry), which is later than the
 * batch's late-event watermark, as Spark requires of an operator that passes its event time on
 * ({@code transformWithState(..., eventTimeColumnName = "flaggedAt")}).
 *
 * <ul>
 *   <li>{@code ValueState<Integer> "items"}: the number of items in the cart;</li>
 *   <li>{@code ValueState<Long> "last_add"}: epoch ms of the latest "add";</li>
 *   <li>one event-time timer per user at {@code last_add + 30 min}.</li>
 * </ul>
 */
public class CartFlags extends StatefulProcessor<String, CartEvent, AbandonedCart> {
    private static final long serialVersionUID = 1L;

    /** How long a cart may stay untouched (event time) before it is flagged. */
    public static final Duration IDLE = Duration.ofMinutes(30);

    protected transient ValueState<Integer> items;
    protected transient ValueState<Long> lastAdd;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        items = getHandle().getValueState("items", Encoders.INT(), TTLConfig.NONE());
        lastAdd = getHandle().getValueState("last_add", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public Iterator<AbandonedCart> handleInputRows(String userId, Iterator<CartEvent> events, TimerValues timerValues) {
        while (events.hasNext()) {
            CartEvent e = events.next();
            if ("add".equals(e.getEvent())) {
                add(e.getTs().getTime());
            } else if ("checkout".equals(e.getEvent())) {
                clear();
            }
        }
        return Iterator.empty();
    }

    protected void add(long eventMs) {
        items.update(items.exists() ? items.get() + 1 : 1);
        long last = eventMs;
        if (lastAdd.exists()) {
            getHandle().deleteTimer(lastAdd.get() + IDLE.toMillis());
            last = Math.max(lastAdd.get(), eventMs);
        }
        lastAdd.update(last);
        getHandle().registerTimer(last + IDLE.toMillis());
    }

    protected void clear() {
        if (lastAdd.exists()) {
            getHandle().deleteTimer(lastAdd.get() + IDLE.toMillis());
        }
        items.clear();
        lastAdd.clear();
    }

    @Override
    public Iterator<AbandonedCart> handleExpiredTimer(String userId, TimerValues timerValues, ExpiredTimerInfo timer) {
        AbandonedCart flagged = new AbandonedCart(userId, items.exists() ? items.get() : 0,
                Instant.ofEpochMilli(timer.getExpiryTimeInMs()));
        items.clear();
        lastAdd.clear();
        return CollectionConverters.asScala(List.of(flagged).iterator());
    }
}
