package dev.twstester.samples.chain;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;

/**
 * A cart flagged as abandoned by {@link CartFlags}, at the event time it was flagged (the first
 * operator's output, and the second one's input). A Java bean.
 */
public class AbandonedCart implements Serializable {
    private static final long serialVersionUID = 1L;

    private String userId;
    private int itemCount;
    /** When the cart was flagged: its last add plus {@link CartFlags#IDLE}, the event time downstream. */
    private Timestamp flaggedAt;

    public AbandonedCart() {
    }

    public AbandonedCart(String userId, int itemCount, Instant flaggedAt) {
        this.userId = userId;
        this.itemCount = itemCount;
        this.flaggedAt = Timestamp.from(flaggedAt);
    }

    public String getUserId() {
        return userId;
    }

    public void setUserId(String userId) {
        this.userId = userId;
    }

    public int getItemCount() {
        return itemCount;
    }

    public void setItemCount(int itemCount) {
        this.itemCount = itemCount;
    }

    public Timestamp getFlaggedAt() {
        return flaggedAt;
    }

    public void setFlaggedAt(Timestamp flaggedAt) {
        this.flaggedAt = flaggedAt;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AbandonedCart other && Objects.equals(userId, other.userId)
                && itemCount == other.itemCount && Objects.equals(flaggedAt, other.flaggedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(userId, itemCount, flaggedAt);
    }

    /** Times in UTC ISO-8601, whatever the JVM's default time zone. */
    @Override
    public String toString() {
        return "AbandonedCart{userId=" + userId + ", itemCount=" + itemCount
                + ", flaggedAt=" + (flaggedAt == null ? null : flaggedAt.toInstant()) + "}";
    }
}
