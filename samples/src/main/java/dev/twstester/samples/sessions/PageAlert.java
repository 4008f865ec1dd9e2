package dev.twstester.samples.sessions;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;

/**
 * Most sessions that landed on {@code page} in the hour up to {@code hourEnd} left after that one
 * page: {@code bounces} of {@code sessions}. A Java bean.
 */
public class PageAlert implements Serializable {
    private static final long serialVersionUID = 1L;

    private String page;
    private long sessions;
    private long bounces;
    private Timestamp hourEnd;

    public PageAlert() {
    }

    public PageAlert(String page, long sessions, long bounces, Instant hourEnd) {
        this.page = page;
        this.sessions = sessions;
        this.bounces = bounces;
        this.hourEnd = Timestamp.from(hourEnd);
    }

    public String getPage() {
        return page;
    }

    public void setPage(String page) {
        this.page = page;
    }

    public long getSessions() {
        return sessions;
    }

    public void setSessions(long sessions) {
        this.sessions = sessions;
    }

    public long getBounces() {
        return bounces;
    }

    public void setBounces(long bounces) {
        this.bounces = bounces;
    }

    public Timestamp getHourEnd() {
        return hourEnd;
    }

    public void setHourEnd(Timestamp hourEnd) {
        this.hourEnd = hourEnd;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PageAlert other && Objects.equals(page, other.page) && sessions == other.sessions
                && bounces == other.bounces && Objects.equals(hourEnd, other.hourEnd);
    }

    @Override
    public int hashCode() {
        return Objects.hash(page, sessions, bounces, hourEnd);
    }

    /** Times in UTC ISO-8601. */
    @Override
    public String toString() {
        return "PageAlert{page=" + page + ", sessions=" + sessions + ", bounces=" + bounces + ", hourEnd="
                + (hourEnd == null ? null : hourEnd.toInstant()) + "}";
    }
}
