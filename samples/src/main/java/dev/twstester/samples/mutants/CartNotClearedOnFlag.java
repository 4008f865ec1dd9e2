package dev.twstester.samples.mutants;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartWatch;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/** Bug: the cart's state is not cleared when its idle timer fires and flags it. */
class CartNotClearedOnFlag extends CartWatch {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the cart's state is not cleared when its idle timer fires and flags it";

    @Override
    public Iterator<CartAlert> handleExpiredTimer(String userId, TimerValues timerValues, ExpiredTimerInfo timer) {
        List<String> cart = new ArrayList<>();
        items.get().foreach(cart::add);
        long last = lastSeen.exists() ? lastSeen.get() : timer.getExpiryTimeInMs() - IDLE.toMillis();
        CartAlert alert = new CartAlert(userId, cart.size(), new Timestamp(last));
        return CollectionConverters.asScala(List.of(alert).iterator());
    }
}
