package dev.twstester.samples.mutants;

import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;

/** Bug: an add that arrives out of order moves the cart's last-seen time back to its own time. */
class CartOutOfOrderAdd extends CartWatch {
    private static final long serialVersionUID = 1L;
    static final String BUG = "an add that arrives out of order moves the cart's last-seen time back to its own time";

    @Override
    protected void add(CartEvent e) {
        long eventMs = e.getTs().getTime();
        items.appendValue(e.getItem());
        if (lastSeen.exists()) {
            getHandle().deleteTimer(lastSeen.get() + IDLE.toMillis());
        }
        lastSeen.update(eventMs);
        getHandle().registerTimer(eventMs + IDLE.toMillis());
    }
}
