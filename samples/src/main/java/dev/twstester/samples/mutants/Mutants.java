package dev.twstester.samples.mutants;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.twstester.samples.cart.CartWatch;

/**
 * The benchmark's seeded mutants, each with the property of its processor that should find it, and
 * the properties the correct processors must pass.
 *
 * <pre>{@code
 * for (Mutant<?, ?, ?> m : Mutants.all()) System.out.println(m.name() + ": " + m.bug());
 * }</pre>
 */
public final class Mutants {
    private Mutants() {}

    /** Every mutant, grouped by processor. */
    public static List<Mutant<?, ?, ?>> all() {
        return List.of(
                cart("CartTimerWaitsWatermarkDelay", CartTimerWaitsWatermarkDelay.BUG, CartTimerWaitsWatermarkDelay::new),
                cart("CartTimerNotMoved", CartTimerNotMoved.BUG, CartTimerNotMoved::new),
                cart("CartNotClearedOnFlag", CartNotClearedOnFlag.BUG, CartNotClearedOnFlag::new),
                cart("CartCheckoutKeepsTimer", CartCheckoutKeepsTimer.BUG, CartCheckoutKeepsTimer::new),
                new Mutant<>("CartOutOfOrderAdd", CartOutOfOrderAdd.BUG, CartWatch.query(CartOutOfOrderAdd::new),
                        CartWatchProperties.migration()));
    }

    /** Every property a mutant is checked with, each of which the correct processor must pass. */
    public static List<UserProperty<?, ?, ?>> properties() {
        Map<String, UserProperty<?, ?, ?>> byName = new LinkedHashMap<>();
        for (Mutant<?, ?, ?> m : all()) {
            byName.putIfAbsent(m.property().name(), m.property());
        }
        return List.copyOf(byName.values());
    }

    private static Mutant<?, ?, ?> cart(String name, String bug, Supplier<? extends CartWatch> version) {
        return new Mutant<>(name, bug, CartWatch.query(version), CartWatchProperties.invariants());
    }
}
