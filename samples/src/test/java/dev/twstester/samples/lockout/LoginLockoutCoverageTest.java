package dev.twstester.samples.lockout;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.property.GenEvent;
import dev.twstester.property.Generation;
import dev.twstester.property.Property;
import dev.twstester.property.PropertyResult;
import dev.twstester.property.ScenarioGenerator;

/**
 * Issue 25's login-lockout target: with {@code target("unlocked")} and feedback-directed
 * generation at least half of 200 tries reach an unlock; uniform generation reaches far fewer. Both
 * shares are printed. The invariant checked on every try: each unlock comes {@link LoginLockout#LOCK}
 * after a lock of the same user, and a user is never locked twice without an unlock between.
 */
class LoginLockoutCoverageTest {
    static final long BASE_SEED = 25L;
    static final int TRIES = 200;

    /** The generator a user would write: three users, failures and successes, 20 minutes of event time. */
    static ScenarioGenerator logins() {
        return ScenarioGenerator.create().keys("u1", "u2", "u3").variants("failure", "success")
                .timeMode(TimeMode.EventTime()).watermarkDelay(LoginLockout.WATERMARK_DELAY)
                .eventTimeSpread(Duration.ofMinutes(20));
    }

    /** Variant 0 is a failure, 1 a success. */
    static LoginAttempt attempt(String user, long eventTimeMs, int variant) {
        return new LoginAttempt(user, variant == 0 ? LoginAttempt.FAILURE : LoginAttempt.SUCCESS,
                new Timestamp(eventTimeMs));
    }

    /** Empty when every unlock follows its user's lock by exactly {@link LoginLockout#LOCK} and locks alternate with unlocks. */
    static Optional<String> locksAlternate(RunResult<String, LoginAttempt, LockoutEvent> run) {
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

    static PropertyResult run(Generation generation) {
        return Property.forAll(logins()).seed(BASE_SEED).tries(TRIES)
                .runs(LoginLockout.query(), LoginLockoutCoverageTest::attempt)
                .classifyOutput("locked", LockoutEvent::isLock)
                .classifyOutput("unlocked", LockoutEvent::isUnlock)
                .target("unlocked")
                .generation(generation)
                .check(LoginLockoutCoverageTest::locksAlternate);
    }

    @Test
    void feedbackWithATargetReachesTheUnlockInHalfTheTries() {
        PropertyResult uniform = run(Generation.UNIFORM).assertPassed();
        PropertyResult feedback = run(Generation.FEEDBACK).assertPassed();
        double uniformShare = uniform.coverage().share("unlocked");
        double feedbackShare = feedback.coverage().share("unlocked");
        System.out.printf("login lockout, %d tries, base seed %d: unlocked uniform %.1f%%, feedback %.1f%%%n", TRIES,
                BASE_SEED, 100 * uniformShare, 100 * feedbackShare);
        assertThat(feedbackShare).isGreaterThanOrEqualTo(0.5).isGreaterThan(uniformShare);
        assertThat(feedback.coverage().rows().subList(0, 2)).extracting(r -> r.label())
                .containsExactly("locked", "unlocked");
    }

    @Test
    void theSameBaseSeedGivesTheSameFeedbackTries() {
        assertThat(run(Generation.FEEDBACK).coverage().rows()).isEqualTo(run(Generation.FEEDBACK).coverage().rows());
    }

    @Test
    void coverFailsThePropertyWhenTooFewTriesReachTheLabel() {
        PropertyResult result = Property.forAll(logins()).seed(BASE_SEED).tries(20)
                .runs(LoginLockout.query(), LoginLockoutCoverageTest::attempt)
                .classifyOutput("unlocked", LockoutEvent::isUnlock).uniform().cover("unlocked", 90)
                .check(LoginLockoutCoverageTest::locksAlternate);
        assertThat(result.passed()).isFalse();
        assertThat(result.failure()).isEmpty();
        assertThat(result.coverProblem()).get().asString()
                .startsWith("cover(\"unlocked\", 90.0): only " + result.coverage().reached("unlocked") + " of 20 tries");
        assertThat(result.report()).contains("Property failed its coverage", "Coverage of 20 tries (uniform):");
    }

    @Test
    void aBrokenInvariantIsFoundAmongFeedbackTriesAndShrunk() {
        PropertyResult result = Property.forAll(logins()).seed(BASE_SEED).tries(TRIES)
                .runs(LoginLockout.query(), LoginLockoutCoverageTest::attempt)
                .target("unlocked")
                .check(run -> run.outputs().stream().anyMatch(LockoutEvent::isUnlock)
                        ? Optional.of("an unlock: " + run.outputs()) : Optional.empty());
        assertThat(result.failure()).isPresent();
        List<GenEvent> shrunk = result.failure().get().shrunk().steps().stream()
                .flatMap(s -> dev.twstester.property.GenScenario.of(TimeMode.EventTime(), List.of(s)).events(0).stream())
                .toList();
        // three failures of one user lock it; one more event moves the watermark past the unlock
        assertThat(shrunk.size()).isLessThanOrEqualTo(4);
        assertThat(result.report()).contains("an unlock", "Coverage of");
    }
}
