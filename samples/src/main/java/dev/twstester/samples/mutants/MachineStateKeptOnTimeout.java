package dev.twstester.samples.mutants;

import java.util.Iterator;

import org.apache.spark.sql.streaming.GroupState;

import dev.twstester.samples.fraud.CardState;
import dev.twstester.samples.fraud.CardStatus;
import dev.twstester.samples.fraud.FraudStateMachine;
import dev.twstester.samples.fraud.Payment;

/** Bug: a timed-out card answers NORMAL but its state is not removed. */
class MachineStateKeptOnTimeout extends FraudStateMachine {
    private static final long serialVersionUID = 1L;
    static final String BUG = "a timed-out card answers NORMAL but its state is not removed";

    @Override
    public CardStatus call(String cardId, Iterator<Payment> payments, GroupState<CardState> state) {
        return super.call(cardId, payments, new ForwardingGroupState<>(state) {
            @Override
            public void remove() {
                if (!hasTimedOut()) {
                    super.remove();
                }
            }
        });
    }
}
