package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.sim.ChainProcessors;
import dev.twstester.sim.Event;
import dev.twstester.sim.MultiOperatorQueryTest;
import dev.twstester.sim.OutEvent;
import dev.twstester.sim.PlanProcessors;

/**
 * The plans of several operators Spark 4.x runs besides an operator after the
 * {@code eventTimeColumnName} overload, live against the simulator batch by batch (every
 * operator's view) and in the end state ({@link LiveMultiOperatorTest#agree}). The last operator,
 * {@link PlanProcessors.Probe}, emits the watermark its {@code TimerValues} give, so the outputs
 * pin the watermark each operator sees.
 */
@Tag("live")
class LiveAcceptedPlansTest {

    @Test
    void after_a_transform_with_state_without_the_overload_the_next_gets_the_watermark_and_no_late_filter() {
        TwsQuery<String, Event, OutEvent> query = PlanProcessors.plainRelay()
                .then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Append()));

        RunResult<String, Event, OutEvent> live = LiveMultiOperatorTest.agree(query, PlanProcessors.storyWithAnOldRow()).run();

        BatchResult<String, OutEvent, OutEvent> old = live.<String, OutEvent, OutEvent>operator(1).batches().get(8);
        assertThat(old.lateWatermark()).isEqualTo(Instant.ofEpochMilli(55000));
        assertThat(old.outputs()).containsExactly(new OutEvent("b1", 1000, "emit:1000 wm=55000"),
                new OutEvent("b", 11000, "timer wm=55000"));
        assertThat(live.outputs()).contains(new OutEvent("a", 54000, "timer wm=55000"));
    }

    @Test
    void after_a_processing_time_operator_the_next_sees_a_watermark_of_zero_and_its_timers_wait() {
        TwsQuery<String, Event, OutEvent> query = ChainProcessors.relay().then(PlanProcessors.processingTimePass())
                .then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Update()));

        RunResult<String, Event, OutEvent> live = LiveMultiOperatorTest.agree(query, PlanProcessors.timedStory()).run();

        assertThat(live.outputs()).hasSize(9).extracting(OutEvent::getWhat)
                .allSatisfy(what -> assertThat(what).endsWith(" wm=0"));
        assertThat(live.operator(2).firedTimers()).isEmpty();
        assertThat(live.operator(0).firedTimers()).extracting(FiredTimer::expiry)
                .containsExactly(Instant.ofEpochMilli(15000), Instant.ofEpochMilli(44000));
        assertThat(live.batches().get(4).evictionWatermark()).isEqualTo(Instant.ofEpochMilli(55000));
    }

    @Test
    void a_flat_map_groups_with_state_in_the_middle_passes_no_watermark_on() {
        TwsQuery<String, Event, OutEvent> query = ChainProcessors.relay().then(PlanProcessors.teamRunning(OutputMode.Update()))
                .then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Update()));

        RunResult<String, Event, OutEvent> live = LiveMultiOperatorTest.agree(query, MultiOperatorQueryTest.story()).run();

        assertThat(live.outputs()).contains(new OutEvent("a", 44000, "n=6 wm=0"));
        assertThat(live.operator(2).firedTimers()).isEmpty();
    }

    @Test
    void a_map_groups_with_state_in_the_middle_passes_no_watermark_on() {
        TwsQuery<String, Event, OutEvent> query = ChainProcessors.relay().then(PlanProcessors.teamTotal())
                .then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Update()));

        RunResult<String, Event, OutEvent> live = LiveMultiOperatorTest.agree(query, MultiOperatorQueryTest.story()).run();

        assertThat(live.operator(1).outputs()).hasSize(7);
        assertThat(live.outputs()).contains(new OutEvent("a", 44000, "n=6 wm=0"));
    }

    @Test
    void two_flat_map_groups_with_states_in_append_mode_run_in_an_append_query() {
        TwsQuery<String, Event, OutEvent> query = ChainProcessors.relay().then(PlanProcessors.teamRunning(OutputMode.Append()))
                .then(PlanProcessors.teamRunning(OutputMode.Append()));

        RunResult<String, Event, OutEvent> live = LiveMultiOperatorTest.agree(query, MultiOperatorQueryTest.story()).run();

        assertThat(live.outputs()).containsExactly(new OutEvent("a", 12000, "n=1"), new OutEvent("b", 20000, "n=1"),
                new OutEvent("a", 15000, "n=2"), new OutEvent("a", 24000, "n=3"), new OutEvent("c", 40000, "n=1"),
                new OutEvent("a", 60000, "n=4"), new OutEvent("a", 44000, "n=5"));
    }

    @Test
    void an_overload_after_a_transform_with_state_without_it_reads_the_sources_watermark() {
        TwsQuery<String, Event, OutEvent> query = PlanProcessors.plainRelay().then(MultiOperatorQueryTest.pass())
                .then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Update()));

        RunResult<String, Event, OutEvent> live = LiveMultiOperatorTest.agree(query, MultiOperatorQueryTest.story()).run();

        assertThat(live.operator(2).firedTimers()).hasSize(7);
        assertThat(live.outputs()).contains(new OutEvent("a1", 60000, "x wm=35000"), new OutEvent("a", 54000, "timer wm=55000"));
        assertThat(live.batches()).extracting(b -> b.operators().get(2).evictionWatermark())
                .containsExactlyElementsOf(live.batches().stream().map(BatchResult::evictionWatermark).toList());
    }
}
