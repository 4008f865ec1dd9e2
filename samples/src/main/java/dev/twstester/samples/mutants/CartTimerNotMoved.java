package dev.twstester.samples.mutants;

import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;

/** Bug: a later add registers a new idle timer without deleting the previous one. */
class CartTimerNotMoved extends CartWatch {
    private static final long serialVersionUID = 1L;
    static final String BUG = "a later add registers a new idle timer without deleting the previous one";

    @Override
    protected void add(CartEvent e) {
        long eventMs = e.getTs().getTime();
        items.appendValue(e.getItem());
        if (lastSeen.exists()) {
            eventMs = Math.max(lastSeen.get(), eventMs);
        }
        lastSeen.update(eventMs);
        getHandle().registerTimer(eventMs + IDLE.toMillis());
    }
}
