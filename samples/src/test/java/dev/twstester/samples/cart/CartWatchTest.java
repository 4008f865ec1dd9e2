package dev.twstester.samples.cart;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

/**
 * CartWatch with the {@code @TwsTest} extension in strict mode: every output row must be asserted
 * (or read through {@code sim.output()}) and no due timer may be left unfired, else a passing test
 * fails. A failing test shows the simulator's timeline.
 */
@TwsTest(strict = true)
class CartWatchTest {
    static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    static TwsQuery<String, CartEvent, CartAlert> query() {
        return CartWatch.query();
    }

    @Simulator TestSimulator<String, CartEvent, CartAlert> sim;

    @Test
    void addsAreKeptWithoutOutputAndTheTimerFollowsTheLatestAdd() {
        RunResult<String, CartEvent, CartAlert> boots = sim.runBatch(CartEvent.add("ana", "boots", at("10:00")));
        assertThat(sim).timers("ana").containsExactly(at("10:30"));

        RunResult<String, CartEvent, CartAlert> socks = sim.runBatch(CartEvent.add("ana", "socks", at("10:05")));

        assertThat(boots).outputs().isEmpty();
        assertThat(socks).outputs().isEmpty();
        assertThat(sim).listState("items", "ana").containsExactly("boots", "socks");
        assertThat(sim).valueState("last_seen", "ana").contains(at("10:05").toEpochMilli());
        assertThat(sim).timers("ana").containsExactly(at("10:35"));
    }

    @Test
    void cartIsFlaggedOnlyOnceTheWatermarkPassesLastAddPlus30Minutes() {
        sim.runBatch(CartEvent.add("ana", "boots", at("10:00")));
        sim.runBatch(CartEvent.add("ana", "socks", at("10:05")));

        // the deleted 10:30 timer must not fire
        RunResult<String, CartEvent, CartAlert> at1030 = sim.advanceWatermarkTo(at("10:30"));
        assertThat(at1030.batches()).hasSize(1);
        assertThat(at1030).outputs().isEmpty();
        assertThat(at1030).firedTimers().isEmpty();
        assertThat(sim).listState("items", "ana").containsExactly("boots", "socks");

        RunResult<String, CartEvent, CartAlert> at1036 = sim.advanceWatermarkTo(at("10:36"));

        assertThat(at1036.batches()).hasSize(1);
        assertThat(at1036).lastBatch().isNoDataBatch().hasEvictionWatermark(at("10:36"));
        assertThat(at1036).outputs().containsExactly(new CartAlert("ana", 2, at("10:05")));
        assertThat(at1036).firedTimers().containsExactly(new FiredTimer<>("ana", at("10:35")));
        assertThat(sim).listState("items", "ana").isEmpty();
        assertThat(sim).valueState("last_seen", "ana").isEmpty();
        assertThat(sim).timers("ana").isEmpty();
        assertThat(sim).keysWithState().isEmpty();
        // boots, socks: data + no-data batch each; then one batch per forced watermark
        assertThat(sim).history().hasBatchIds(0, 1, 2, 3, 4, 5);
    }

    @Test
    void checkoutClearsTheCartAndItsTimer() {
        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(
                CartEvent.add("bo", "mug", at("10:08")), CartEvent.checkout("bo", at("10:20")));

        assertThat(run).outputs().isEmpty();
        assertThat(sim).hasNoStateFor("bo");
        assertThat(sim.advanceWatermarkTo(at("12:00"))).outputs().isEmpty();
    }

    @Test
    void anOutOfOrderAddKeepsTheLatestLastSeen() {
        sim.runBatch(CartEvent.add("ana", "boots", at("10:05")));

        // 10:01 is after the watermark (09:55), so it is delivered, but it is older than last_seen
        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(CartEvent.add("ana", "socks", at("10:01")));

        assertThat(run).droppedLate().isEmpty();
        assertThat(sim).listState("items", "ana").containsExactly("boots", "socks");
        assertThat(sim).valueState("last_seen", "ana").contains(at("10:05").toEpochMilli());
        assertThat(sim).timers("ana").containsExactly(at("10:35"));
    }

    @Test
    void anAddAtOrBeforeThePreviousBatchWatermarkIsDropped() {
        sim.runBatch(CartEvent.add("ana", "boots", at("10:10")));   // watermark -> 10:00

        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(CartEvent.add("ana", "socks", at("10:00")));

        assertThat(run.batches().get(0)).hasLateWatermark(at("10:00"));
        assertThat(run).droppedLate().containsExactly(CartEvent.add("ana", "socks", at("10:00")));
        assertThat(sim).listState("items", "ana").containsExactly("boots");
    }
}
