package dev.twstester.samples.lockout;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.samples.lockout.LoginAttempt.failure;
import static dev.twstester.samples.lockout.LoginAttempt.success;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

/** LoginLockout's rules, one by one, with exact outputs, state and timers (strict mode). */
@TwsTest(strict = true)
class LoginLockoutTest {
    static Instant at(String hhmmss) {
        return Instant.parse("2024-01-01T" + hhmmss + "Z");
    }

    static TwsQuery<String, LoginAttempt, LockoutEvent> query() {
        return LoginLockout.query();
    }

    @Simulator TestSimulator<String, LoginAttempt, LockoutEvent> sim;

    @Test
    void threeFailuresWithinFiveMinutesLockAndTheTimerUnlocksFifteenMinutesLater() {
        assertThat(sim.runBatch(failure("ana", at("10:00:00")), failure("ana", at("10:02:00")))).outputs().isEmpty();
        assertThat(sim).listState("failures", "ana").containsExactly(at("10:00:00").toEpochMilli(),
                at("10:02:00").toEpochMilli());

        assertThat(sim.runBatch(failure("ana", at("10:05:00")))).outputs()
                .containsExactly(LockoutEvent.locked("ana", at("10:05:00")));
        assertThat(sim).listState("failures", "ana").isEmpty();
        assertThat(sim).valueState("locked_until", "ana").contains(at("10:20:00").toEpochMilli());
        assertThat(sim).timers("ana").containsExactly(at("10:20:00"));

        // watermark 10:19:59 (delay 1 minute): not yet
        assertThat(sim.runBatch(success("bo", at("10:20:59")))).outputs().isEmpty();
        assertThat(sim).timers("ana").containsExactly(at("10:20:00"));
        // watermark 10:20:00: the timer fires in the no-data batch after it
        assertThat(sim.runBatch(success("bo", at("10:21:00")))).outputs()
                .containsExactly(LockoutEvent.unlocked("ana", at("10:20:00")));
        assertThat(sim).valueState("locked_until", "ana").isEmpty();
        assertThat(sim).timers("ana").isEmpty();
    }

    @Test
    void failuresSpreadOverMoreThanFiveMinutesDoNotLock() {
        assertThat(sim.runBatch(failure("ana", at("10:00:00")), failure("ana", at("10:03:00")),
                failure("ana", at("10:05:01")))).outputs().isEmpty();
        assertThat(sim).listState("failures", "ana").containsExactly(at("10:03:00").toEpochMilli(),
                at("10:05:01").toEpochMilli());
        assertThat(sim).timers("ana").isEmpty();
    }

    @Test
    void aSuccessForgetsTheFailuresAndAttemptsWhileLockedAreIgnored() {
        assertThat(sim.runBatch(failure("ana", at("10:00:00")), failure("ana", at("10:01:00")),
                success("ana", at("10:02:00")), failure("ana", at("10:03:00")))).outputs().isEmpty();
        assertThat(sim).listState("failures", "ana").containsExactly(at("10:03:00").toEpochMilli());

        assertThat(sim.runBatch(failure("ana", at("10:04:00")), failure("ana", at("10:05:00")),
                failure("ana", at("10:05:30")), success("ana", at("10:06:00")))).outputs()
                .containsExactly(LockoutEvent.locked("ana", at("10:05:00")));
        assertThat(sim).listState("failures", "ana").isEmpty();
        assertThat(sim).valueState("locked_until", "ana").contains(at("10:20:00").toEpochMilli());
        assertThat(sim).timers("ana").containsExactly(at("10:20:00"));
        assertThat(sim.advanceWatermarkTo(at("10:20:00"))).outputs()
                .containsExactly(LockoutEvent.unlocked("ana", at("10:20:00")));
    }
}
