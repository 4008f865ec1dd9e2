package dev.twstester.samples.fraud;

import java.time.Duration;
import java.time.Instant;

/** What the fraud tests write their stories with. */
final class FraudStories {
    private FraudStories() {}

    /** {@code m} minutes after the epoch. */
    static Instant minute(long m) {
        return Instant.EPOCH.plus(Duration.ofMinutes(m));
    }

    /** A payment of {@code cents} on {@code card} at the one merchant the state machine's stories use. */
    static Payment pay(String card, long cents) {
        return new Payment(card, "shop", cents);
    }
}
