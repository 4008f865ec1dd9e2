package dev.twstester.samples.mutants;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.chain.AbandonedCart;
import dev.twstester.samples.chain.CartDigest;
import dev.twstester.samples.chain.ChainQueries;
import dev.twstester.samples.chain.CartFlags;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.sim.TwsSimulator;

/**
 * The properties a user writes for {@link ChainQueries#abandonedCartDigest()} (flagged carts, then
 * an hourly digest of them): a flagged cart has items, each hour gets at most one digest, once the
 * watermark has passed the hour, counting exactly the carts and items flagged in it; and the
 * migration check.
 *
 * <pre>{@code
 * CartDigestProperties.invariants().check(ChainQueries.abandonedCartDigest(), scenario);   // empty: they hold
 * }</pre>
 */
public final class CartDigestProperties {
    private CartDigestProperties() {}

    /** Three users adding and checking out over three hours of event time, around the idle time and the hour. */
    static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("ana", "bo", "cy").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(ChainQueries.WATERMARK_DELAY)
                .eventTimeBase(CartWatchProperties.BASE).eventTimeSpread(Duration.ofMinutes(60))
                .interestingDurations(CartFlags.IDLE, Duration.ofHours(1)).batches(2, 8).eventsPerBatch(0, 4)
                .restartChance(0.1).triggerIntervals(Duration.ZERO, Duration.ofSeconds(5));
    }

    /** The invariants of flags and digests. */
    public static UserProperty<String, CartEvent, CartDigest> invariants() {
        return Invariants.property("cart_digest invariants", ChainQueries.abandonedCartDigest(), generator(),
                CartWatchProperties.EVENTS, List.of(CartDigestProperties::flaggedCartsHaveItems,
                        CartDigestProperties::digestsCountTheirHour, CartDigestProperties::digestsAfterTheirHour));
    }

    /** A new version answers and keeps state as the old one. */
    public static UserProperty<String, CartEvent, CartDigest> migration() {
        return Migration.property("cart_digest migration", ChainQueries.abandonedCartDigest(), generator(),
                CartWatchProperties.EVENTS, true);
    }

    private static Optional<String> flaggedCartsHaveItems(RunResult<String, CartEvent, CartDigest> run,
            TwsSimulator<String, CartEvent, CartDigest> sim) {
        RunResult<String, CartEvent, AbandonedCart> flags = run.operator(0);
        return flags.outputs().stream().filter(c -> c.getItemCount() < 1).findFirst()
                .map(c -> "a cart flagged without items: " + c);
    }

    private static Optional<String> digestsAfterTheirHour(RunResult<String, CartEvent, CartDigest> run,
            TwsSimulator<String, CartEvent, CartDigest> sim) {
        RunResult<String, AbandonedCart, CartDigest> digests = run.operator(1);
        for (BatchResult<String, AbandonedCart, CartDigest> batch : digests.batches()) {
            for (CartDigest d : batch.outputs()) {
                if (d.getHour().toInstant().plus(Duration.ofHours(1)).isAfter(batch.evictionWatermark())) {
                    return Optional.of("batch " + batch.batchId() + " digests " + d + " before the hour is over: watermark "
                            + batch.evictionWatermark());
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> digestsCountTheirHour(RunResult<String, CartEvent, CartDigest> run,
            TwsSimulator<String, CartEvent, CartDigest> sim) {
        RunResult<String, CartEvent, AbandonedCart> flags = run.operator(0);
        Map<String, Long> flagged = new HashMap<>();
        Map<String, Long> items = new HashMap<>();
        flags.outputs().forEach(c -> flagged.merge(ChainQueries.hourOf(c), 1L, Long::sum));
        flags.outputs().forEach(c -> items.merge(ChainQueries.hourOf(c), (long) c.getItemCount(), Long::sum));
        Map<String, Long> digested = new HashMap<>();
        for (CartDigest d : run.outputs()) {
            String hour = d.getHour().toInstant().toString();
            if (digested.put(hour, d.getCarts()) != null || d.getCarts() != flagged.getOrDefault(hour, 0L)
                    || d.getItems() != items.getOrDefault(hour, 0L)) {
                return Optional.of("digest " + d + " repeats its hour or differs from the " + flagged.getOrDefault(hour, 0L)
                        + " carts and " + items.getOrDefault(hour, 0L) + " items flagged in it");
            }
        }
        return Optional.empty();
    }
}
