package dev.twstester.samples.mutants;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.property.EventFactory;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.fraud.FraudAlert;
import dev.twstester.samples.fraud.FraudSessions;
import dev.twstester.samples.fraud.Payment;
import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * The properties a user writes for {@link FraudSessions}: a merchant alert is over the $500 limit,
 * each alert is raised at most once per session (sessions end when the card's timer fires), and a
 * card keeps spend in state exactly while it has one session timer.
 *
 * <pre>{@code
 * FraudSessionsProperties.invariants().check(FraudSessions.query(), scenario);   // empty: they hold
 * }</pre>
 */
public final class FraudSessionsProperties {
    private static final List<String> MERCHANTS = List.of("bookshop", "fuel", "cafe", "electronics-outlet");

    private FraudSessionsProperties() {}

    /** Two cards paying at four merchants, the clock moving 1 or 4 minutes and around the 10-minute gap. */
    static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("c1", "c2").variants(MERCHANTS.size())
                .timeMode(TimeMode.ProcessingTime()).processingTimeSteps(Duration.ofMinutes(1), Duration.ofMinutes(4))
                .interestingDurations(FraudSessions.DEFAULT_SESSION_GAP).batches(1, 6).eventsPerBatch(0, 4)
                .restartChance(0.1).triggerIntervals(Duration.ZERO, Duration.ofSeconds(30), Duration.ofMinutes(1));
    }

    /** Payments of $50 to $449 in whole dollars, the amount drawn from the event's time. */
    static final EventFactory<Payment> EVENTS =
            (key, ms, variant) -> new Payment(key, MERCHANTS.get(variant), 50_00 + Math.floorMod(ms, 400) * 100);

    /** The invariants of card sessions and their alerts. */
    public static UserProperty<String, Payment, FraudAlert> invariants() {
        return Invariants.property("fraud_sessions invariants", FraudSessions.query(), generator(), EVENTS,
                List.of(FraudSessionsProperties::overLimit, FraudSessionsProperties::oncePerSession,
                        FraudSessionsProperties::oneTimerPerSession));
    }

    private static Optional<String> overLimit(RunResult<String, Payment, FraudAlert> run,
            TwsSimulator<String, Payment, FraudAlert> sim) {
        return run.outputs().stream().filter(a -> FraudAlert.MERCHANT_LIMIT.equals(a.getReason()))
                .filter(a -> a.getTotalCents() <= FraudSessions.DEFAULT_LIMIT_CENTS).findFirst()
                .map(a -> "a merchant alert at or under the limit: " + a);
    }

    private static Optional<String> oncePerSession(RunResult<String, Payment, FraudAlert> run,
            TwsSimulator<String, Payment, FraudAlert> sim) {
        Set<String> raised = new HashSet<>();
        for (BatchResult<String, Payment, FraudAlert> batch : run.batches()) {
            for (FraudAlert a : batch.outputs()) {
                String what = a.getCardId() + " " + a.getReason()
                        + (FraudAlert.MERCHANT_LIMIT.equals(a.getReason()) ? " " + a.getMerchants() : "");
                if (!raised.add(what)) {
                    return Optional.of("batch " + batch.batchId() + " raises " + a + " a second time in one session");
                }
            }
            for (FiredTimer<String> ended : batch.firedTimers()) {
                raised.removeIf(what -> what.startsWith(ended.key() + " "));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> oneTimerPerSession(RunResult<String, Payment, FraudAlert> run,
            TwsSimulator<String, Payment, FraudAlert> sim) {
        StateView<String> state = sim.state();
        for (String card : state.keys()) {
            Map<String, Long> spend = state.map("spendByMerchant", card);
            int timers = state.timers(card).size();
            if (spend.isEmpty() ? timers != 0 : timers != 1) {
                return Optional.of(card + " keeps spend " + spend + " with session timers " + state.timers(card)
                        + "; expected one timer while it keeps spend, none after");
            }
        }
        return Optional.empty();
    }
}
