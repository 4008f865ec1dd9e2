package dev.twstester.samples.sessions;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;

/** A user viewed a page at event time {@code ts}. A Java bean for {@code Encoders.bean}. */
public class PageView implements Serializable {
    private static final long serialVersionUID = 1L;

    private String user;
    private String page;
    private Timestamp ts;

    public PageView() {
    }

    public PageView(String user, String page, Instant ts) {
        this.user = user;
        this.page = page;
        this.ts = Timestamp.from(ts);
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getPage() {
        return page;
    }

    public void setPage(String page) {
        this.page = page;
    }

    public Timestamp getTs() {
        return ts;
    }

    public void setTs(Timestamp ts) {
        this.ts = ts;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PageView other && Objects.equals(user, other.user) && Objects.equals(page, other.page)
                && Objects.equals(ts, other.ts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(user, page, ts);
    }

    /** Times in UTC ISO-8601. */
    @Override
    public String toString() {
        return "PageView{user=" + user + ", page=" + page + ", ts=" + (ts == null ? null : ts.toInstant()) + "}";
    }
}
