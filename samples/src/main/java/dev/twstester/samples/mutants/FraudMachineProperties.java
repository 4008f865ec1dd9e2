package dev.twstester.samples.mutants;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.GroupsWithState;
import dev.twstester.RunResult;
import dev.twstester.property.EventFactory;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.fraud.CardState;
import dev.twstester.samples.fraud.CardStatus;
import dev.twstester.samples.fraud.FraudStateMachine;
import dev.twstester.samples.fraud.FraudStateProcessor;
import dev.twstester.samples.fraud.Payment;
import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * The properties a user writes for the legacy fraud machine ({@link FraudStateMachine}) and its
 * port ({@link FraudStateProcessor}): a card keeps state exactly while a timeout is pending, a
 * timeout comes only after the card's wait without payments (30 minutes when suspicious, 24 hours
 * when blocked), and the port answers as the machine does (the migration check).
 *
 * <pre>{@code
 * FraudMachineProperties.invariants().check(FraudStateMachine.query(), scenario);   // empty: they hold
 * }</pre>
 */
public final class FraudMachineProperties {
    private static final Duration SUSPICIOUS_WAIT = Duration.ofMinutes(30);
    private static final Duration BLOCKED_WAIT = Duration.ofHours(24);

    private FraudMachineProperties() {}

    /** Two cards with small and high payments, the clock moving 5 or 20 minutes and around the 30-minute wait. */
    static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("c1", "c2").variants("small", "high")
                .timeMode(TimeMode.ProcessingTime()).processingTimeSteps(Duration.ofMinutes(5), Duration.ofMinutes(20))
                .interestingDurations(SUSPICIOUS_WAIT).batches(2, 8).eventsPerBatch(0, 3).restartChance(0.1)
                .triggerIntervals(Duration.ZERO, Duration.ofMinutes(1));
    }

    static final EventFactory<Payment> EVENTS =
            (key, ms, variant) -> new Payment(key, "shop", variant == 0 ? 20_00 : 1_200_00);

    /** The invariants of the machine's states and timeouts. */
    public static UserProperty<String, Payment, CardStatus> invariants() {
        return Invariants.property("fraud_machine invariants", FraudStateMachine.query(), generator(), EVENTS,
                List.of(FraudMachineProperties::stateWhileTimeoutPending, FraudMachineProperties::timeoutAfterWait));
    }

    /** The port answers as the machine, batch by batch. */
    public static UserProperty<String, Payment, CardStatus> portMigration() {
        return Migration.property("fraud port migration", FraudStateMachine.query(), FraudStateProcessor.query(),
                generator(), EVENTS, false);
    }

    private static Optional<String> stateWhileTimeoutPending(RunResult<String, Payment, CardStatus> run,
            TwsSimulator<String, Payment, CardStatus> sim) {
        StateView<String> state = sim.state();
        for (String card : state.keys()) {
            Optional<CardState> kept = state.value(GroupsWithState.STATE_VARIABLE, card);
            if (kept.isPresent() != (state.timers(card).size() == 1)) {
                return Optional.of(card + " keeps " + kept + " with timeouts " + state.timers(card)
                        + "; expected a timeout exactly while it keeps state");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> timeoutAfterWait(RunResult<String, Payment, CardStatus> run,
            TwsSimulator<String, Payment, CardStatus> sim) {
        Map<String, Long> lastPayment = new HashMap<>();
        Map<String, String> status = new HashMap<>();
        for (BatchResult<String, Payment, CardStatus> batch : run.batches()) {
            long now = batch.batchTimestamp().toEpochMilli();
            for (CardStatus answer : batch.outputs()) {
                String card = answer.getCardId();
                if (CardStatus.TIMED_OUT.equals(answer.getReason())) {
                    Duration wait = CardStatus.BLOCKED.equals(status.get(card)) ? BLOCKED_WAIT : SUSPICIOUS_WAIT;
                    Long last = lastPayment.get(card);
                    if (last == null || now - last <= wait.toMillis()) {
                        return Optional.of("batch " + batch.batchId() + " times " + card + " out (it was "
                                + status.get(card) + ") at " + batch.batchTimestamp() + ", before its wait of " + wait
                                + " after the last payment at " + (last == null ? "none" : java.time.Instant.ofEpochMilli(last)));
                    }
                } else {
                    lastPayment.put(card, now);
                }
                status.put(card, answer.getStatus());
            }
        }
        return Optional.empty();
    }
}
