package dev.twstester.samples.mutants;

import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;

/** Bug: the idle timer also waits the watermark delay (last add + 40 min), as if timers fired on event time. */
class CartTimerWaitsWatermarkDelay extends CartWatch {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the idle timer also waits the watermark delay (last add + 40 min), as if timers fired on event time";

    @Override
    protected void add(CartEvent e) {
        long eventMs = e.getTs().getTime();
        items.appendValue(e.getItem());
        if (lastSeen.exists()) {
            long previous = lastSeen.get();
            getHandle().deleteTimer(previous + IDLE.toMillis() + WATERMARK_DELAY.toMillis());
            eventMs = Math.max(previous, eventMs);
        }
        lastSeen.update(eventMs);
        getHandle().registerTimer(eventMs + IDLE.toMillis() + WATERMARK_DELAY.toMillis());
    }
}
