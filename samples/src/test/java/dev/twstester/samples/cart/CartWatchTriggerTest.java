package dev.twstester.samples.cart;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.LiveRunner;

/**
 * CartWatch with a one-minute trigger, as production runs it (docs/triggers.md, "In code": the
 * example): rows wait for the next trigger, a data batch replaces the pending no-data batch,
 * and the cart timer fires in the no-data batch at the trigger after the watermark passed it.
 */
class CartWatchTriggerTest {
    static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    static Instant minute(int n) {
        return Instant.EPOCH.plus(Duration.ofMinutes(n));
    }

    static TwsQuery<String, CartEvent, CartAlert> query() {
        return CartWatch.query().withTrigger(Trigger.ProcessingTime("1 minute"));
    }

    @Test
    void rows_wait_for_the_trigger_and_a_data_batch_replaces_the_pending_no_data_batch() {
        TwsSimulator<String, CartEvent, CartAlert> sim = new TwsSimulator<>(query());

        sim.addData(CartEvent.add("ana", "boots", at("10:00")));          // waits for the next trigger
        assertThat(sim.waitingRows()).hasSize(1);
        sim.setProcessingTime(minute(1));                                 // batch 0; the watermark moves to 09:50
        sim.addData(CartEvent.add("ana", "socks", at("09:45")));          // before 09:50, after the last batch's watermark
        RunResult<String, CartEvent, CartAlert> next = sim.advanceProcessingTime(Duration.ofMinutes(1));

        BatchResult<String, CartEvent, CartAlert> batch1 = next.lastBatch();
        assertThat(batch1.hadInput()).isTrue();                           // no no-data batch: rows were waiting
        assertThat(batch1.batchTimestamp()).isEqualTo(minute(2));
        assertThat(batch1.lateWatermark()).isEqualTo(Instant.EPOCH);
        assertThat(batch1.evictionWatermark()).isEqualTo(at("09:50"));
        assertThat(batch1.droppedLate()).isEmpty();
        assertThat(sim.state().list("items", "ana")).containsExactly("boots", "socks");
    }

    @Test
    void the_timer_fires_in_the_no_data_batch_at_the_trigger_after_the_watermark_passes_it() {
        TwsSimulator<String, CartEvent, CartAlert> sim = new TwsSimulator<>(query());
        sim.runBatch(CartEvent.add("ana", "boots", at("10:00")));         // batch 0 at 00:01
        sim.runBatch(CartEvent.add("bob", "hat", at("10:50")));           // batch 1 at 00:02: watermark 10:40

        assertThat(sim.history().batches()).hasSize(2);
        assertThat(sim.setProcessingTime(minute(2).plusSeconds(30)).batches()).isEmpty();
        RunResult<String, CartEvent, CartAlert> tick = sim.setProcessingTime(minute(3));

        assertThat(tick.batches()).singleElement().satisfies(b -> {
            assertThat(b.hadInput()).isFalse();
            assertThat(b.batchTimestamp()).isEqualTo(minute(3));
            assertThat(b.firedTimers()).containsExactly(new FiredTimer<>("ana", at("10:30")));
            assertThat(b.outputs()).containsExactly(new CartAlert("ana", 1, at("10:00")));
        });
    }

    @Test
    @Tag("live")
    void live_spark_runs_the_same_batches_at_the_same_triggers() {
        Scenario<CartEvent> story = Scenario.<CartEvent>builder()
                .addData(List.of(CartEvent.add("ana", "boots", at("10:00"))))
                .tick(minute(1))
                .addData(List.of(CartEvent.add("ana", "socks", at("09:45"))))
                .tick(minute(2))
                .addData(List.of(CartEvent.add("bob", "hat", at("10:50"))))
                .tick(minute(3))
                .tick(minute(3).plusSeconds(30))
                .tick(minute(4))
                .build();

        RunResult<String, CartEvent, CartAlert> live = LiveRunner.of(query()).run(story);
        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query()).run(story), live);

        assertThat(live.batches()).extracting(BatchResult::batchTimestamp)
                .containsExactly(minute(1), minute(2), minute(3), minute(4));
        assertThat(live.batches().get(3).outputs()).containsExactly(new CartAlert("ana", 2, at("10:00")));
    }
}
