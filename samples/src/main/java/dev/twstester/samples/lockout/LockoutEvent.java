package dev.twstester.samples.lockout;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;

/**
 * What {@link LoginLockout} emits: a user {@code locked} (at the event time of the third failure)
 * or {@code unlocked} (at the expiry of the lock's timer). A bean for {@code Encoders.bean}.
 *
 * <pre>{@code
 * new LockoutEvent("ana", LockoutEvent.LOCKED, Timestamp.from(Instant.parse("2024-01-01T10:04:00Z")));
 * }</pre>
 */
public class LockoutEvent implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final String LOCKED = "locked";
    public static final String UNLOCKED = "unlocked";

    private String userId;
    private String kind;
    private Timestamp at;

    public LockoutEvent() {
    }

    public LockoutEvent(String userId, String kind, Timestamp at) {
        this.userId = userId;
        this.kind = kind;
        this.at = at;
    }

    /** {@code userId} locked at {@code at}. */
    public static LockoutEvent locked(String userId, Instant at) {
        return new LockoutEvent(userId, LOCKED, Timestamp.from(at));
    }

    /** {@code userId} unlocked at {@code at}. */
    public static LockoutEvent unlocked(String userId, Instant at) {
        return new LockoutEvent(userId, UNLOCKED, Timestamp.from(at));
    }

    public String getUserId() {
        return userId;
    }

    public void setUserId(String userId) {
        this.userId = userId;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public Timestamp getAt() {
        return at;
    }

    public void setAt(Timestamp at) {
        this.at = at;
    }

    /** True for a lock. */
    public boolean isLock() {
        return LOCKED.equals(kind);
    }

    /** True for an unlock. */
    public boolean isUnlock() {
        return UNLOCKED.equals(kind);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LockoutEvent e && Objects.equals(userId, e.userId) && Objects.equals(kind, e.kind)
                && Objects.equals(at, e.at);
    }

    @Override
    public int hashCode() {
        return Objects.hash(userId, kind, at);
    }

    @Override
    public String toString() {
        return userId + " " + kind + " @" + (at == null ? null : at.toInstant());
    }
}
