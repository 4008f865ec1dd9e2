package dev.twstester.samples.sessions;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;

/**
 * A user's visit, closed after {@link UserSessions#GAP} without a view: the page it started on,
 * how many pages it viewed (one: a bounce), its first and last view, and when it closed (its last
 * view plus the gap: the event time the next operator reads). A Java bean.
 */
public class Session implements Serializable {
    private static final long serialVersionUID = 1L;

    private String user;
    private String landingPage;
    private long views;
    private Timestamp start;
    private Timestamp end;
    private Timestamp closedAt;

    public Session() {
    }

    public Session(String user, String landingPage, long views, Instant start, Instant end, Instant closedAt) {
        this.user = user;
        this.landingPage = landingPage;
        this.views = views;
        this.start = Timestamp.from(start);
        this.end = Timestamp.from(end);
        this.closedAt = closedAt == null ? null : Timestamp.from(closedAt);
    }

    /** A session that viewed one page. */
    public boolean bounced() {
        return views == 1;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getLandingPage() {
        return landingPage;
    }

    public void setLandingPage(String landingPage) {
        this.landingPage = landingPage;
    }

    public long getViews() {
        return views;
    }

    public void setViews(long views) {
        this.views = views;
    }

    public Timestamp getStart() {
        return start;
    }

    public void setStart(Timestamp start) {
        this.start = start;
    }

    public Timestamp getEnd() {
        return end;
    }

    public void setEnd(Timestamp end) {
        this.end = end;
    }

    public Timestamp getClosedAt() {
        return closedAt;
    }

    public void setClosedAt(Timestamp closedAt) {
        this.closedAt = closedAt;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Session other && Objects.equals(user, other.user)
                && Objects.equals(landingPage, other.landingPage) && views == other.views
                && Objects.equals(start, other.start) && Objects.equals(end, other.end)
                && Objects.equals(closedAt, other.closedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(user, landingPage, views, start, end, closedAt);
    }

    /** Times in UTC ISO-8601. */
    @Override
    public String toString() {
        return "Session{user=" + user + ", landingPage=" + landingPage + ", views=" + views + ", start="
                + instant(start) + ", end=" + instant(end) + ", closedAt=" + instant(closedAt) + "}";
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
