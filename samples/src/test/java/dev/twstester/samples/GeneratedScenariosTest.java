package dev.twstester.samples;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import dev.twstester.TwsQuery;
import dev.twstester.junit.DifferentialProperty;
import dev.twstester.property.EventFactory;
import dev.twstester.property.GenScenario;
import dev.twstester.property.Property;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.samples.fraud.CardStatus;
import dev.twstester.samples.fraud.FraudAlert;
import dev.twstester.samples.fraud.FraudStateMachine;
import dev.twstester.samples.fraud.FraudSessions;
import dev.twstester.samples.fraud.Payment;
import dev.twstester.samples.migration.MigrateFromInitialState;
import dev.twstester.samples.ttl.Click;
import dev.twstester.samples.ttl.SessionClosed;
import dev.twstester.samples.ttl.TtlSessions;

import scala.Tuple2;

/**
 * Each sample query on generated scenarios (25 per query, 10 for the legacy fraud state machine;
 * {@code -Dtwstester.tries=N} for more),
 * on live Spark and on the simulator: any difference in batches or in the end state (the live
 * checkpoint's state and timers against the simulator's, key by key) fails, shrunk and saved under
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

    /**
     * One sample query with its generator, event factory and shuffle partition range (null for the
     * query's own count): what {@link GeneratedScenariosTest} runs live and
     * {@code GeneratedScenariosCoverageTest} replays on the simulator.
     */
    record Sample<K, I, O>(TwsQuery<K, I, O> query, ScenarioGenerator generator, EventFactory<I> events,
            int[] partitions) {
        DifferentialProperty<K, I, O> property() {
            DifferentialProperty<K, I, O> p = DifferentialProperty.of(query, generator, events);
            return partitions == null ? p : p.shufflePartitions(partitions[0], partitions[1]);
        }

        /** The scenario a try seed checks (with its partition count), as {@link #property()} makes it. */
        GenScenario scenario(long seed) {
            Property p = Property.forAll(generator);
            return (partitions == null ? p : p.shufflePartitions(partitions[0], partitions[1])).scenario(seed);
        }
    }

    static Sample<String, CartEvent, CartAlert> cartWatch() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("ana", "bo", "cy").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(CartWatch.WATERMARK_DELAY)
                .eventTimeBase(BASE).eventTimeSpread(Duration.ofMinutes(90))
                .interestingDurations(CartWatch.IDLE).batches(1, 6).eventsPerBatch(0, 4).restartChance(RESTARTS)
                .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(5));
        return new Sample<>(CartWatch.query(), gen, (key, ms, variant) -> variant == 0
                ? CartEvent.add(key, "item" + ms % 7, Instant.ofEpochMilli(ms))
                : CartEvent.checkout(key, Instant.ofEpochMilli(ms)), new int[] {1, 2});
    }

    static Sample<String, String, Tuple2<String, Long>> runningCount() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("a", "b", "c", "aa").timeMode(TimeMode.None())
                .batches(1, 6).eventsPerBatch(0, 5).restartChance(RESTARTS)
                .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(5));
        return new Sample<>(RunningCount.query(), gen, (key, ms, variant) -> key, new int[] {2, 5});
    }

    static Sample<String, Payment, FraudAlert> fraudSessions() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("c1", "c2").variants(MERCHANTS.length)
                .timeMode(TimeMode.ProcessingTime()).processingTimeSteps(Duration.ofMinutes(1), Duration.ofMinutes(4))
                .interestingDurations(FraudSessions.DEFAULT_SESSION_GAP).batches(1, 6).eventsPerBatch(0, 4)
                .restartChance(RESTARTS).triggerIntervals(Duration.ZERO, Duration.ofSeconds(30), Duration.ofMinutes(1));
        return new Sample<>(FraudSessions.query(), gen,
                (key, ms, variant) -> new Payment(key, MERCHANTS[variant], 50_00 + Math.floorMod(ms, 400) * 100), null);
    }

    /** The legacy mapGroupsWithState fraud machine, ProcessingTimeTimeout; clock moves on and around its 30-minute timeout. */
    static Sample<String, Payment, CardStatus> fraudStateMachine() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("c1", "c2").variants("small", "high")
                .timeMode(TimeMode.ProcessingTime()).processingTimeSteps(Duration.ofMinutes(5), Duration.ofMinutes(20))
                .interestingDurations(Duration.ofMinutes(30)).batches(1, 6).eventsPerBatch(0, 3)
                .restartChance(RESTARTS).triggerIntervals(Duration.ZERO, Duration.ofMinutes(1));
        return new Sample<>(FraudStateMachine.query(), gen,
                (key, ms, variant) -> new Payment(key, "shop", variant == 0 ? 20_00 : 1_200_00), null);
    }

    static Sample<String, Click, SessionClosed> ttlSessions() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("ana", "bo").variants(PAGES.length)
                .timeMode(TimeMode.ProcessingTime()).processingTimeSteps(Duration.ofMinutes(5), Duration.ofMinutes(15))
                .interestingDurations(TtlSessions.TTL, TtlSessions.DEFAULT_IDLE_GAP).batches(1, 6).eventsPerBatch(0, 3)
                .restartChance(RESTARTS).triggerIntervals(Duration.ZERO, Duration.ofMinutes(1), Duration.ofMinutes(5));
        return new Sample<>(TtlSessions.query(), gen, (key, ms, variant) -> new Click(key, PAGES[variant]), null);
    }

    static Sample<String, String, Tuple2<String, Long>> migrationFromInitialState() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("a", "b", "c", "d").timeMode(TimeMode.None())
                .batches(1, 5).eventsPerBatch(0, 4).restartChance(RESTARTS)
                .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1));
        return new Sample<>(MigrateFromInitialState.query(), gen, (key, ms, variant) -> key, null);
    }

    @TestFactory
    Stream<DynamicTest> cart_watch() {
        return cartWatch().property().dynamicTests();
    }

    @TestFactory
    Stream<DynamicTest> running_count() {
        return runningCount().property().dynamicTests();
    }

    @TestFactory
    Stream<DynamicTest> fraud_sessions() {
        return fraudSessions().property().dynamicTests();
    }

    @TestFactory
    Stream<DynamicTest> ttl_sessions() {
        return ttlSessions().property().dynamicTests();
    }

    /** A legacy function: 10 tries (each reads the end state too). */
    @TestFactory
    Stream<DynamicTest> fraud_state_machine() {
        return fraudStateMachine().property().tries(10).dynamicTests();
    }

    @TestFactory
    Stream<DynamicTest> migration_from_initial_state() {
        return migrationFromInitialState().property().dynamicTests();
    }
}
