package dev.twstester.samples.chain;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;

/** The carts abandoned in one hour of event time, from {@link HourlyDigest}: the query's output. A Java bean. */
public class CartDigest implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The hour's start. */
    private Timestamp hour;
    private long carts;
    private long items;

    public CartDigest() {
    }

    public CartDigest(Instant hour, long carts, long items) {
        this.hour = Timestamp.from(hour);
        this.carts = carts;
        this.items = items;
    }

    public Timestamp getHour() {
        return hour;
    }

    public void setHour(Timestamp hour) {
        this.hour = hour;
    }

    public long getCarts() {
        return carts;
    }

    public void setCarts(long carts) {
        this.carts = carts;
    }

    public long getItems() {
        return items;
    }

    public void setItems(long items) {
        this.items = items;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CartDigest other && Objects.equals(hour, other.hour) && carts == other.carts
                && items == other.items;
    }

    @Override
    public int hashCode() {
        return Objects.hash(hour, carts, items);
    }

    /** Times in UTC ISO-8601, whatever the JVM's default time zone. */
    @Override
    public String toString() {
        return "CartDigest{hour=" + (hour == null ? null : hour.toInstant()) + ", carts=" + carts + ", items=" + items
                + "}";
    }
}
