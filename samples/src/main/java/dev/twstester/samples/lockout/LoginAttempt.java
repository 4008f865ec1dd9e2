package dev.twstester.samples.lockout;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;

/**
 * One login attempt, a bean for {@code Encoders.bean}: the user, whether it failed, and its event time.
 *
 * <pre>{@code
 * LoginAttempt a = LoginAttempt.failure("ana", Instant.parse("2024-01-01T10:00:00Z"));
 * }</pre>
 */
public class LoginAttempt implements Serializable {
    private static final long serialVersionUID = 1L;
    /** {@link #getOutcome()} of a failed attempt. */
    public static final String FAILURE = "failure";
    /** {@link #getOutcome()} of a successful attempt. */
    public static final String SUCCESS = "success";

    private String userId;
    private String outcome;
    private Timestamp ts;

    public LoginAttempt() {
    }

    public LoginAttempt(String userId, String outcome, Timestamp ts) {
        this.userId = userId;
        this.outcome = outcome;
        this.ts = ts;
    }

    /** A failed attempt of {@code userId} at {@code ts}. */
    public static LoginAttempt failure(String userId, Instant ts) {
        return new LoginAttempt(userId, FAILURE, Timestamp.from(ts));
    }

    /** A successful attempt of {@code userId} at {@code ts}. */
    public static LoginAttempt success(String userId, Instant ts) {
        return new LoginAttempt(userId, SUCCESS, Timestamp.from(ts));
    }

    public String getUserId() {
        return userId;
    }

    public void setUserId(String userId) {
        this.userId = userId;
    }

    public String getOutcome() {
        return outcome;
    }

    public void setOutcome(String outcome) {
        this.outcome = outcome;
    }

    public Timestamp getTs() {
        return ts;
    }

    public void setTs(Timestamp ts) {
        this.ts = ts;
    }

    /** True for a failed attempt. */
    public boolean failed() {
        return FAILURE.equals(outcome);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LoginAttempt a && Objects.equals(userId, a.userId) && Objects.equals(outcome, a.outcome)
                && Objects.equals(ts, a.ts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(userId, outcome, ts);
    }

    @Override
    public String toString() {
        return userId + " " + outcome + " @" + (ts == null ? null : ts.toInstant());
    }
}
