package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Instant;
import java.util.List;

import org.apache.spark.SparkRuntimeException;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.ChainResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunComparison;
import dev.twstester.Scenario;
import dev.twstester.TwsChain;
import dev.twstester.sim.ChainProcessors;
import dev.twstester.sim.ChainSimulator;
import dev.twstester.sim.Event;
import dev.twstester.sim.OutEvent;

/**
 * Two chained {@code transformWithState} operators on live Spark 4.2.0 (the upstream with the
 * {@code eventTimeColumnName} overload, the downstream grouped on its output), against the
 * {@link ChainSimulator}: same batches, watermarks, inputs, outputs, timers and metrics per operator,
 * and the {@code EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED} failure between them.
 */
@Tag("live")
class LiveChainTest {
    private static Instant ms(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static void assertSame(ChainResult<?, ?, ?, ?, ?> sim, ChainResult<?, ?, ?, ?, ?> live) {
        RunComparison.simulatorVsSpark().assertSame(sim.upstream(), live.upstream());
        RunComparison.simulatorVsSpark().assertSame(sim.downstream(), live.downstream());
    }

    @Test
    void two_operators_with_timers_in_both_share_the_watermarks_batch_by_batch() {
        TwsChain<String, Event, OutEvent, String, OutEvent> chain = ChainProcessors.chain();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a1", 10000, "timer+5"), new Event("b1", 20000, "x"), new Event("a2", 12000, "x")))
                .batch(List.of(new Event("c1", 40000, "x")))
                .build();

        ChainResult<String, Event, OutEvent, String, OutEvent> live = LiveChainRunner.of(chain).run(scenario);
        ChainResult<String, Event, OutEvent, String, OutEvent> sim = new ChainSimulator<>(chain).run(scenario);
        assertSame(sim, live);

        assertThat(live.upstream().batches()).extracting(BatchResult::hadInput).containsExactly(true, false, true, false);
        // one watermark for both operators: late = the previous batch's, eviction = this batch's
        for (var run : List.of(live.upstream(), live.downstream())) {
            assertThat(run.batches()).extracting(b -> b.lateWatermark().toEpochMilli()).containsExactly(0L, 0L, 15000L, 15000L);
            assertThat(run.batches()).extracting(b -> b.evictionWatermark().toEpochMilli())
                    .containsExactly(0L, 15000L, 15000L, 35000L);
        }
        // the upstream's timer output of the no-data batch 1 is the downstream's input in that batch
        assertThat(live.upstream().batches().get(1).firedTimers()).containsExactly(new FiredTimer<>("a1", ms(15000)));
        assertThat(live.downstream().batches().get(1).input()).containsExactly(new OutEvent("a1", 15000, "timer"));
        // each operator's own metrics: the upstream registered 1 timer in batch 0, the downstream 3
        assertThat(live.upstream().batches().get(0).metric("numRegisteredTimers")).isEqualTo(1);
        assertThat(live.downstream().batches().get(0).metric("numRegisteredTimers")).isEqualTo(3);
        // the downstream's event-time timers fire at the shared watermark 35000 in the last no-data batch
        assertThat(live.downstream().batches().get(3).firedTimers()).containsExactly(new FiredTimer<>("a", ms(20000)),
                new FiredTimer<>("a", ms(22000)), new FiredTimer<>("a", ms(25000)), new FiredTimer<>("b", ms(30000)));
        assertThat(live.outputs()).containsExactly(new OutEvent("a", 20000, "count=3 from a1"),
                new OutEvent("a", 22000, "count=3 from a1"), new OutEvent("a", 25000, "count=3 from a1"),
                new OutEvent("b", 30000, "count=1 from b1"));
    }

    @Test
    void an_upstream_row_at_the_late_watermark_fails_the_query_before_the_downstream() {
        TwsChain<String, Event, OutEvent, String, OutEvent> chain = ChainProcessors.chain();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a1", 40000, "x")))
                .batch(List.of(new Event("a1", 36000, "emit:35001")))
                .batch(List.of(new Event("a1", 36000, "emit:35000")))
                .build();

        LiveRunException e = catchThrowableOfType(LiveRunException.class, () -> LiveChainRunner.of(chain).run(scenario));

        assertThat(e.errorClass()).contains("EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED");
        assertThat(e.getCause().getMessage()).contains("eventTime=35000000", "current_watermark_value=35000");
        ChainSimulator<String, Event, OutEvent, String, OutEvent> sim = new ChainSimulator<>(chain);
        SparkRuntimeException simError = catchThrowableOfType(SparkRuntimeException.class, () -> sim.run(scenario));
        assertThat(simError.getCondition()).isEqualTo(e.errorClass().orElseThrow());
        assertThat(simError.getMessageParameters()).containsEntry("emittedRowEventTime", "35000000")
                .containsEntry("currentWatermark", "35000");
        // batches 0 to 2 committed on both sides; the failing batch 3 kept nothing
        assertThat(e.completed()).hasSize(3);
        assertThat(sim.history().size()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(List.<Object>copyOf(e.completed().get(i).outputs())).as("batch %d", i)
                    .isEqualTo(List.<Object>copyOf(sim.history().upstream().batches().get(i).outputs()));
        }
        assertThat(sim.state().value("count", "a")).contains(2L);
    }

    @Test
    void a_processing_time_downstream_runs_a_batch_at_every_trigger_though_the_upstream_asks_for_none() {
        TwsChain<String, Event, OutEvent, String, OutEvent> chain = TwsChain.of(
                ChainProcessors.relay().withTrigger(Trigger.ProcessingTime(1000)),
                ChainProcessors.tally(TimeMode.ProcessingTime()));
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batchAt(ms(1000), List.of(new Event("a1", 2000, "x")))
                .tick(ms(2000))
                .tick(ms(3000))
                .build();

        ChainResult<String, Event, OutEvent, String, OutEvent> live = LiveChainRunner.of(chain).run(scenario);
        ChainResult<String, Event, OutEvent, String, OutEvent> sim = new ChainSimulator<>(chain).run(scenario);
        assertSame(sim, live);

        assertThat(live.downstream().batches()).extracting(BatchResult::hadInput).containsExactly(true, false, false);
        assertThat(live.downstream().batches()).extracting(b -> b.batchTimestamp().toEpochMilli())
                .containsExactly(1000L, 2000L, 3000L);
        assertThat(live.downstream().batches().get(1).firedTimers()).containsExactly(new FiredTimer<>("a", ms(2000)));
        assertThat(live.outputs()).containsExactly(new OutEvent("a", 2000, "count=1 from a1"));
        assertThat(live.upstream().batches()).allSatisfy(b -> assertThat(b.evictionWatermark()).isEqualTo(ms(0)));
    }
}
