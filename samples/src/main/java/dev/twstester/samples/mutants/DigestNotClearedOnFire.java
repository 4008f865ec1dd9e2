package dev.twstester.samples.mutants;

import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.chain.CartDigest;
import dev.twstester.samples.chain.HourlyDigest;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/** Bug: the hour's counts are not cleared when its digest timer fires, so every digested hour stays in state. */
class DigestNotClearedOnFire extends HourlyDigest {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the hour's counts are not cleared when its digest timer fires, so every digested hour stays in state";

    @Override
    public Iterator<CartDigest> handleExpiredTimer(String hour, TimerValues timerValues, ExpiredTimerInfo timer) {
        CartDigest digest = new CartDigest(Instant.parse(hour), carts.get(), items.get());
        return CollectionConverters.asScala(List.of(digest).iterator());
    }
}
