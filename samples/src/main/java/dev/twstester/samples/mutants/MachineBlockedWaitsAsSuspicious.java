package dev.twstester.samples.mutants;

import java.time.Duration;
import java.util.Iterator;

import org.apache.spark.sql.streaming.GroupState;

import dev.twstester.samples.fraud.CardState;
import dev.twstester.samples.fraud.CardStatus;
import dev.twstester.samples.fraud.FraudStateMachine;
import dev.twstester.samples.fraud.Payment;

/** Bug: a blocked card gets the suspicious card's 30-minute timeout instead of 24 hours. */
class MachineBlockedWaitsAsSuspicious extends FraudStateMachine {
    private static final long serialVersionUID = 1L;
    static final String BUG = "a blocked card gets the suspicious card's 30-minute timeout instead of 24 hours";
    private static final long SUSPICIOUS_WAIT_MS = Duration.ofMinutes(30).toMillis();

    @Override
    public CardStatus call(String cardId, Iterator<Payment> payments, GroupState<CardState> state) {
        return super.call(cardId, payments, new ForwardingGroupState<>(state) {
            @Override
            public void setTimeoutDuration(long durationMs) {
                super.setTimeoutDuration(SUSPICIOUS_WAIT_MS);
            }
        });
    }
}
