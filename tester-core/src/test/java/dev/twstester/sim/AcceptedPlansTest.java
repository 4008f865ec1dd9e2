package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

/**
 * The plans of several operators Spark 4.x accepts besides an operator after the
 * {@code eventTimeColumnName} overload, as the simulator runs them (each pinned live by
 * {@code LiveAcceptedPlansTest}), and the plans {@link TwsQuery#then} refuses, with Spark's error
 * class and what to change (Spark's own errors pinned by {@code LiveRefusedPlansTest}).
 */
class AcceptedPlansTest {
    private static OutEvent out(String key, long ts, String what) {
        return new OutEvent(key, ts, what);
    }

    /** Each operator's eviction watermark in each batch, operator by operator. */
    private static List<List<Long>> evictionWatermarks(RunResult<?, ?, ?> run) {
        return run.batches().stream().map(b -> b.operators().stream()
                .map(o -> o.evictionWatermark().toEpochMilli()).toList()).toList();
    }

    @Test
    void after_a_transform_with_state_without_the_overload_the_next_gets_the_watermark_and_no_late_filter() {
        TwsQuery<String, Event, OutEvent> query = PlanProcessors.plainRelay()
                .then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Append()));

        RunResult<String, Event, OutEvent> run = new TwsSimulator<>(query).run(PlanProcessors.storyWithAnOldRow());

        assertThat(evictionWatermarks(run)).allSatisfy(wms -> assertThat(wms.get(1)).isEqualTo(wms.get(0)));
        BatchResult<String, OutEvent, OutEvent> old = run.<String, OutEvent, OutEvent>operator(1).batches().get(8);
        assertThat(old.lateWatermark()).isEqualTo(Instant.ofEpochMilli(55000));
        assertThat(old.droppedLate()).isEmpty();
        // the row at 1000, far behind the late watermark 55000, is delivered, and its timer at 11000 fires at once
        assertThat(old.outputs()).containsExactly(out("b1", 1000, "emit:1000 wm=55000"), out("b", 11000, "timer wm=55000"));
        assertThat(run.operator(1).firedTimers()).extracting(FiredTimer::expiry).extracting(Instant::toEpochMilli)
                .containsExactly(20000L, 22000L, 25000L, 30000L, 34000L, 50000L, 54000L, 11000L);
        assertThat(run.operator(0).droppedLate()).containsExactly(new Event("a2", 18000, "late"));
    }

    @Test
    void after_a_processing_time_operator_the_next_sees_a_watermark_of_zero_and_its_timers_wait() {
        TwsQuery<String, Event, OutEvent> query = ChainProcessors.relay().then(PlanProcessors.processingTimePass())
                .then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Update()));

        RunResult<String, Event, OutEvent> run = new TwsSimulator<>(query).run(PlanProcessors.timedStory());

        assertThat(evictionWatermarks(run)).containsExactly(List.of(0L, 0L, 0L), List.of(15000L, 15000L, 0L),
                List.of(19000L, 19000L, 0L), List.of(35000L, 35000L, 0L), List.of(55000L, 55000L, 0L));
        assertThat(run.operator(2).batches()).allSatisfy(b -> assertThat(b.lateWatermark()).isEqualTo(Instant.EPOCH));
        assertThat(run.operator(2).firedTimers()).isEmpty();
        assertThat(run.operator(0).firedTimers()).extracting(FiredTimer::expiry)
                .containsExactly(Instant.ofEpochMilli(15000), Instant.ofEpochMilli(44000));
        assertThat(run.outputs()).extracting(OutEvent::getWhat).allSatisfy(what -> assertThat(what).endsWith(" wm=0"));
        assertThat(run.batches().get(4).hadInput()).isFalse();
    }

    @Test
    void a_legacy_function_in_the_middle_passes_no_watermark_on() {
        for (TwsQuery.Builder<String, OutEvent, OutEvent> legacy : List.of(PlanProcessors.teamRunning(OutputMode.Update()),
                PlanProcessors.teamTotal())) {
            legacyInTheMiddle(legacy);
        }
    }

    private static void legacyInTheMiddle(TwsQuery.Builder<String, OutEvent, OutEvent> legacy) {
        TwsQuery<String, Event, OutEvent> query = ChainProcessors.relay().then(legacy)
                .then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Update()));

        RunResult<String, Event, OutEvent> run = new TwsSimulator<>(query).run(MultiOperatorQueryTest.story());

        assertThat(run.outputs()).containsExactly(out("a", 12000, "n=2 wm=0"), out("b", 20000, "n=1 wm=0"),
                out("a", 15000, "n=3 wm=0"), out("a", 24000, "n=4 wm=0"), out("c", 40000, "n=1 wm=0"),
                out("a", 60000, "n=5 wm=0"), out("a", 44000, "n=6 wm=0"));
        assertThat(run.operator(1).batches()).extracting(b -> b.evictionWatermark().toEpochMilli())
                .containsExactly(0L, 15000L, 15000L, 19000L, 19000L, 35000L, 35000L, 55000L);
        assertThat(run.operator(2).batches()).allSatisfy(b -> assertThat(b.evictionWatermark()).isEqualTo(Instant.EPOCH));
    }

    @Test
    void two_flat_map_groups_with_states_in_append_mode_run_one_after_the_other() {
        TwsQuery<String, Event, OutEvent> query = ChainProcessors.relay().then(PlanProcessors.teamRunning(OutputMode.Append()))
                .then(PlanProcessors.teamRunning(OutputMode.Append()));

        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(query);
        RunResult<String, Event, OutEvent> run = sim.run(MultiOperatorQueryTest.story());

        // the second counts the first's calls per team: a's six calls, b's one, c's one
        assertThat(run.outputs()).containsExactly(out("a", 12000, "n=1"), out("b", 20000, "n=1"), out("a", 15000, "n=2"),
                out("a", 24000, "n=3"), out("c", 40000, "n=1"), out("a", 60000, "n=4"), out("a", 44000, "n=5"));
        assertThat(sim.<String>state(1).dump().toString()).contains("a", "6");
    }

    @Test
    void an_overload_after_a_transform_with_state_without_it_reads_the_sources_watermark() {
        TwsQuery<String, Event, OutEvent> query = PlanProcessors.plainRelay().then(MultiOperatorQueryTest.pass())
                .then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Update()));

        RunResult<String, Event, OutEvent> run = new TwsSimulator<>(query).run(MultiOperatorQueryTest.story());

        assertThat(evictionWatermarks(run)).allSatisfy(wms -> assertThat(wms).containsOnly(wms.get(0)));
        assertThat(run.operator(2).firedTimers()).hasSize(7);
        assertThat(run.outputs()).contains(out("a1", 60000, "x wm=35000"), out("a", 54000, "timer wm=55000"));
    }

    @Test
    void then_refuses_what_spark_refuses_naming_its_error_class_and_what_to_change() {
        TwsQuery.Builder<String, OutEvent, String> eventTimeTimeout = TwsQuery.flatMapGroupsWithState(
                        new MultiOperatorQueryTest.TeamCount(), OutputMode.Append(), Encoders.LONG(),
                        GroupStateTimeout.EventTimeTimeout())
                .keyBy(e -> e.getKey().substring(0, 1), Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.STRING());
        TwsQuery<String, Event, String> legacyLast = ChainProcessors.relay().then(eventTimeTimeout);
        assertThatThrownBy(() -> legacyLast.then(TwsQuery.builder(StringCount::new)
                        .keyBy(s -> s, Encoders.STRING()).input(Encoders.STRING()).output(Encoders.STRING())))
                .hasMessageStartingWith("[_LEGACY_ERROR_TEMP_3102] Detected pattern of possible 'correctness' issue")
                .hasMessageContaining("must be the query's last operator");
        assertThatThrownBy(() -> PlanProcessors.plainRelay().then(eventTimeTimeout))
                .hasMessageStartingWith("[_LEGACY_ERROR_TEMP_3102] Watermark must be specified")
                .hasMessageContaining("give that operator outputEventTimeColumn(column)");
        assertThatThrownBy(() -> ChainProcessors.relay().then(PlanProcessors.teamRunning(OutputMode.Update()))
                        .then(PlanProcessors.teamRunning(OutputMode.Update())))
                .hasMessageStartingWith("[_LEGACY_ERROR_TEMP_3102] Multiple flatMapGroupsWithStates are not supported")
                .hasMessageContaining("give every flatMapGroupsWithState OutputMode.Append()");
        assertThatThrownBy(() -> ChainProcessors.relay().then(PlanProcessors.teamRunning(OutputMode.Update()))
                        .then(PlanProcessors.teamTotal()))
                .hasMessageStartingWith("[_LEGACY_ERROR_TEMP_3102] Mixing mapGroupsWithStates and flatMapGroupsWithStates")
                .hasMessageContaining("keep one legacy function");
        assertThatThrownBy(() -> ChainProcessors.relay().then(PlanProcessors.teamTotal()).then(PlanProcessors.teamTotal()))
                .hasMessageStartingWith("[_LEGACY_ERROR_TEMP_3102] Multiple mapGroupsWithStates are not supported");
        assertThatThrownBy(() -> ChainProcessors.relay().then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Update())
                        .watermark("outTs", Duration.ofSeconds(1))))
                .hasMessageContaining("[_LEGACY_ERROR_TEMP_3076]").hasMessageContaining("remove it");
    }

    /** Counts strings; never called (the plan is refused). */
    static final class StringCount extends org.apache.spark.sql.streaming.StatefulProcessor<String, String, String> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {}

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                org.apache.spark.sql.streaming.TimerValues timerValues) {
            return scala.collection.Iterator.empty();
        }
    }
}
