package dev.twstester.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.property.EventFactory;
import dev.twstester.property.GenScenario;
import dev.twstester.property.Property;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.samples.fraud.FraudSessions;
import dev.twstester.samples.fraud.Payment;
import dev.twstester.spark.LiveRunner;
import dev.twstester.spark.LiveSpark;

/**
 * The live runner's speed settings change no result: generated scenarios of three sample queries
 * (event time, no time, processing time; restarts; one to three shuffle partitions) run once on
 * Spark's defaults, one after the other, with checkpoints in {@code java.io.tmpdir}, and once with
 * {@link LiveSpark#FAST_SETTINGS} and checkpoints in {@code /dev/shm}, two at a time; every batch
 * (input, late rows, watermarks, timestamps, outputs, fired timers, metrics) must be the same.
 */
@Tag("live")
class FastSettingsAgreementTest {
    private static final Instant BASE = Instant.parse("2024-05-01T10:00:00Z");
    private static final String[] MERCHANTS = {"bookshop", "fuel", "cafe", "electronics-outlet"};

    /** One generated scenario with the query it runs, at the scenario's partition count. */
    private record Case<K, I, O>(String name, TwsQuery<K, I, O> query, Scenario<I> scenario, GenScenario generated) {
        RunResult<K, I, O> run(boolean sparkDefaults) {
            LiveRunner<K, I, O> runner = LiveRunner.of(query);
            if (sparkDefaults) {
                runner.session(LiveSpark.sparkDefaultsSession()).checkpointRoot(Path.of(System.getProperty("java.io.tmpdir")));
            }
            return runner.run(scenario);
        }
    }

    private static <K, I, O> void add(List<Case<?, ?, ?>> cases, String name, TwsQuery<K, I, O> query, Property property,
            EventFactory<I> events, long... seeds) {
        for (long seed : seeds) {
            GenScenario generated = property.scenario(seed);
            cases.add(new Case<>(name + " seed " + seed, generated.applyTo(query), generated.toScenario(events), generated));
        }
    }

    private static List<Case<?, ?, ?>> cases() {
        List<Case<?, ?, ?>> cases = new ArrayList<>();
        ScenarioGenerator carts = ScenarioGenerator.create().keys("ana", "bo", "cy").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(CartWatch.WATERMARK_DELAY)
                .eventTimeBase(BASE).eventTimeSpread(Duration.ofMinutes(90))
                .interestingDurations(CartWatch.IDLE).batches(2, 6).eventsPerBatch(1, 4).restartChance(0.2);
        add(cases, "cart_watch", CartWatch.query(), Property.forAll(carts).shufflePartitions(1, 2),
                (key, ms, variant) -> variant == 0 ? CartEvent.add(key, "item" + ms % 7, Instant.ofEpochMilli(ms))
                        : CartEvent.checkout(key, Instant.ofEpochMilli(ms)), 1, 2, 3, 4);
        ScenarioGenerator counts = ScenarioGenerator.create().keys("a", "b", "c", "aa").timeMode(TimeMode.None())
                .batches(2, 6).eventsPerBatch(1, 5).restartChance(0.2);
        add(cases, "running_count", RunningCount.query(), Property.forAll(counts).shufflePartitions(1, 3),
                (key, ms, variant) -> key, 5, 6, 7);
        ScenarioGenerator payments = ScenarioGenerator.create().keys("c1", "c2").variants(MERCHANTS.length)
                .timeMode(TimeMode.ProcessingTime()).processingTimeSteps(Duration.ofMinutes(1), Duration.ofMinutes(4))
                .interestingDurations(FraudSessions.DEFAULT_SESSION_GAP).batches(2, 6).eventsPerBatch(1, 4)
                .restartChance(0.2);
        add(cases, "fraud_sessions", FraudSessions.query(), Property.forAll(payments),
                (key, ms, variant) -> new Payment(key, MERCHANTS[variant], 50_00 + Math.floorMod(ms, 400) * 100), 8, 9, 10);
        return cases;
    }

    @Test
    void spark_defaults_one_at_a_time_and_fast_settings_two_at_a_time_run_the_same_batches() throws Exception {
        List<Case<?, ?, ?>> cases = cases();
        List<RunResult<?, ?, ?>> defaults = new ArrayList<>();
        for (Case<?, ?, ?> c : cases) {
            defaults.add(c.run(true));
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<RunResult<?, ?, ?>> fast = new ArrayList<>();
        try {
            List<Future<? extends RunResult<?, ?, ?>>> futures = new ArrayList<>();
            for (Case<?, ?, ?> c : cases) {
                futures.add(pool.submit(() -> c.run(false)));
            }
            for (Future<? extends RunResult<?, ?, ?>> f : futures) {
                fast.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }

        for (int i = 0; i < cases.size(); i++) {
            Case<?, ?, ?> c = cases.get(i);
            RunComparison.between("spark defaults", "fast settings").assertSame(defaults.get(i), fast.get(i));
            assertThat(fast.get(i).batches()).as(c.name()).isEqualTo(defaults.get(i).batches());
        }
        // the sample exercises what the settings could disturb: state, timers, restarts, partitions
        assertThat(cases).as("restarts").anyMatch(c -> c.generated().restartCount() > 0);
        assertThat(cases).as("several partitions").anyMatch(c -> c.query().shufflePartitions() > 1);
        assertThat(fast).as("fired timers").anyMatch(r -> !r.firedTimers().isEmpty());
        assertThat(fast.stream().mapToInt(r -> r.batches().size()).sum()).as("batches").isGreaterThan(30);
        assertThat(fast.stream().mapToInt(r -> r.outputs().size()).sum()).as("outputs").isGreaterThan(10);
        java.util.Map<String, Boolean> updatedState = new java.util.TreeMap<>();
        for (int i = 0; i < cases.size(); i++) {
            boolean updated = fast.get(i).batches().stream().anyMatch(b -> b.metric("numUpdatedStateRows") > 0);
            updatedState.merge(cases.get(i).name().replaceAll(" seed .*", ""), updated, Boolean::logicalOr);
        }
        assertThat(updatedState).as("each query's runs updated state").doesNotContainValue(false).hasSize(3);
    }
}
