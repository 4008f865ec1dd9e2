package dev.twstester.samples.fraud;

import java.io.Serializable;
import java.util.Objects;

/**
 * One card's state handed over from the {@code mapGroupsWithState} machine to its
 * {@code transformWithState} port, as the port's initial state: the machine's {@link CardState}
 * and its pending timeout ({@code null} when none), read from the old operator's state. A Java
 * bean for {@code Encoders.bean}.
 */
public class CardHandover implements Serializable {
    private static final long serialVersionUID = 1L;

    private String status;
    private int strikes;
    private Long timeoutMs;

    public CardHandover() {
    }

    public CardHandover(CardState state, Long timeoutMs) {
        this.status = state.getStatus();
        this.strikes = state.getStrikes();
        this.timeoutMs = timeoutMs;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public int getStrikes() {
        return strikes;
    }

    public void setStrikes(int strikes) {
        this.strikes = strikes;
    }

    public Long getTimeoutMs() {
        return timeoutMs;
    }

    public void setTimeoutMs(Long timeoutMs) {
        this.timeoutMs = timeoutMs;
    }

    /** The machine's state the card had. */
    public CardState state() {
        return new CardState(status, strikes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CardHandover other && Objects.equals(status, other.status) && strikes == other.strikes
                && Objects.equals(timeoutMs, other.timeoutMs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(status, strikes, timeoutMs);
    }

    @Override
    public String toString() {
        return "CardHandover{status=" + status + ", strikes=" + strikes + ", timeoutMs=" + timeoutMs + "}";
    }
}
