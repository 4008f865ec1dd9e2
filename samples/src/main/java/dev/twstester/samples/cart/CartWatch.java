package dev.twstester.samples.cart;

import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.ListState;
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
 * Abandoned-cart detection, the story of Spark's transformWithState guide: a user's cart is
 * flagged when no item was added for 30 minutes of event time, unless they checked out.
 *
 * <ul>
 *   <li>{@code ListState<String> "items"}: the items in the cart, in the order added;</li>
 *   <li>{@code ValueState<Long> "last_seen"}: epoch ms of the latest "add";</li>
 *   <li>one event-time timer per user at {@code last_seen + 30 min}.</li>
 * </ul>
 */
public class CartWatch extends StatefulProcessor<String, CartEvent, CartAlert> {
    private static final long serialVersionUID = 1L;

    /** How long a cart may stay untouched (event time) before it counts as abandoned. */
    public static final Duration IDLE = Duration.ofMinutes(30);
    /** {@code withWatermark("ts", "10 minutes")}. */
    public static final Duration WATERMARK_DELAY = Duration.ofMinutes(10);

    protected transient ListState<String> items;
    protected transient ValueState<Long> lastSeen;

    /** The streaming query: {@code events.withWatermark("ts", "10 minutes").groupByKey(userId).transformWithState(...)}. */
    public static TwsQuery<String, CartEvent, CartAlert> query() {
        return query(CartWatch::new);
    }

    /** The same query running another version of the processor (a subclass, such as a refactoring of it). */
    public static TwsQuery<String, CartEvent, CartAlert> query(Supplier<? extends CartWatch> version) {
        return TwsQuery.builder(version)
                .keyBy(CartEvent::getUserId, Encoders.STRING())
                .input(Encoders.bean(CartEvent.class))
                .output(Encoders.bean(CartAlert.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", WATERMARK_DELAY)
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        items = getHandle().getListState("items", Encoders.STRING(), TTLConfig.NONE());
        lastSeen = getHandle().getValueState("last_seen", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public Iterator<CartAlert> handleInputRows(String userId, Iterator<CartEvent> events, TimerValues timerValues) {
        while (events.hasNext()) {
            CartEvent e = events.next();
            if ("add".equals(e.getEvent())) {
                add(e);
            } else if ("checkout".equals(e.getEvent())) {
                checkout();
            }
        }
        return Iterator.empty();
    }

    protected void add(CartEvent e) {
        long eventMs = e.getTs().getTime();
        items.appendValue(e.getItem());
        if (lastSeen.exists()) {
            long previous = lastSeen.get();
            getHandle().deleteTimer(previous + IDLE.toMillis());
            eventMs = Math.max(previous, eventMs);
        }
        lastSeen.update(eventMs);
        getHandle().registerTimer(eventMs + IDLE.toMillis());
    }

    protected void checkout() {
        if (lastSeen.exists()) {
            getHandle().deleteTimer(lastSeen.get() + IDLE.toMillis());
        }
        items.clear();
        lastSeen.clear();
    }

    @Override
    public Iterator<CartAlert> handleExpiredTimer(String userId, TimerValues timerValues, ExpiredTimerInfo timer) {
        List<String> cart = new ArrayList<>();
        items.get().foreach(cart::add);
        long last = lastSeen.exists() ? lastSeen.get() : timer.getExpiryTimeInMs() - IDLE.toMillis();
        items.clear();
        lastSeen.clear();
        CartAlert alert = new CartAlert(userId, cart.size(), new Timestamp(last));
        return CollectionConverters.asScala(List.of(alert).iterator());
    }
}
