package dev.twstester.samples.fraud;

import java.io.Serializable;
import java.util.Objects;

/**
 * The fraud state machine's answer for one card after a micro-batch: its status, why it is in it
 * ({@link #reason}), and how many of the card's payments the batch brought ({@code 0} when the
 * card's timeout fired). A Java bean.
 */
public class CardStatus implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final String NORMAL = "NORMAL";
    public static final String SUSPICIOUS = "SUSPICIOUS";
    public static final String BLOCKED = "BLOCKED";

    /** No high payment since the card was last normal. */
    public static final String OK = "OK";
    /** A payment at or above the high-amount line. */
    public static final String HIGH_AMOUNT = "HIGH_AMOUNT";
    /** Payments on a blocked card, all declined. */
    public static final String DECLINED = "DECLINED";
    /** The card's timeout fired: a suspicious card calmed down, or a block ended. */
    public static final String TIMED_OUT = "TIMED_OUT";

    private String cardId;
    private String status;
    private String reason;
    private int payments;

    public CardStatus() {
    }

    public CardStatus(String cardId, String status, String reason, int payments) {
        this.cardId = cardId;
        this.status = status;
        this.reason = reason;
        this.payments = payments;
    }

    public String getCardId() {
        return cardId;
    }

    public void setCardId(String cardId) {
        this.cardId = cardId;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public int getPayments() {
        return payments;
    }

    public void setPayments(int payments) {
        this.payments = payments;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CardStatus other
                && Objects.equals(cardId, other.cardId)
                && Objects.equals(status, other.status)
                && Objects.equals(reason, other.reason)
                && payments == other.payments;
    }

    @Override
    public int hashCode() {
        return Objects.hash(cardId, status, reason, payments);
    }

    @Override
    public String toString() {
        return "CardStatus{cardId=" + cardId + ", status=" + status + ", reason=" + reason + ", payments=" + payments
                + "}";
    }
}
