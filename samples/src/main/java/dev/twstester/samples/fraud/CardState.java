package dev.twstester.samples.fraud;

import java.io.Serializable;
import java.util.Objects;

/**
 * What the fraud state machine keeps per card: its status ({@link CardStatus#SUSPICIOUS} or
 * {@link CardStatus#BLOCKED}; a normal card keeps no state) and the number of high payments seen
 * since it was last normal. A Java bean for {@code Encoders.bean}.
 */
public class CardState implements Serializable {
    private static final long serialVersionUID = 1L;

    private String status;
    private int strikes;

    public CardState() {
    }

    public CardState(String status, int strikes) {
        this.status = status;
        this.strikes = strikes;
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

    @Override
    public boolean equals(Object o) {
        return o instanceof CardState other && Objects.equals(status, other.status) && strikes == other.strikes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(status, strikes);
    }

    @Override
    public String toString() {
        return "CardState{status=" + status + ", strikes=" + strikes + "}";
    }
}
