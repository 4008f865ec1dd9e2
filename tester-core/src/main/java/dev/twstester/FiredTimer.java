package dev.twstester;

import java.time.Instant;
import java.util.Objects;

/**
 * One timer that fired in a micro-batch: the grouping key and the expiry that was passed to
 * {@code handleExpiredTimer}, in the order Spark fired them.
 *
 * @param key    the grouping key whose timer fired
 * @param expiry the timer's expiry time ({@code ExpiredTimerInfo.getExpiryTimeInMs()})
 * @param <K>    grouping key type
 */
public record FiredTimer<K>(K key, Instant expiry) {
    public FiredTimer {
        Objects.requireNonNull(expiry, "expiry must not be null");
    }

    /** The expiry in epoch milliseconds, as Spark's API reports it. */
    public long expiryMs() {
        return expiry.toEpochMilli();
    }

    @Override
    public String toString() {
        return key + "@" + expiry;
    }
}
