package dev.twstester.samples.fraud;

import java.util.Iterator;

import org.apache.spark.api.java.function.MapGroupsWithStateFunction;
import org.apache.spark.sql.streaming.GroupState;

/**
 * A per-card fraud state machine written for the legacy {@code mapGroupsWithState} API, with a
 * processing-time timeout (see {@link CardRules} for the rules):
 *
 * <pre>{@code
 * payments.groupByKey((MapFunction<Payment, String>) Payment::getCardId, Encoders.STRING())
 *         .mapGroupsWithState(new FraudStateMachine(), Encoders.bean(CardState.class),
 *                 Encoders.bean(CardStatus.class), GroupStateTimeout.ProcessingTimeTimeout());
 * }</pre>
 *
 * Every call answers one {@link CardStatus}; when the timeout fires the call gets no payments and
 * {@code hasTimedOut()}. Its port to {@code transformWithState} is {@link FraudStateProcessor}.
 */
public class FraudStateMachine implements MapGroupsWithStateFunction<String, Payment, CardState, CardStatus> {
    private static final long serialVersionUID = 1L;

    private final CardRules rules;

    /** The machine with the default rules: $1,000 is high, 30 minutes to calm down, 24 hours of block. */
    public FraudStateMachine() {
        this(CardRules.DEFAULT);
    }

    FraudStateMachine(CardRules rules) {
        this.rules = rules;
    }

    @Override
    public CardStatus call(String cardId, Iterator<Payment> payments, GroupState<CardState> state) {
        if (state.hasTimedOut()) {
            state.remove();
            return CardRules.timedOut(cardId);
        }
        CardRules.Outcome outcome = rules.apply(cardId, state.getOption().getOrElse(() -> null), payments);
        if (outcome.state() == null) {
            state.remove();
        } else {
            state.update(outcome.state());
            state.setTimeoutDuration(rules.timeoutFor(outcome.state()).toMillis());
        }
        return outcome.status();
    }
}
