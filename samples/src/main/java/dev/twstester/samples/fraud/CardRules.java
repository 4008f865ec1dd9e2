package dev.twstester.samples.fraud;

import java.time.Duration;
import java.util.Iterator;

/**
 * The fraud state machine's business rules, shared by the {@code mapGroupsWithState} function
 * ({@link FraudStateMachine}) and its {@code transformWithState} port ({@link FraudStateProcessor}):
 * a migration changes the state and timeout plumbing, not the rules.
 *
 * <ul>
 *   <li>a payment at or above {@code highCents} is a strike: the first makes a normal card
 *   {@code SUSPICIOUS}, the second {@code BLOCKED};</li>
 *   <li>payments on a blocked card are declined;</li>
 *   <li>a suspicious card returns to normal after {@code suspiciousFor} without payments, a blocked
 *   one after {@code blockedFor} (each payment starts the wait again);</li>
 *   <li>a normal card keeps no state.</li>
 * </ul>
 */
record CardRules(long highCents, Duration suspiciousFor, Duration blockedFor) implements java.io.Serializable {

    static final CardRules DEFAULT = new CardRules(1_000_00L, Duration.ofMinutes(30), Duration.ofHours(24));

    /** The card's state after a batch ({@code null}: normal, nothing kept) and the answer for it. */
    record Outcome(CardState state, CardStatus status) {}

    /** Applies one micro-batch of a card's payments, in the order given, to its state. */
    Outcome apply(String cardId, CardState before, Iterator<Payment> payments) {
        String status = before == null ? CardStatus.NORMAL : before.getStatus();
        int strikes = before == null ? 0 : before.getStrikes();
        int count = 0;
        boolean declined = false;
        while (payments.hasNext()) {
            Payment p = payments.next();
            count++;
            if (CardStatus.BLOCKED.equals(status)) {
                declined = true;
            } else if (p.getAmountCents() >= highCents) {
                strikes++;
                status = strikes >= 2 ? CardStatus.BLOCKED : CardStatus.SUSPICIOUS;
            }
        }
        String reason = declined ? CardStatus.DECLINED
                : CardStatus.NORMAL.equals(status) ? CardStatus.OK : CardStatus.HIGH_AMOUNT;
        CardState after = CardStatus.NORMAL.equals(status) ? null : new CardState(status, strikes);
        return new Outcome(after, new CardStatus(cardId, status, reason, count));
    }

    /** How long a card in {@code state} waits without payments before it is normal again. */
    Duration timeoutFor(CardState state) {
        return CardStatus.BLOCKED.equals(state.getStatus()) ? blockedFor : suspiciousFor;
    }

    /** The answer when a card's wait is over: it is normal again. */
    static CardStatus timedOut(String cardId) {
        return new CardStatus(cardId, CardStatus.NORMAL, CardStatus.TIMED_OUT, 0);
    }
}
