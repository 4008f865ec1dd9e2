package dev.twstester.samples.ttl;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A session closed after being idle: its click count and the pages viewed in the last 30 minutes
 * (what TTL left), in viewing order. {@code closedAt} is the processing time of the idle timer.
 * A Java bean.
 */
public class SessionClosed implements Serializable {
    private static final long serialVersionUID = 1L;

    private String user;
    private long clicks;
    private List<String> recentPages = new ArrayList<>();
    private Timestamp closedAt;

    public SessionClosed() {
    }

    public SessionClosed(String user, long clicks, List<String> recentPages, Instant closedAt) {
        this.user = user;
        this.clicks = clicks;
        this.recentPages = new ArrayList<>(recentPages);
        this.closedAt = Timestamp.from(closedAt);
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public long getClicks() {
        return clicks;
    }

    public void setClicks(long clicks) {
        this.clicks = clicks;
    }

    public List<String> getRecentPages() {
        return recentPages;
    }

    public void setRecentPages(List<String> recentPages) {
        this.recentPages = recentPages == null ? null : new ArrayList<>(recentPages);
    }

    public Timestamp getClosedAt() {
        return closedAt;
    }

    public void setClosedAt(Timestamp closedAt) {
        this.closedAt = closedAt;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SessionClosed other
                && Objects.equals(user, other.user)
                && clicks == other.clicks
                && Objects.equals(recentPages, other.recentPages)
                && Objects.equals(closedAt, other.closedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(user, clicks, recentPages, closedAt);
    }

    /** Times in UTC ISO-8601. */
    @Override
    public String toString() {
        return "SessionClosed{user=" + user + ", clicks=" + clicks + ", recentPages=" + recentPages
                + ", closedAt=" + (closedAt == null ? null : closedAt.toInstant()) + "}";
    }
}
