package dev.twstester.samples.mutants;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.property.EventFactory;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * The properties a user writes for {@link CartWatch}: its invariants (no alert for an empty cart,
 * no alert before 30 idle minutes, every cart idle by the watermark flagged, one timer per cart at
 * its last add plus 30 minutes) and the migration check of a new version against it.
 *
 * <pre>{@code
 * CartWatchProperties.invariants().check(CartWatch.query(), scenario);   // empty: the invariants hold
 * }</pre>
 */
public final class CartWatchProperties {
    static final Instant BASE = Instant.parse("2024-05-01T10:00:00Z");
    private static final long IDLE_MS = CartWatch.IDLE.toMillis();

    private CartWatchProperties() {}

    /** Three users adding and checking out over 90 minutes of event time, around the 30-minute idle time. */
    static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("ana", "bo", "cy").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(CartWatch.WATERMARK_DELAY)
                .eventTimeBase(BASE).eventTimeSpread(Duration.ofMinutes(90))
                .interestingDurations(CartWatch.IDLE).batches(1, 6).eventsPerBatch(0, 4).restartChance(0.1)
                .triggerIntervals(Duration.ZERO, Duration.ofSeconds(5));
    }

    static final EventFactory<CartEvent> EVENTS = (key, ms, variant) -> variant == 0
            ? CartEvent.add(key, "item" + ms % 7, Instant.ofEpochMilli(ms))
            : CartEvent.checkout(key, Instant.ofEpochMilli(ms));

    /** The invariants of abandoned-cart alerts. */
    public static UserProperty<String, CartEvent, CartAlert> invariants() {
        return Invariants.property("cart_watch invariants", CartWatch.query(), generator(), EVENTS,
                List.of(CartWatchProperties::noEmptyCart, CartWatchProperties::onlyWhenIdle,
                        CartWatchProperties::idleCartsFlagged));
    }

    /** A new version of CartWatch answers and keeps state as the old one. */
    public static UserProperty<String, CartEvent, CartAlert> migration() {
        return Migration.property("cart_watch migration", CartWatch.query(), generator(), EVENTS, true);
    }

    private static Optional<String> noEmptyCart(RunResult<String, CartEvent, CartAlert> run,
            TwsSimulator<String, CartEvent, CartAlert> sim) {
        return run.outputs().stream().filter(a -> a.getItemCount() == 0).findFirst()
                .map(a -> "an alert for an empty cart: " + a);
    }

    private static Optional<String> onlyWhenIdle(RunResult<String, CartEvent, CartAlert> run,
            TwsSimulator<String, CartEvent, CartAlert> sim) {
        for (BatchResult<String, CartEvent, CartAlert> batch : run.batches()) {
            for (CartAlert a : batch.outputs()) {
                if (a.getLastSeen().getTime() + IDLE_MS > batch.evictionWatermark().toEpochMilli()) {
                    return Optional.of("batch " + batch.batchId() + " flags a cart idle only since the watermark "
                            + batch.evictionWatermark() + " minus 30 min: " + a);
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> idleCartsFlagged(RunResult<String, CartEvent, CartAlert> run,
            TwsSimulator<String, CartEvent, CartAlert> sim) {
        long watermark = run.isEmpty() ? 0 : run.lastBatch().evictionWatermark().toEpochMilli();
        StateView<String> state = sim.state();
        for (String user : state.keys()) {
            Optional<Long> last = state.value("last_seen", user);
            List<Instant> expected = last.map(ms -> List.of(Instant.ofEpochMilli(ms + IDLE_MS))).orElse(List.of());
            if (!state.timers(user).equals(expected)) {
                return Optional.of(user + "'s timers are " + state.timers(user) + ", expected " + expected
                        + " for last_seen " + last.map(Instant::ofEpochMilli));
            }
            if (last.isPresent() && last.get() + IDLE_MS <= watermark) {
                return Optional.of(user + "'s cart was idle 30 min by the watermark " + Instant.ofEpochMilli(watermark)
                        + " but is not flagged: last_seen " + Instant.ofEpochMilli(last.get()));
            }
        }
        return Optional.empty();
    }
}
