package dev.twstester.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartEventFiles;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.samples.fraud.FraudSessions;
import dev.twstester.samples.fraud.Payment;
import dev.twstester.samples.migration.MigrateFromInitialState;
import dev.twstester.samples.ttl.Click;
import dev.twstester.samples.ttl.TtlSessions;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.LiveOutcome;
import dev.twstester.spark.LiveRunner;

/**
 * Every sample's hand-made scenarios on live Spark 4.2.0 (local, RocksDB) and on the simulator:
 * any difference in batches, watermarks, timestamps, late rows, outputs or fired timers fails, and
 * so does any difference in the state each run ends with (the live checkpoint's, read with Spark's
 * state data source, against the simulator's snapshot: every variable and timer, key by key).
 */
@Tag("live")
class LiveRegressionTest {

    private static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    private static Instant minute(int m) {
        return Instant.EPOCH.plus(Duration.ofMinutes(m));
    }

    private static <K, I, O> RunResult<K, I, O> assertAgree(TwsQuery<K, I, O> query, Scenario<I> scenario) {
        TwsSimulator<K, I, O> simulator = new TwsSimulator<>(query);
        RunResult<K, I, O> sim = simulator.run(scenario);
        LiveOutcome<K, I, O> live = LiveRunner.of(query).runWithEndState(scenario);
        RunComparison.simulatorVsSpark().assertSame(sim, live.run());
        RunComparison.simulatorVsSpark().assertSameState(simulator.snapshot(), live.endState());
        return live.run();
    }

    @Test
    void cart_three_file_story() {
        Scenario.Builder<CartEvent> story = Scenario.builder();
        CartEventFiles.story().forEach(file -> story.batch(file.events()));
        RunResult<String, CartEvent, ?> live = assertAgree(CartWatch.query(), story.build());
        assertThat(live.batches()).hasSize(6);
        assertThat(live.outputs()).hasSize(1);
    }

    @Test
    void cart_checkout_late_and_out_of_order_events() {
        assertAgree(CartWatch.query(), Scenario.<CartEvent>builder()
                .batch(List.of(CartEvent.add("ana", "boots", at("10:05")), CartEvent.add("bo", "mug", at("10:00"))))
                .batch(List.of(CartEvent.add("ana", "socks", at("10:01")), CartEvent.checkout("bo", at("10:20"))))
                .batch(List.of(CartEvent.add("cy", "lamp", at("10:10")), CartEvent.add("ana", "hat", at("10:40"))))
                .batch(List.of())
                .batch(List.of(CartEvent.add("dee", "pen", at("12:00"))))
                .build());
    }

    @Test
    void running_count_in_time_mode_none() {
        assertAgree(RunningCount.query(), Scenario.<String>builder()
                .batch(List.of("b", "a", "b"))
                .batch(List.of("c", "b"))
                .batch(List.of())
                .batch(List.of("a"))
                .build());
    }

    @Test
    void fraud_sessions_map_state_and_processing_time_timers() {
        assertAgree(FraudSessions.query(), Scenario.<Payment>builder()
                .batchAt(minute(1), List.of(new Payment("c1", "bookshop", 10_00), new Payment("c1", "electronics-outlet", 20_00),
                        new Payment("c2", "shop", 400_00)))
                .batchAt(minute(2), List.of(new Payment("c1", "fuel", 30_00), new Payment("c1", "cafe", 4_00),
                        new Payment("c2", "shop", 150_00)))
                .tick(minute(11))
                .tick(minute(12))
                .batchAt(minute(13), List.of(new Payment("c2", "shop", 10_00)))
                .tick(minute(23))
                .build());
    }

    @Test
    void ttl_sessions_expiry_and_idle_timer() {
        assertAgree(TtlSessions.query(), Scenario.<Click>builder()
                .batchAt(minute(1), List.of(new Click("ana", "home")))
                .batchAt(minute(11), List.of(new Click("ana", "search"), new Click("bo", "home")))
                .batchAt(minute(26), List.of(new Click("ana", "cart")))
                .tick(minute(31))
                .tick(minute(41))
                .tick(minute(46))
                .batchAt(minute(56), List.of(new Click("bo", "again")))
                .tick(minute(80))
                .build());
    }

    @Test
    void migration_from_initial_state() {
        assertAgree(MigrateFromInitialState.query(), Scenario.<String>builder()
                .batch(List.of("a", "c"))
                .batch(List.of("a", "b", "b"))
                .build());
    }
}
