package dev.twstester.samples.fraud;

import java.io.Serializable;
import java.util.Objects;

/** A card payment at a merchant, in cents. A Java bean for {@code Encoders.bean}. */
public class Payment implements Serializable {
    private static final long serialVersionUID = 1L;

    private String cardId;
    private String merchant;
    private long amountCents;

    public Payment() {
    }

    public Payment(String cardId, String merchant, long amountCents) {
        this.cardId = cardId;
        this.merchant = merchant;
        this.amountCents = amountCents;
    }

    public String getCardId() {
        return cardId;
    }

    public void setCardId(String cardId) {
        this.cardId = cardId;
    }

    public String getMerchant() {
        return merchant;
    }

    public void setMerchant(String merchant) {
        this.merchant = merchant;
    }

    public long getAmountCents() {
        return amountCents;
    }

    public void setAmountCents(long amountCents) {
        this.amountCents = amountCents;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Payment other
                && Objects.equals(cardId, other.cardId)
                && Objects.equals(merchant, other.merchant)
                && amountCents == other.amountCents;
    }

    @Override
    public int hashCode() {
        return Objects.hash(cardId, merchant, amountCents);
    }

    @Override
    public String toString() {
        return "Payment{cardId=" + cardId + ", merchant=" + merchant + ", amountCents=" + amountCents + "}";
    }
}
