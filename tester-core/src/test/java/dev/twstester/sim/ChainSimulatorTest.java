package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkRuntimeException;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.FiredTimer;
import dev.twstester.ProcessorException;
import dev.twstester.TwsQuery;

class ChainSimulatorTest {
    /** The first operator's view of {@code run}. */
    private static RunResult<String, Event, OutEvent> up(RunResult<String, Event, OutEvent> run) {
        return run.operator(0);
    }

    /** The second operator's view of {@code run}. */
    private static RunResult<String, OutEvent, OutEvent> down(RunResult<String, Event, OutEvent> run) {
        return run.operator(1);
    }

    private static Instant ms(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static OutEvent out(String key, long at, String what) {
        return new OutEvent(key, at, what);
    }

    @Test
    void both_operators_run_in_each_batch_with_the_upstreams_watermarks_and_their_own_timers() {
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(ChainProcessors.chain());

        RunResult<String, Event, OutEvent> first = sim.runBatch(
                new Event("a1", 10000, "timer+5"), new Event("b1", 20000, "x"), new Event("a2", 12000, "x"));

        // the data batch and the no-data batch the watermark advance (to 20000 - 5000) asks for
        assertThat(up(first).batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
        assertThat(down(first).batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
        assertThat(down(first).batches()).extracting(BatchResult::hadInput).containsExactly(true, false);
        BatchResult<String, OutEvent, OutEvent> down0 = down(first).batches().get(0);
        // the downstream receives the upstream's outputs in the upstream's order (keys a1, a2, b1)
        assertThat(down0.input()).containsExactly(out("a1", 10000, "timer+5"), out("a2", 12000, "x"), out("b1", 20000, "x"));
        assertThat(down0.outputs()).isEmpty();
        assertThat(down0.metric("numRegisteredTimers")).isEqualTo(3);
        // both operators: late watermark 0, eviction 0, then late 0, eviction 15000
        for (var run : List.of(up(first), down(first))) {
            assertThat(run.batches()).extracting(b -> b.lateWatermark().toEpochMilli()).containsExactly(0L, 0L);
            assertThat(run.batches()).extracting(b -> b.evictionWatermark().toEpochMilli()).containsExactly(0L, 15000L);
        }
        // the upstream's timer a1@15000 fires in the no-data batch and its output reaches the downstream there
        BatchResult<String, OutEvent, OutEvent> down1 = down(first).batches().get(1);
        assertThat(up(first).batches().get(1).firedTimers()).containsExactly(new FiredTimer<>("a1", ms(15000)));
        assertThat(down1.input()).containsExactly(out("a1", 15000, "timer"));
        assertThat(down1.firedTimers()).isEmpty();
        assertThat(first.outputs()).isEmpty();

        assertThat(sim.state().value("n", "a1")).contains(1L);
        assertThat(sim.<Object>state(1).value("count", "a")).contains(3L);
        assertThat(sim.<Object>state(1).timers("a")).containsExactly(ms(20000), ms(22000), ms(25000));
        assertThat(sim.<Object>state(1).timers("b")).containsExactly(ms(30000));
        assertThat(sim.state().timers("a1")).isEmpty();
        assertThat(sim.watermark()).isEqualTo(ms(15000));

        RunResult<String, Event, OutEvent> second = sim.runBatch(new Event("c1", 40000, "x"));

        assertThat(second.batches().size()).isEqualTo(2);
        BatchResult<String, OutEvent, OutEvent> down3 = down(second).batches().get(1);
        assertThat(down3.lateWatermark()).isEqualTo(ms(15000));
        assertThat(down3.evictionWatermark()).isEqualTo(ms(35000));
        // the downstream's event-time timers fire at the shared watermark, ascending across keys
        assertThat(down3.firedTimers()).containsExactly(new FiredTimer<>("a", ms(20000)), new FiredTimer<>("a", ms(22000)),
                new FiredTimer<>("a", ms(25000)), new FiredTimer<>("b", ms(30000)));
        assertThat(second.outputs()).containsExactly(out("a", 20000, "count=3 from a1"), out("a", 22000, "count=3 from a1"),
                out("a", 25000, "count=3 from a1"), out("b", 30000, "count=1 from b1"));
        assertThat(up(second).batches().get(1).outputs()).isEmpty();
        assertThat(sim.history().batches().size()).isEqualTo(4);
        assertThat(sim.history().outputs()).isEqualTo(second.outputs());
    }

    @Test
    void fast_fidelity_runs_the_same_batches() {
        dev.twstester.Scenario<Event> scenario = dev.twstester.Scenario.<Event>builder()
                .batch(List.of(new Event("a1", 10000, "timer+5"), new Event("b1", 20000, "x"), new Event("a2", 12000, "x")))
                .batch(List.of(new Event("a2", 14000, "late"), new Event("c1", 40000, "timer+3")))
                .build();

        RunResult<String, Event, OutEvent> full = new TwsSimulator<>(ChainProcessors.chain()).run(scenario);
        RunResult<String, Event, OutEvent> fast =
                new TwsSimulator<>(ChainProcessors.chain(), Fidelity.FAST).run(scenario);

        dev.twstester.RunComparison.between("full", "fast").assertSame(up(full), up(fast));
        dev.twstester.RunComparison.between("full", "fast").assertSame(down(full), down(fast));
        // the row at 14000 is at or before the late watermark 15000: the upstream drops it
        assertThat(up(full).droppedLate()).containsExactly(new Event("a2", 14000, "late"));
        assertThat(down(full).droppedLate()).isEmpty();
        assertThat(full.batches().size()).isEqualTo(4);
    }

    @Test
    void an_upstream_row_at_the_late_watermark_fails_the_batch_and_neither_operator_keeps_it() {
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(ChainProcessors.chain());
        sim.runBatch(new Event("a1", 40000, "x")); // watermark 35000 from batch 1 on
        sim.runBatch(new Event("a1", 36000, "emit:35001")); // 1 ms after the late watermark passes

        SparkRuntimeException e = catchThrowableOfType(SparkRuntimeException.class,
                () -> sim.runBatch(new Event("a1", 36000, "emit:35000")));

        assertThat(e.getCondition()).isEqualTo("EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED");
        assertThat(e.getMessageParameters()).containsEntry("currentWatermark", "35000")
                .containsEntry("emittedRowEventTime", "35000000");
        assertThat(sim.nextBatchId()).isEqualTo(3);
        assertThat(sim.state().value("n", "a1")).contains(2L);
        assertThat(sim.<Object>state(1).value("count", "a")).contains(2L);
        assertThat(sim.history().batches().size()).isEqualTo(3);
    }

    @Test
    void a_downstream_failure_rolls_back_the_upstreams_batch_too() {
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(ChainProcessors.chain());
        sim.runBatch(new Event("a1", 10000, "timer+1"));

        ProcessorException e = catchThrowableOfType(ProcessorException.class,
                () -> sim.runBatch(new Event("a1", 11000, "x"), new Event("b1", 11000, "boom")));

        assertThat(e.getMessage()).contains("TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR", "handleInputRows", "boom from b1");
        assertThat(sim.nextBatchId()).isEqualTo(2);
        assertThat(sim.state().value("n", "a1")).contains(1L);
        assertThat(sim.state().value("n", "b1")).isEmpty();
        assertThat(sim.state().timers("a1")).containsExactly(ms(11000));
        assertThat(sim.<Object>state(1).value("count", "a")).contains(1L);
        assertThat(sim.watermark()).isEqualTo(ms(5000));

        // the query stopped; a start runs batch 2 again, with its rows, and it fails in both operators again
        assertThatThrownBy(() -> sim.runBatch(new Event("a1", 11000, "x")))
                .hasMessageContaining("the query stopped after batch 2 failed");
        ProcessorException again = catchThrowableOfType(ProcessorException.class, sim::start);
        assertThat(again.getMessage()).contains("boom from b1");
        assertThat(sim.nextBatchId()).isEqualTo(2);
        assertThat(sim.state().value("n", "a1")).contains(1L);
        assertThat(sim.<Object>state(1).value("count", "a")).contains(1L);
    }

    @Test
    void a_no_data_batch_runs_when_only_the_downstream_asks_for_one() {
        // the downstream in ProcessingTime mode asks for a batch at every trigger; the upstream's
        // watermark does not move (event times below the 5 s delay)
        TwsQuery<String, Event, OutEvent> chain = Chains.of(
                ChainProcessors.relay().withTrigger(Trigger.ProcessingTime(1000)),
                ChainProcessors.tally(TimeMode.ProcessingTime()));
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(chain);

        RunResult<String, Event, OutEvent> data = sim.runBatchAt(ms(1000), List.of(new Event("a1", 2000, "x")));
        assertThat(data.batches().size()).isEqualTo(1);
        assertThat(sim.<Object>state(1).timers("a")).containsExactly(ms(2000));
        assertThat(sim.operators().get(0).asksForNoDataBatch(false)).isFalse();
        assertThat(sim.operators().get(1).asksForNoDataBatch(false)).isTrue();

        RunResult<String, Event, OutEvent> tick = sim.setProcessingTime(ms(2000));

        assertThat(tick.batches().size()).isEqualTo(1);
        BatchResult<String, OutEvent, OutEvent> down = down(tick).lastBatch();
        assertThat(down.hadInput()).isFalse();
        assertThat(down.batchTimestamp()).isEqualTo(ms(2000));
        assertThat(down.firedTimers()).containsExactly(new FiredTimer<>("a", ms(2000)));
        assertThat(tick.outputs()).containsExactly(out("a", 2000, "count=1 from a1"));
        assertThat(up(tick).lastBatch().outputs()).isEmpty();
        assertThat(up(tick).lastBatch().evictionWatermark()).isEqualTo(ms(0));
    }

    @Test
    void with_a_zero_interval_and_a_processing_time_downstream_each_clock_move_runs_one_trigger() {
        TwsQuery<String, Event, OutEvent> chain = Chains.of(ChainProcessors.relay(),
                ChainProcessors.tally(TimeMode.ProcessingTime()));
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(chain);

        // the watermark moves to 15000, but Spark's zero-interval loop would spin on the downstream's
        // requests; as for one ProcessingTime operator, batches run one per clock move
        RunResult<String, Event, OutEvent> data = sim.runBatchAt(ms(1000),
                List.of(new Event("a1", 20000, "timer+1")));
        assertThat(data.batches().size()).isEqualTo(1);
        assertThat(sim.nextTriggerTime()).isEqualTo(ms(1001));

        RunResult<String, Event, OutEvent> tick = sim.setProcessingTime(ms(2000));

        assertThat(tick.batches().size()).isEqualTo(1);
        assertThat(up(tick).lastBatch().evictionWatermark()).isEqualTo(ms(15000));
        assertThat(down(tick).lastBatch().firedTimers()).containsExactly(new FiredTimer<>("a", ms(2000)));
        assertThat(sim.state().timers("a1")).containsExactly(ms(21000));
    }

    @Test
    void advancing_the_watermark_moves_both_operators_and_runs_one_no_data_batch() {
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(ChainProcessors.chain());
        sim.runBatch(new Event("a1", 1000, "timer+2"));

        RunResult<String, Event, OutEvent> run = sim.advanceWatermarkTo(ms(11000));

        assertThat(run.batches().size()).isEqualTo(1);
        // the upstream's timer at 3000 fires, its row reaches the downstream, whose timers at 11000 (row at 1000) fire
        assertThat(up(run).lastBatch().firedTimers()).containsExactly(new FiredTimer<>("a1", ms(3000)));
        assertThat(down(run).lastBatch().firedTimers()).containsExactly(new FiredTimer<>("a", ms(11000)));
        assertThat(run.outputs()).containsExactly(out("a", 11000, "count=2 from a1"));
        assertThat(sim.<Object>state(1).timers("a")).containsExactly(ms(13000));
    }

    @Test
    void a_restart_resumes_both_operators_from_the_checkpoint() {
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(ChainProcessors.chain());
        sim.runBatch(new Event("a1", 10000, "x"));
        sim.stop();
        sim.addData(List.of(new Event("a1", 30000, "x")));
        assertThat(sim.waitingRows()).hasSize(1);

        RunResult<String, Event, OutEvent> run = sim.start();

        // the waiting rows run at once (batch 2, watermark 5000), then the no-data batch at watermark 25000
        // fires the downstream's timer a@20000
        assertThat(up(run).batches()).extracting(BatchResult::batchId).containsExactly(2L, 3L);
        assertThat(down(run).lastBatch().evictionWatermark()).isEqualTo(ms(25000));
        assertThat(run.outputs()).containsExactly(out("a", 20000, "count=2 from a1"));
        assertThat(sim.state().value("n", "a1")).contains(2L);
    }

    @Test
    void a_downstream_operator_has_no_watermark_initial_state_or_trigger_of_its_own() {
        TwsQuery<String, OutEvent, OutEvent> watermarked = TwsQuery.<String, OutEvent, OutEvent>builder(ChainProcessors.Tally::new)
                .keyBy(OutEvent::getKey, Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime())
                .watermark("outTs", Duration.ofSeconds(1))
                .build();
        assertThatThrownBy(() -> Chains.of(ChainProcessors.relay(), watermarked))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not have watermark(\"outTs\", ...)");

        TwsQuery<String, OutEvent, OutEvent> initial = TwsQuery.<String, OutEvent, OutEvent>builder(InitialTally::new)
                .keyBy(OutEvent::getKey, Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.bean(OutEvent.class))
                .initialState(List.of(Map.entry("a", 1L)), Encoders.LONG())
                .build();
        assertThatThrownBy(() -> Chains.of(ChainProcessors.relay(), initial))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("remove initialState(...) from it");

        assertThatThrownBy(() -> Chains.of(ChainProcessors.relay(),
                ChainProcessors.tally(TimeMode.EventTime()).withTrigger(Trigger.ProcessingTime(5000))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("set it on the first operator only");
    }

    @Test
    void the_downstream_input_encoder_must_be_the_upstream_output_encoder() {
        TwsQuery<String, Event, OutEvent> upstream = ChainProcessors.relay();
        @SuppressWarnings({"unchecked", "rawtypes"})
        TwsQuery<String, OutEvent, OutEvent> wrongInput = (TwsQuery) TwsQuery.<String, Event, OutEvent>builder(
                        () -> new ChainProcessors.Relay())
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .build();

        assertThatThrownBy(() -> Chains.of(upstream, wrongInput))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("next input dev.twstester.sim.Event struct<cmd:string,key:string,ts:timestamp>")
                .hasMessageContaining("pass the same encoder to output(...) and input(...)");
    }

    @Test
    void the_downstream_runs_with_the_upstreams_partitions_and_trigger() {
        TwsQuery<String, Event, OutEvent> chain = Chains.of(
                ChainProcessors.relay().withShufflePartitions(3).withTrigger(Trigger.ProcessingTime(1000)),
                ChainProcessors.tally(TimeMode.EventTime()));

        assertThat(chain.operators().get(1).shufflePartitions()).isEqualTo(3);
        assertThat(chain.operators().get(1).triggerIntervalMs()).isEqualTo(1000);
        assertThat(chain.withShufflePartitions(2).operators().get(1).shufflePartitions()).isEqualTo(2);
        assertThat(chain.operators().get(0).outputEventTimeColumn()).contains("outTs");
    }

    /** A downstream processor with initial state, only to be rejected. */
    public static class InitialTally
            extends org.apache.spark.sql.streaming.StatefulProcessorWithInitialState<String, OutEvent, OutEvent, Long> {
        @Override
        public void init(org.apache.spark.sql.streaming.OutputMode outputMode, TimeMode timeMode) {}

        @Override
        public void handleInitialState(String key, Long value, org.apache.spark.sql.streaming.TimerValues timerValues) {}

        @Override
        public scala.collection.Iterator<OutEvent> handleInputRows(String key, scala.collection.Iterator<OutEvent> rows,
                org.apache.spark.sql.streaming.TimerValues timerValues) {
            return scala.collection.Iterator.empty();
        }
    }
}
