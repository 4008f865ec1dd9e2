package dev.twstester.samples.cart;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.sim.TwsSimulator;

class CartWatchTest {
    static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    private final TwsSimulator<String, CartEvent, CartAlert> sim = new TwsSimulator<>(CartWatch.query());

    @Test
    void addsAreKeptWithoutOutputAndTheTimerFollowsTheLatestAdd() {
        RunResult<String, CartEvent, CartAlert> boots = sim.runBatch(CartEvent.add("ana", "boots", at("10:00")));
        assertThat(sim.state().timers("ana")).containsExactly(at("10:30"));

        RunResult<String, CartEvent, CartAlert> socks = sim.runBatch(CartEvent.add("ana", "socks", at("10:05")));

        assertThat(boots.outputs()).isEmpty();
        assertThat(socks.outputs()).isEmpty();
        assertThat(sim.state().list("items", "ana")).containsExactly("boots", "socks");
        assertThat(sim.state().value("last_seen", "ana")).contains(at("10:05").toEpochMilli());
        assertThat(sim.state().timers("ana")).containsExactly(at("10:35"));
    }

    @Test
    void cartIsFlaggedOnlyOnceTheWatermarkPassesLastAddPlus30Minutes() {
        sim.runBatch(CartEvent.add("ana", "boots", at("10:00")));
        sim.runBatch(CartEvent.add("ana", "socks", at("10:05")));

        // the deleted 10:30 timer must not fire
        RunResult<String, CartEvent, CartAlert> at1030 = sim.advanceWatermarkTo(at("10:30"));
        assertThat(at1030.batches()).hasSize(1);
        assertThat(at1030.outputs()).isEmpty();
        assertThat(at1030.firedTimers()).isEmpty();
        assertThat(sim.state().list("items", "ana")).containsExactly("boots", "socks");

        RunResult<String, CartEvent, CartAlert> at1036 = sim.advanceWatermarkTo(at("10:36"));

        assertThat(at1036.batches()).hasSize(1);
        assertThat(at1036.lastBatch().hadInput()).isFalse();
        assertThat(at1036.lastBatch().evictionWatermark()).isEqualTo(at("10:36"));
        assertThat(at1036.outputs()).containsExactly(new CartAlert("ana", 2, at("10:05")));
        assertThat(at1036.firedTimers()).containsExactly(new FiredTimer<>("ana", at("10:35")));
        assertThat(sim.state().list("items", "ana")).isEmpty();
        assertThat(sim.state().value("last_seen", "ana")).isEmpty();
        assertThat(sim.state().timers("ana")).isEmpty();
        assertThat(sim.state().keys()).isEmpty();
        // boots, socks: data + no-data batch each; then one batch per forced watermark
        assertThat(sim.history().batches()).extracting(b -> b.batchId()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void checkoutClearsTheCartAndItsTimer() {
        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(
                CartEvent.add("bo", "mug", at("10:08")), CartEvent.checkout("bo", at("10:20")));

        assertThat(run.outputs()).isEmpty();
        assertThat(sim.state().hasState("bo")).isFalse();
        assertThat(sim.advanceWatermarkTo(at("12:00")).outputs()).isEmpty();
    }

    @Test
    void anOutOfOrderAddKeepsTheLatestLastSeen() {
        sim.runBatch(CartEvent.add("ana", "boots", at("10:05")));

        // 10:01 is after the watermark (09:55), so it is delivered, but it is older than last_seen
        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(CartEvent.add("ana", "socks", at("10:01")));

        assertThat(run.droppedLate()).isEmpty();
        assertThat(sim.state().list("items", "ana")).containsExactly("boots", "socks");
        assertThat(sim.state().value("last_seen", "ana")).contains(at("10:05").toEpochMilli());
        assertThat(sim.state().timers("ana")).containsExactly(at("10:35"));
    }

    @Test
    void anAddAtOrBeforeThePreviousBatchWatermarkIsDropped() {
        sim.runBatch(CartEvent.add("ana", "boots", at("10:10")));   // watermark -> 10:00

        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(CartEvent.add("ana", "socks", at("10:00")));

        assertThat(run.batches().get(0).lateWatermark()).isEqualTo(at("10:00"));
        assertThat(run.droppedLate()).containsExactly(CartEvent.add("ana", "socks", at("10:00")));
        assertThat(sim.state().list("items", "ana")).containsExactly("boots");
    }
}
