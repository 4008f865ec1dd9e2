package dev.twstester.samples.chain;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.TwsQuery;
import dev.twstester.samples.cart.CartEvent;

/**
 * Queries of several stateful operators, each defined by a static method (what
 * {@code twstester replay --query dev.twstester.samples.chain.ChainQueries#abandonedCartDigest}
 * loads). The event files of the digest's story are in {@code samples/src/main/resources/cart-digest}.
 *
 * <pre>{@code
 * TwsSimulator<String, CartEvent, CartDigest> sim = new TwsSimulator<>(ChainQueries.abandonedCartDigest());
 * sim.runBatch(events);
 * List<CartDigest> digests = sim.history().outputs();
 * }</pre>
 */
public final class ChainQueries {
    /** {@code withWatermark("ts", "10 minutes")}. */
    public static final Duration WATERMARK_DELAY = Duration.ofMinutes(10);

    private ChainQueries() {}

    /**
     * Abandoned carts, then an hourly digest of them, in one streaming query:
     * <pre>{@code
     * events.withWatermark("ts", "10 minutes")
     *       .groupByKey(CartEvent::getUserId).transformWithState(new CartFlags(), EventTime, Update, "flaggedAt")
     *       .groupByKey(ChainQueries::hourOf).transformWithState(new HourlyDigest(), EventTime, Update)
     * }</pre>
     * Operator 0 ({@link CartFlags}) flags a cart 30 minutes of event time after its last add;
     * operator 1 ({@link HourlyDigest}) counts the flagged carts per hour and emits a
     * {@link CartDigest} once the watermark passes the hour.
     */
    public static TwsQuery<String, CartEvent, CartDigest> abandonedCartDigest() {
        return abandonedCartDigest(CartFlags::new, HourlyDigest::new);
    }

    /** The same query running other versions of its two processors (subclasses, such as refactorings of them). */
    public static TwsQuery<String, CartEvent, CartDigest> abandonedCartDigest(Supplier<? extends CartFlags> flags,
            Supplier<? extends HourlyDigest> digest) {
        return TwsQuery.builder(flags)
                .keyBy(CartEvent::getUserId, Encoders.STRING())
                .input(Encoders.bean(CartEvent.class))
                .output(Encoders.bean(AbandonedCart.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", WATERMARK_DELAY)
                .outputEventTimeColumn("flaggedAt")
                .build()
                .then(TwsQuery.builder(digest)
                        .keyBy(ChainQueries::hourOf, Encoders.STRING())
                        .input(Encoders.bean(AbandonedCart.class))
                        .output(Encoders.bean(CartDigest.class))
                        .timeMode(TimeMode.EventTime())
                        .outputMode(OutputMode.Update()));
    }

    /** The hour a cart was flagged in, as its start in UTC ISO-8601: {@code 2024-05-01T10:00:00Z}. */
    public static String hourOf(AbandonedCart cart) {
        Timestamp at = cart.getFlaggedAt();
        return at.toInstant().truncatedTo(ChronoUnit.HOURS).toString();
    }
}
