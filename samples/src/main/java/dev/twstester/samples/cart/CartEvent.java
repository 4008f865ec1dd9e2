package dev.twstester.samples.cart;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;

/** One shopping-cart event: a user adds an item or checks out. A Java bean for {@code Encoders.bean}. */
public class CartEvent implements Serializable {
    private static final long serialVersionUID = 1L;

    private String userId;
    /** {@code "add"} or {@code "checkout"}. */
    private String event;
    /** The item added; null for a checkout. */
    private String item;
    private Timestamp ts;

    public CartEvent() {
    }

    public CartEvent(String userId, String event, String item, Timestamp ts) {
        this.userId = userId;
        this.event = event;
        this.item = item;
        this.ts = ts;
    }

    /** An "add" event at {@code ts}. */
    public static CartEvent add(String userId, String item, Instant ts) {
        return new CartEvent(userId, "add", item, Timestamp.from(ts));
    }

    /** A "checkout" event at {@code ts}. */
    public static CartEvent checkout(String userId, Instant ts) {
        return new CartEvent(userId, "checkout", null, Timestamp.from(ts));
    }

    public String getUserId() {
        return userId;
    }

    public void setUserId(String userId) {
        this.userId = userId;
    }

    public String getEvent() {
        return event;
    }

    public void setEvent(String event) {
        this.event = event;
    }

    public String getItem() {
        return item;
    }

    public void setItem(String item) {
        this.item = item;
    }

    public Timestamp getTs() {
        return ts;
    }

    public void setTs(Timestamp ts) {
        this.ts = ts;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CartEvent other
                && Objects.equals(userId, other.userId)
                && Objects.equals(event, other.event)
                && Objects.equals(item, other.item)
                && Objects.equals(ts, other.ts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(userId, event, item, ts);
    }

    /** Times in UTC ISO-8601, whatever the JVM's default time zone. */
    @Override
    public String toString() {
        return "CartEvent{userId=" + userId + ", event=" + event + (item == null ? "" : ", item=" + item)
                + ", ts=" + (ts == null ? null : ts.toInstant()) + "}";
    }
}
