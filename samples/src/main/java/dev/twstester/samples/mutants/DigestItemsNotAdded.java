package dev.twstester.samples.mutants;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.chain.AbandonedCart;
import dev.twstester.samples.chain.CartDigest;
import dev.twstester.samples.chain.HourlyDigest;

import scala.collection.Iterator;

/** Bug: the hour's item count is overwritten by each flagged cart's instead of summed. */
class DigestItemsNotAdded extends HourlyDigest {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the hour's item count is overwritten by each flagged cart's instead of summed";

    @Override
    public Iterator<CartDigest> handleInputRows(String hour, Iterator<AbandonedCart> flagged, TimerValues timerValues) {
        while (flagged.hasNext()) {
            AbandonedCart cart = flagged.next();
            carts.update(carts.exists() ? carts.get() + 1 : 1L);
            items.update((long) cart.getItemCount());
        }
        getHandle().registerTimer(digestTimeOf(hour));
        return Iterator.empty();
    }
}
