package dev.twstester.samples.lockout;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.samples.lockout.LoginAttempt.failure;
import static dev.twstester.samples.lockout.LoginAttempt.success;
import static dev.twstester.samples.lockout.LoginLockoutTest.at;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

/** A lock and its unlock, two users, a late failure and a restart: replayed on live Spark after the test ({@code compareWithSpark}). */
@Tag("live")
@TwsTest(strict = true, compareWithSpark = true)
class LoginLockoutLiveTest {
    static TwsQuery<String, LoginAttempt, LockoutEvent> query() {
        return LoginLockout.query();
    }

    @Simulator TestSimulator<String, LoginAttempt, LockoutEvent> sim;

    @Test
    void lockAndUnlockAgreeWithSpark() {
        assertThat(sim.runBatch(failure("ana", at("10:00:00")), failure("bo", at("10:00:30")),
                failure("ana", at("10:02:00")))).outputs().isEmpty();
        assertThat(sim.runBatch(failure("ana", at("10:04:00")), success("bo", at("10:04:30")))).outputs()
                .containsExactly(LockoutEvent.locked("ana", at("10:04:00")));
        sim.restart();
        // 10:01:00 is behind the watermark (10:03:30): dropped
        assertThat(sim.runBatch(failure("bo", at("10:01:00")), failure("ana", at("10:10:00")))).outputs().isEmpty();
        assertThat(sim.runBatch(failure("bo", at("10:19:00")), failure("bo", at("10:20:00")))).outputs()
                .containsExactly(LockoutEvent.unlocked("ana", at("10:19:00")));
        assertThat(sim.runBatch(failure("bo", at("10:21:00")))).outputs()
                .containsExactly(LockoutEvent.locked("bo", at("10:21:00")));
        assertThat(sim).timers("bo").containsExactly(at("10:36:00"));
        assertThat(sim).valueState("locked_until", "ana").isEmpty();
    }
}
