package dev.twstester.samples;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import dev.twstester.junit.DifferentialProperty;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.samples.fraud.FraudSessions;
import dev.twstester.samples.fraud.Payment;
import dev.twstester.samples.migration.MigrateFromInitialState;
import dev.twstester.samples.ttl.Click;
import dev.twstester.samples.ttl.TtlSessions;

/**
 * Each sample query on generated scenarios (25 per query, {@code -Dtwstester.tries=N} for more),
 * on live Spark and on the simulator: any difference fails, shrunk and saved under
 * {@code target/twstester-failures}; {@code -Dtwstester.seed=S} reruns one. The scenarios stop the
 * query and start it again from its checkpoint now and then ({@link #RESTARTS} per gap between
 * steps, with rows added and the clock moved while it is stopped), each runs with one of its
 * query's trigger intervals (0, Spark's default, and one or two above it: rows wait for the trigger
 * times the clock reaches), and {@code cart_watch} (1 or 2) and {@code running_count} (2 to 5) vary
 * the shuffle partitions per try.
 * Tries run {@code LiveRunner.defaultConcurrency()} at a time ({@code -Dtwstester.live.concurrency=N});
 * {@code -Dtwstester.baseSeed=B} repeats a whole run of tries.
 */
@Tag("live")
class GeneratedScenariosTest {
    private static final Instant BASE = Instant.parse("2024-05-01T10:00:00Z");
    private static final String[] PAGES = {"home", "search", "cart"};
    private static final String[] MERCHANTS = {"bookshop", "fuel", "cafe", "electronics-outlet"};
    /** Chance of a restart between two steps: about one in every other scenario (cheap next to a live batch). */
    private static final double RESTARTS = 0.1;

    @TestFactory
    Stream<DynamicTest> cart_watch() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("ana", "bo", "cy").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(CartWatch.WATERMARK_DELAY)
                .eventTimeBase(BASE).eventTimeSpread(Duration.ofMinutes(90))
                .interestingDurations(CartWatch.IDLE).batches(1, 6).eventsPerBatch(0, 4).restartChance(RESTARTS)
                .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(5));
        return DifferentialProperty.of(CartWatch.query(), gen, (key, ms, variant) -> variant == 0
                ? CartEvent.add(key, "item" + ms % 7, Instant.ofEpochMilli(ms))
                : CartEvent.checkout(key, Instant.ofEpochMilli(ms))).shufflePartitions(1, 2).dynamicTests();
    }

    @TestFactory
    Stream<DynamicTest> running_count() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("a", "b", "c", "aa").timeMode(TimeMode.None())
                .batches(1, 6).eventsPerBatch(0, 5).restartChance(RESTARTS)
                .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(5));
        return DifferentialProperty.of(RunningCount.query(), gen, (key, ms, variant) -> key).shufflePartitions(2, 5)
                .dynamicTests();
    }

    @TestFactory
    Stream<DynamicTest> fraud_sessions() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("c1", "c2").variants(MERCHANTS.length)
                .timeMode(TimeMode.ProcessingTime()).processingTimeSteps(Duration.ofMinutes(1), Duration.ofMinutes(4))
                .interestingDurations(FraudSessions.DEFAULT_SESSION_GAP).batches(1, 6).eventsPerBatch(0, 4)
                .restartChance(RESTARTS).triggerIntervals(Duration.ZERO, Duration.ofSeconds(30), Duration.ofMinutes(1));
        return DifferentialProperty.of(FraudSessions.query(), gen,
                (key, ms, variant) -> new Payment(key, MERCHANTS[variant], 50_00 + Math.floorMod(ms, 400) * 100))
                .dynamicTests();
    }

    @TestFactory
    Stream<DynamicTest> ttl_sessions() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("ana", "bo").variants(PAGES.length)
                .timeMode(TimeMode.ProcessingTime()).processingTimeSteps(Duration.ofMinutes(5), Duration.ofMinutes(15))
                .interestingDurations(TtlSessions.TTL, TtlSessions.DEFAULT_IDLE_GAP).batches(1, 6).eventsPerBatch(0, 3)
                .restartChance(RESTARTS).triggerIntervals(Duration.ZERO, Duration.ofMinutes(1), Duration.ofMinutes(5));
        return DifferentialProperty.of(TtlSessions.query(), gen, (key, ms, variant) -> new Click(key, PAGES[variant]))
                .dynamicTests();
    }

    @TestFactory
    Stream<DynamicTest> migration_from_initial_state() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("a", "b", "c", "d").timeMode(TimeMode.None())
                .batches(1, 5).eventsPerBatch(0, 4).restartChance(RESTARTS)
                .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1));
        return DifferentialProperty.of(MigrateFromInitialState.query(), gen, (key, ms, variant) -> key).dynamicTests();
    }
}
