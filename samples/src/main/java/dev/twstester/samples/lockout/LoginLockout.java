package dev.twstester.samples.lockout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Login lockout: three failed logins of a user within five minutes (event time) lock the user; an
 * event-time timer unlocks them fifteen minutes after the third failure. Attempts while locked are
 * ignored, a successful login forgets the failures.
 *
 * <ul>
 *   <li>{@code ListState<Long> "failures"}: epoch ms of the recent failures, oldest first;</li>
 *   <li>{@code ValueState<Long> "locked_until"}: the unlock time while the user is locked;</li>
 *   <li>one event-time timer at {@code locked_until}; it emits {@code unlocked} and clears the lock.</li>
 * </ul>
 *
 * <pre>{@code
 * TwsSimulator<String, LoginAttempt, LockoutEvent> sim = new TwsSimulator<>(LoginLockout.query());
 * sim.runBatch(failure("ana", t), failure("ana", t.plusSeconds(60)), failure("ana", t.plusSeconds(120)));
 * // outputs [ana locked @t+2m]; timer at t+17m
 * }</pre>
 */
public class LoginLockout extends StatefulProcessor<String, LoginAttempt, LockoutEvent> {
    private static final long serialVersionUID = 1L;

    /** Failures that lock the user. */
    public static final int MAX_FAILURES = 3;
    /** The window the failures must fall in (inclusive: the third failure at most this long after the first). */
    public static final Duration WINDOW = Duration.ofMinutes(5);
    /** How long a lock lasts, from the third failure. */
    public static final Duration LOCK = Duration.ofMinutes(15);
    /** {@code withWatermark("ts", "1 minute")}. */
    public static final Duration WATERMARK_DELAY = Duration.ofMinutes(1);

    private transient ListState<Long> failures;
    private transient ValueState<Long> lockedUntil;

    /** {@code attempts.withWatermark("ts", "1 minute").groupByKey(userId).transformWithState(new LoginLockout(), EventTime, Update)}. */
    public static TwsQuery<String, LoginAttempt, LockoutEvent> query() {
        return TwsQuery.builder(LoginLockout::new)
                .keyBy(LoginAttempt::getUserId, Encoders.STRING())
                .input(Encoders.bean(LoginAttempt.class))
                .output(Encoders.bean(LockoutEvent.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", WATERMARK_DELAY)
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        failures = getHandle().getListState("failures", Encoders.LONG(), TTLConfig.NONE());
        lockedUntil = getHandle().getValueState("locked_until", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public Iterator<LockoutEvent> handleInputRows(String userId, Iterator<LoginAttempt> rows, TimerValues timerValues) {
        List<LoginAttempt> attempts = new ArrayList<>();
        rows.foreach(attempts::add);
        attempts.sort(Comparator.comparing(LoginAttempt::getTs).thenComparing(LoginAttempt::getOutcome));
        List<LockoutEvent> out = new ArrayList<>();
        for (LoginAttempt a : attempts) {
            if (lockedUntil.exists()) {
                continue;
            }
            long ms = a.getTs().getTime();
            if (!a.failed()) {
                failures.clear();
            } else if (recordFailure(ms) >= MAX_FAILURES) {
                failures.clear();
                lockedUntil.update(ms + LOCK.toMillis());
                getHandle().registerTimer(ms + LOCK.toMillis());
                out.add(LockoutEvent.locked(userId, Instant.ofEpochMilli(ms)));
            }
        }
        return CollectionConverters.asScala(out.iterator());
    }

    /** Keeps the failures within the window before {@code ms} and this one; returns how many there are. */
    private int recordFailure(long ms) {
        List<Long> recent = new ArrayList<>();
        failures.get().foreach(f -> {
            if (ms - f <= WINDOW.toMillis()) {
                recent.add(f);
            }
            return null;
        });
        recent.add(ms);
        failures.put(recent.toArray(new Long[0]));
        return recent.size();
    }

    @Override
    public Iterator<LockoutEvent> handleExpiredTimer(String userId, TimerValues timerValues, ExpiredTimerInfo timer) {
        lockedUntil.clear();
        LockoutEvent unlocked = LockoutEvent.unlocked(userId, Instant.ofEpochMilli(timer.getExpiryTimeInMs()));
        return CollectionConverters.asScala(List.of(unlocked).iterator());
    }
}
