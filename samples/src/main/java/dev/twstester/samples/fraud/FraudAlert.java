package dev.twstester.samples.fraud;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A suspicious card session. {@code reason} is {@link #MERCHANT_LIMIT} (one merchant's total went
 * over the limit: {@code merchants} holds that merchant, {@code totalCents} its total) or
 * {@link #TOO_MANY_MERCHANTS} ({@code merchants} lists every merchant of the session in MapState
 * iteration order, {@code totalCents} is the session total). A Java bean.
 */
public class FraudAlert implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final String MERCHANT_LIMIT = "MERCHANT_LIMIT";
    public static final String TOO_MANY_MERCHANTS = "TOO_MANY_MERCHANTS";

    private String cardId;
    private String reason;
    private List<String> merchants = new ArrayList<>();
    private long totalCents;

    public FraudAlert() {
    }

    public FraudAlert(String cardId, String reason, List<String> merchants, long totalCents) {
        this.cardId = cardId;
        this.reason = reason;
        this.merchants = new ArrayList<>(merchants);
        this.totalCents = totalCents;
    }

    public String getCardId() {
        return cardId;
    }

    public void setCardId(String cardId) {
        this.cardId = cardId;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public List<String> getMerchants() {
        return merchants;
    }

    public void setMerchants(List<String> merchants) {
        this.merchants = merchants == null ? null : new ArrayList<>(merchants);
    }

    public long getTotalCents() {
        return totalCents;
    }

    public void setTotalCents(long totalCents) {
        this.totalCents = totalCents;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FraudAlert other
                && Objects.equals(cardId, other.cardId)
                && Objects.equals(reason, other.reason)
                && Objects.equals(merchants, other.merchants)
                && totalCents == other.totalCents;
    }

    @Override
    public int hashCode() {
        return Objects.hash(cardId, reason, merchants, totalCents);
    }

    @Override
    public String toString() {
        return "FraudAlert{cardId=" + cardId + ", reason=" + reason + ", merchants=" + merchants
                + ", totalCents=" + totalCents + "}";
    }
}
