package dev.twstester.samples.fraud;

import java.util.Iterator;

import org.apache.spark.api.java.function.MapGroupsWithStateFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.GroupState;
import org.apache.spark.sql.streaming.GroupStateTimeout;

import dev.twstester.TwsQuery;

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

    /**
     * The machine as a query: {@code payments.groupByKey(cardId).mapGroupsWithState(new FraudStateMachine(),
     * bean(CardState), bean(CardStatus), ProcessingTimeTimeout())}.
     */
    public static TwsQuery<String, Payment, CardStatus> query() {
        return query(new FraudStateMachine());
    }

    /** The same query running another version of the function (a subclass, such as a refactoring of it). */
    public static TwsQuery<String, Payment, CardStatus> query(FraudStateMachine version) {
        return TwsQuery.mapGroupsWithState(version, Encoders.bean(CardState.class),
                        GroupStateTimeout.ProcessingTimeTimeout())
                .keyBy(Payment::getCardId, Encoders.STRING())
                .input(Encoders.bean(Payment.class))
                .output(Encoders.bean(CardStatus.class))
                .build();
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
