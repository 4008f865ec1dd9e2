package dev.twstester.samples.cart;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;

/** An abandoned cart: emitted when no item was added for 30 minutes of event time. A Java bean. */
public class CartAlert implements Serializable {
    private static final long serialVersionUID = 1L;

    private String userId;
    private int itemCount;
    /** Event time of the last "add". */
    private Timestamp lastSeen;

    public CartAlert() {
    }

    public CartAlert(String userId, int itemCount, Timestamp lastSeen) {
        this.userId = userId;
        this.itemCount = itemCount;
        this.lastSeen = lastSeen;
    }

    public CartAlert(String userId, int itemCount, Instant lastSeen) {
        this(userId, itemCount, Timestamp.from(lastSeen));
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

    public Timestamp getLastSeen() {
        return lastSeen;
    }

    public void setLastSeen(Timestamp lastSeen) {
        this.lastSeen = lastSeen;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CartAlert other
                && Objects.equals(userId, other.userId)
                && itemCount == other.itemCount
                && Objects.equals(lastSeen, other.lastSeen);
    }

    @Override
    public int hashCode() {
        return Objects.hash(userId, itemCount, lastSeen);
    }

    /** Times in UTC ISO-8601, whatever the JVM's default time zone. */
    @Override
    public String toString() {
        return "CartAlert{userId=" + userId + ", itemCount=" + itemCount
                + ", lastSeen=" + (lastSeen == null ? null : lastSeen.toInstant()) + "}";
    }
}
