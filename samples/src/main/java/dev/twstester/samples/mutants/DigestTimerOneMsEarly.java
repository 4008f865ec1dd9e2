package dev.twstester.samples.mutants;

import java.time.Duration;
import java.time.Instant;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.chain.AbandonedCart;
import dev.twstester.samples.chain.CartDigest;
import dev.twstester.samples.chain.HourlyDigest;

import scala.collection.Iterator;

/** Bug: the hour's digest timer is 1 ms before the hour's end, so a watermark on that millisecond closes the hour early. */
public class DigestTimerOneMsEarly extends HourlyDigest {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the hour's digest timer is 1 ms before the hour's end, so a watermark on that millisecond closes the hour early";

    @Override
    public Iterator<CartDigest> handleInputRows(String hour, Iterator<AbandonedCart> flagged, TimerValues timerValues) {
        while (flagged.hasNext()) {
            AbandonedCart cart = flagged.next();
            carts.update(carts.exists() ? carts.get() + 1 : 1L);
            items.update((items.exists() ? items.get() : 0L) + cart.getItemCount());
        }
        getHandle().registerTimer(Instant.parse(hour).plus(Duration.ofHours(1)).toEpochMilli() - 1);
        return Iterator.empty();
    }
}
