package dev.twstester.samples.ttl;

import java.io.Serializable;
import java.util.Objects;

/** A user viewed a page. A Java bean for {@code Encoders.bean}; there is no event time (ProcessingTime mode). */
public class Click implements Serializable {
    private static final long serialVersionUID = 1L;

    private String user;
    private String page;

    public Click() {
    }

    public Click(String user, String page) {
        this.user = user;
        this.page = page;
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

    @Override
    public boolean equals(Object o) {
        return o instanceof Click other && Objects.equals(user, other.user) && Objects.equals(page, other.page);
    }

    @Override
    public int hashCode() {
        return Objects.hash(user, page);
    }

    @Override
    public String toString() {
        return "Click{user=" + user + ", page=" + page + "}";
    }
}
