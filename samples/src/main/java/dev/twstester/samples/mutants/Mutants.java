package dev.twstester.samples.mutants;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.twstester.TwsQuery;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.chain.CartFlags;
import dev.twstester.samples.chain.ChainQueries;
import dev.twstester.samples.chain.HourlyDigest;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.samples.faults.FirstSeen;
import dev.twstester.samples.fraud.FraudSessions;
import dev.twstester.samples.fraud.FraudStateMachine;
import dev.twstester.samples.fraud.FraudStateProcessor;
import dev.twstester.samples.sessions.BounceAlerts;
import dev.twstester.samples.sessions.PageAlert;
import dev.twstester.samples.sessions.PageView;
import dev.twstester.samples.sessions.UserSessions;
import dev.twstester.samples.ttl.TtlSessions;

/**
 * The benchmark's seeded mutants, each with the property of its processor that should find it, and
 * the properties the correct processors must pass.
 *
 * <pre>{@code
 * for (Mutant<?, ?, ?> m : Mutants.all()) System.out.println(m.name() + ": " + m.bug());
 * }</pre>
 */
public final class Mutants {
    private Mutants() {}

    /** Every mutant, grouped by processor. */
    public static List<Mutant<?, ?, ?>> all() {
        return List.of(
                cart(CartTimerWaitsWatermarkDelay.BUG, CartTimerWaitsWatermarkDelay::new),
                cart(CartTimerNotMoved.BUG, CartTimerNotMoved::new),
                cart(CartNotClearedOnFlag.BUG, CartNotClearedOnFlag::new),
                cart(CartCheckoutKeepsTimer.BUG, CartCheckoutKeepsTimer::new),
                mutant(CartOutOfOrderAdd.BUG, CartWatch.query(CartOutOfOrderAdd::new), CartWatchProperties.migration()),
                count(CountNotReadFromState.BUG, CountNotReadFromState::new),
                count(CountEmitsPreviousTotal.BUG, CountEmitsPreviousTotal::new),
                ttl(TtlClicksFromPageList.BUG, TtlClicksFromPageList::new),
                ttl(TtlEqualsIdleGap.BUG, TtlEqualsIdleGap::new),
                ttl(TtlTimerNotReset.BUG, TtlTimerNotReset::new),
                ttl(TtlPagesNotClearedOnClose.BUG, TtlPagesNotClearedOnClose::new),
                ttl(TtlPagesAppendedNotReplaced.BUG, TtlPagesAppendedNotReplaced::new),
                ttl(TtlTimerFromWatermark.BUG, TtlTimerFromWatermark::new),
                fraud(FraudSessionEndRemovesCardKey.BUG, FraudSessionEndRemovesCardKey::new),
                fraud(FraudLimitReachedNotExceeded.BUG, FraudLimitReachedNotExceeded::new),
                fraud(FraudLimitAlertRepeated.BUG, FraudLimitAlertRepeated::new),
                fraud(FraudTimerNotRestarted.BUG, FraudTimerNotRestarted::new),
                machine(MachineTimeoutNotReArmed.BUG, new MachineTimeoutNotReArmed()),
                machine(MachineStateKeptOnTimeout.BUG, new MachineStateKeptOnTimeout()),
                machine(MachineBlockedWaitsAsSuspicious.BUG, new MachineBlockedWaitsAsSuspicious()),
                port(PortTimerAtLegacyTimeout.BUG, PortTimerAtLegacyTimeout::new),
                port(PortStateKeptOnTimeout.BUG, PortStateKeptOnTimeout::new),
                sessions(SessionsTimerFromClock.BUG, SessionsTimerFromClock::new, BounceAlerts::new,
                        SessionAlertsProperties.invariants()),
                sessions(SessionsTimersPiledUp.BUG, SessionsTimersPiledUp::new, BounceAlerts::new,
                        SessionAlertsProperties.invariants()),
                sessions(BounceTimerEveryBatch.BUG, UserSessions::new, BounceTimerEveryBatch::new,
                        SessionAlertsProperties.invariants()),
                sessions(BounceHalfRuleStrict.BUG, UserSessions::new, BounceHalfRuleStrict::new,
                        SessionAlertsProperties.migration()),
                mutant(FlagsCheckoutKeepsTimer.BUG, ChainQueries.abandonedCartDigest(FlagsCheckoutKeepsTimer::new,
                        HourlyDigest::new), CartDigestProperties.invariants()),
                mutant(DigestNotClearedOnFire.BUG, ChainQueries.abandonedCartDigest(CartFlags::new,
                        DigestNotClearedOnFire::new), CartDigestProperties.migration()),
                digest(DigestItemsNotAdded.BUG, DigestItemsNotAdded::new),
                digest(DigestTimerOneMsEarly.BUG, DigestTimerOneMsEarly::new),
                mutant(FirstSeenSharedCache.BUG, FirstSeen.query(FirstSeenSharedCache::new),
                        FirstSeenProperties.invariants()));
    }

    /** Every property a mutant is checked with, each of which the correct processor must pass. */
    public static List<UserProperty<?, ?, ?>> properties() {
        Map<String, UserProperty<?, ?, ?>> byName = new LinkedHashMap<>();
        for (Mutant<?, ?, ?> m : all()) {
            byName.putIfAbsent(m.property().name(), m.property());
        }
        return List.copyOf(byName.values());
    }

    /** The mutant whose bug is {@code bug}: its name is the class's, found from the query's processor. */
    private static <K, I, O> Mutant<K, I, O> mutant(String bug, TwsQuery<K, I, O> query,
            UserProperty<K, I, O> property) {
        return new Mutant<>(mutantClass(query).getSimpleName(), bug, query, property);
    }

    /** The one operator whose processor is not a sample's own class: the mutant. */
    private static Class<?> mutantClass(TwsQuery<?, ?, ?> query) {
        return query.operators().stream().map(TwsQuery::userClass)
                .filter(c -> c.getPackage() == Mutants.class.getPackage()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no mutant in " + query.operators()));
    }

    private static Mutant<?, ?, ?> cart(String bug, Supplier<? extends CartWatch> version) {
        return mutant(bug, CartWatch.query(version), CartWatchProperties.invariants());
    }

    private static Mutant<?, ?, ?> count(String bug, Supplier<? extends RunningCount> version) {
        return mutant(bug, RunningCount.query(version), RunningCountProperties.invariants());
    }

    private static Mutant<?, ?, ?> ttl(String bug, Supplier<? extends TtlSessions> version) {
        return mutant(bug, TtlSessions.query(version), TtlSessionsProperties.invariants());
    }

    private static Mutant<?, ?, ?> fraud(String bug, Supplier<? extends FraudSessions> version) {
        return mutant(bug, FraudSessions.query(version), FraudSessionsProperties.invariants());
    }

    private static Mutant<?, ?, ?> machine(String bug, FraudStateMachine version) {
        return mutant(bug, FraudStateMachine.query(version), FraudMachineProperties.invariants());
    }

    private static Mutant<?, ?, ?> port(String bug, Supplier<? extends FraudStateProcessor> version) {
        return mutant(bug, FraudStateProcessor.query(version), FraudMachineProperties.portMigration());
    }

    private static Mutant<?, ?, ?> digest(String bug, Supplier<? extends HourlyDigest> version) {
        return mutant(bug, ChainQueries.abandonedCartDigest(CartFlags::new, version), CartDigestProperties.invariants());
    }

    private static Mutant<?, ?, ?> sessions(String bug, Supplier<? extends UserSessions> sessions,
            Supplier<? extends BounceAlerts> alerts, UserProperty<String, PageView, PageAlert> property) {
        return mutant(bug, UserSessions.query(sessions).then(BounceAlerts.downstream(alerts)), property);
    }
}
