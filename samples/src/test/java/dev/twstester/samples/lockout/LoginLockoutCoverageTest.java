package dev.twstester.samples.lockout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

import dev.twstester.junit.PropertyReports;
import dev.twstester.property.CoverageTable;
import dev.twstester.property.Generation;
import dev.twstester.property.PropertyResult;

/**
 * Issue 25's login-lockout target: with {@code target("unlocked")} and feedback-directed
 * generation at least half of 200 tries reach an unlock; uniform generation reaches far fewer. Both
 * shares are printed, and the feedback run's table goes into the JUnit report.
 */
class LoginLockoutCoverageTest {
    static final long BASE_SEED = 25L;
    static final int TRIES = 200;

    @Test
    void feedbackWithATargetReachesTheUnlockInHalfTheTries(TestReporter reporter) {
        PropertyResult uniform = LockoutProperty.check(TRIES, BASE_SEED, Generation.UNIFORM).assertPassed();
        PropertyResult feedback = LockoutProperty.check(TRIES, BASE_SEED, Generation.FEEDBACK).assertPassed();
        PropertyReports.publish(reporter, feedback);
        double uniformShare = uniform.coverage().share("unlocked");
        double feedbackShare = feedback.coverage().share("unlocked");
        System.out.printf("login lockout, %d tries, base seed %d: unlocked uniform %.1f%%, feedback %.1f%%%n", TRIES,
                BASE_SEED, 100 * uniformShare, 100 * feedbackShare);
        assertThat(feedbackShare).isGreaterThanOrEqualTo(0.5).isGreaterThan(uniformShare);
        assertThat(feedback.coverage().rows().subList(0, 2)).extracting(CoverageTable.Row::label)
                .containsExactly("locked", "unlocked");
    }

    @Test
    void theSameBaseSeedGivesTheSameFeedbackTries() {
        assertThat(LockoutProperty.check(60, BASE_SEED, Generation.FEEDBACK).coverage().rows())
                .isEqualTo(LockoutProperty.check(60, BASE_SEED, Generation.FEEDBACK).coverage().rows());
    }

    @Test
    void coverFailsThePropertyWhenTooFewTriesReachTheLabel() {
        PropertyResult result = LockoutProperty.property(20, BASE_SEED).uniform().cover("unlocked", 90)
                .check(LockoutProperty::locksAlternate);
        assertThat(result.passed()).isFalse();
        assertThat(result.failure()).isEmpty();
        assertThat(result.coverProblem()).get().asString()
                .startsWith("cover(\"unlocked\", 90.0): only " + result.coverage().reached("unlocked") + " of 20 tries");
        assertThat(result.report()).contains("Property failed its coverage", "Coverage of 20 tries (uniform):");
    }

    @Test
    void anUnlockFoundByFeedbackShrinksToThreeFailuresAndOneLaterEvent() {
        PropertyResult result = LockoutProperty.property(TRIES, BASE_SEED)
                .check(run -> run.outputs().stream().anyMatch(LockoutEvent::isUnlock)
                        ? Optional.of("an unlock: " + run.outputs()) : Optional.empty());
        assertThat(result.failure()).isPresent();
        // three failures of one user lock it; one more event moves the watermark past the unlock
        assertThat(result.failure().get().shrunk().eventCount()).isEqualTo(4);
        assertThat(result.report()).contains("an unlock", "Coverage of");
    }
}
