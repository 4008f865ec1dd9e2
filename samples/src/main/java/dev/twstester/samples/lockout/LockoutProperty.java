package dev.twstester.samples.lockout;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.RunResult;
import dev.twstester.property.Generation;
import dev.twstester.property.Property;
import dev.twstester.property.PropertyResult;
import dev.twstester.property.QueryProperty;
import dev.twstester.property.ScenarioGenerator;

/**
 * The property a user of {@link LoginLockout} writes (issue 25's example): a generator of login
 * attempts, the rows it makes, and the invariant that locks and unlocks alternate per user, each
 * unlock {@link LoginLockout#LOCK} after its lock. Labels {@code locked} and {@code unlocked}; the
 * target is {@code unlocked}.
 *
 * <pre>{@code
 * PropertyResult result = LockoutProperty.property(200, 1L).check(LockoutProperty::locksAlternate);
 * result.coverage().share("unlocked");   // 0.605 with feedback (the default), 0.03 with .uniform()
 * }</pre>
 */
public final class LockoutProperty {
    private LockoutProperty() {}

    /** Three users, failures (variant 0) and successes (1), 20 minutes of event time, the query's watermark delay. */
    public static ScenarioGenerator logins() {
        return ScenarioGenerator.create().keys("u1", "u2", "u3").variants("failure", "success")
                .timeMode(TimeMode.EventTime()).watermarkDelay(LoginLockout.WATERMARK_DELAY)
                .eventTimeSpread(Duration.ofMinutes(20));
    }

    /** The row of one generated event: variant 0 a failure, 1 a success. */
    public static LoginAttempt attempt(String user, long eventTimeMs, int variant) {
        return new LoginAttempt(user, variant == 0 ? LoginAttempt.FAILURE : LoginAttempt.SUCCESS,
                new Timestamp(eventTimeMs));
    }

    /** {@code tries} tries from {@code baseSeed} over the lockout query, labelled, with target {@code unlocked}. */
    public static QueryProperty<String, LoginAttempt, LockoutEvent> property(int tries, long baseSeed) {
        return Property.forAll(logins()).seed(baseSeed).tries(tries)
                .runs(LoginLockout.query(), LockoutProperty::attempt)
                .classifyOutput("locked", LockoutEvent::isLock)
                .classifyOutput("unlocked", LockoutEvent::isUnlock)
                .target("unlocked");
    }

    /** {@link #property} with {@code generation}, checked with {@link #locksAlternate}. */
    public static PropertyResult check(int tries, long baseSeed, Generation generation) {
        return property(tries, baseSeed).generation(generation).check(LockoutProperty::locksAlternate);
    }

    /** Empty when every unlock follows its user's lock by exactly {@link LoginLockout#LOCK} and locks alternate with unlocks. */
    public static Optional<String> locksAlternate(RunResult<String, LoginAttempt, LockoutEvent> run) {
        Map<String, Instant> locked = new HashMap<>();
        for (LockoutEvent e : run.outputs()) {
            Instant prior = locked.get(e.getUserId());
            if (e.isLock() && prior != null) {
                return Optional.of(e + " while locked since " + prior);
            }
            if (e.isUnlock() && (prior == null || !prior.plus(LoginLockout.LOCK).equals(e.getAt().toInstant()))) {
                return Optional.of(e + " does not follow a lock by " + LoginLockout.LOCK + " (lock: " + prior + ")");
            }
            if (e.isLock()) {
                locked.put(e.getUserId(), e.getAt().toInstant());
            } else {
                locked.remove(e.getUserId());
            }
        }
        return Optional.empty();
    }
}
