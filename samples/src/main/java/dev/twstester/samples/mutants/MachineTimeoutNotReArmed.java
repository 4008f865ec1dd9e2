package dev.twstester.samples.mutants;

import java.util.Iterator;

import org.apache.spark.sql.streaming.GroupState;

import dev.twstester.samples.fraud.CardState;
import dev.twstester.samples.fraud.CardStatus;
import dev.twstester.samples.fraud.FraudStateMachine;
import dev.twstester.samples.fraud.Payment;

/** Bug: the legacy timeout is set only when a card first gets state, not re-armed by later payments. */
class MachineTimeoutNotReArmed extends FraudStateMachine {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the legacy timeout is set only when a card first gets state, not re-armed by later payments";

    @Override
    public CardStatus call(String cardId, Iterator<Payment> payments, GroupState<CardState> state) {
        boolean hadState = state.exists();
        return super.call(cardId, payments, new ForwardingGroupState<>(state) {
            @Override
            public void setTimeoutDuration(long durationMs) {
                if (!hadState) {
                    super.setTimeoutDuration(durationMs);
                }
            }
        });
    }
}
