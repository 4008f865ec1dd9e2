package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.spark.api.java.function.FlatMapGroupsWithStateFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.GroupState;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

import scala.jdk.javaapi.CollectionConverters;

/**
 * Queries of three operators and a legacy function after a {@code transformWithState}: every batch
 * runs through all of them, and each capability of the simulator works whatever the operator count.
 * A middle operator that passes every row on unchanged must leave the query's outputs, and the last
 * operator's view, exactly as the two-operator query has them.
 */
public class MultiOperatorQueryTest {
    private static final RunComparison<Object> SAME = RunComparison.between("two operators", "three operators");

    /** A middle operator: passes each row on unchanged (its event time too) and counts rows per user in "seen". */
    public static class Pass extends StatefulProcessor<String, OutEvent, OutEvent> {
        private transient ValueState<Long> seen;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            seen = getHandle().getValueState("seen", Encoders.LONG(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleInputRows(String key, scala.collection.Iterator<OutEvent> rows,
                TimerValues timerValues) {
            List<OutEvent> out = new ArrayList<>();
            rows.foreach(row -> {
                seen.update(seen.exists() ? seen.get() + 1 : 1L);
                return out.add(row);
            });
            return CollectionConverters.asScala(out.iterator());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo info) {
            return scala.collection.Iterator.empty();
        }
    }

    /** {@link Pass} as the middle operator: keyed by user, its output event time column "outTs". */
    public static TwsQuery.Builder<String, OutEvent, OutEvent> pass() {
        return TwsQuery.<String, OutEvent, OutEvent>builder(Pass::new)
                .keyBy(OutEvent::getKey, Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.bean(OutEvent.class))
                .outputEventTimeColumn("outTs");
    }

    /** Relay, then Pass, then Tally in EventTime mode (the simulator and live tests of three operators). */
    public static TwsQuery<String, Event, OutEvent> three() {
        return ChainProcessors.relay().then(pass()).then(ChainProcessors.tally(TimeMode.EventTime()));
    }

    /** The first part of the checkpoint stories, then the rest, in one run. */
    public static Scenario<Event> story() {
        List<Scenario.Step<Event>> steps = new ArrayList<>(ChainProcessors.firstPart().steps());
        steps.addAll(ChainProcessors.restPart().steps());
        return new Scenario<>(steps);
    }

    private static Instant ms(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    @Test
    void a_middle_operator_that_passes_rows_on_leaves_the_query_as_two_operators_run_it() {
        RunResult<String, Event, OutEvent> two = new TwsSimulator<>(ChainProcessors.chain()).run(story());
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(three());
        RunResult<String, Event, OutEvent> three = sim.run(story());

        assertThat(three().operators()).hasSize(3);
        assertThat(three.outputs()).isNotEmpty().containsExactlyElementsOf(two.outputs());
        SAME.assertSame(two.operator(0), three.operator(0));
        SAME.assertSame(two.operator(1), three.operator(2));
        for (BatchResult<String, Event, OutEvent> batch : three.batches()) {
            @SuppressWarnings("unchecked")
            List<BatchResult<Object, Object, Object>> views = (List<BatchResult<Object, Object, Object>>) (List<?>) batch.operators();
            assertThat(views).hasSize(3);
            // the middle operator gets the first one's outputs, in order, and passes them on
            assertThat(views.get(1).input()).containsExactlyElementsOf(views.get(0).outputs());
            assertThat(views.get(1).outputs()).containsExactlyElementsOf(views.get(1).input());
            assertThat(views.get(2).input()).containsExactlyElementsOf(views.get(1).outputs());
            // one batch: the same id, time and watermarks in every operator
            for (BatchResult<Object, Object, Object> view : views) {
                assertThat(view.batchId()).isEqualTo(batch.batchId());
                assertThat(view.lateWatermark()).isEqualTo(batch.lateWatermark());
                assertThat(view.evictionWatermark()).isEqualTo(batch.evictionWatermark());
            }
            // the query's batch: the source's rows, the first operator's timers, the last one's outputs
            assertThat(batch.input()).isEqualTo((List<?>) views.get(0).input());
            assertThat(batch.firedTimers()).isEqualTo((List<?>) views.get(0).firedTimers());
            assertThat(batch.outputs()).isEqualTo((List<?>) views.get(2).outputs());
        }
        assertThat(sim.<String>state(1).value("seen", "a1")).contains(5L); // 3 rows, 2 timer outputs
        assertThat(sim.<String>state(2).value("count", "a")).contains(6L);
        assertThat(sim.encoderPaths()).containsKeys("key", "state n", "operator 1 state seen", "operator 2 state count");
    }

    @Test
    void every_simulator_option_runs_a_query_of_three_operators() {
        RunResult<String, Event, OutEvent> plain = new TwsSimulator<>(three()).run(story());

        RunResult<String, Event, OutEvent> retried = TwsSimulator.builder(three()).checkRetries().build().run(story());
        SAME.assertSame(plain, retried);

        TwsSimulator<String, Event, OutEvent> bounded = TwsSimulator.builder(three()).keepHistory(false).build();
        RunResult<String, Event, OutEvent> unkept = bounded.run(story());
        assertThat(bounded.history().isEmpty()).isTrue();
        assertThat(unkept.outputs()).containsExactlyElementsOf(plain.outputs());

        TwsSimulator<String, Event, OutEvent> oneKey = new TwsSimulator<>(three());
        RunResult<String, Event, OutEvent> a1 = oneKey.test("a1", List.of(new Event("a1", 10000, "x"),
                new Event("a1", 11000, "x")));
        assertThat(a1.operator(1).batches().get(0).input()).hasSize(2);
        assertThatThrownBy(() -> oneKey.test("a1", List.of(new Event("b1", 12000, "x"))))
                .hasMessageContaining("row " + new Event("b1", 12000, "x") + " has key b1, not a1");

        TwsSimulator<String, Event, OutEvent> realTime = TwsSimulator.builder(three()).realTimeMode().build();
        assertThat(realTime.run(story()).outputs()).containsExactlyElementsOf(plain.outputs());
    }

    @Test
    void a_new_version_of_any_operator_deploys_on_the_state_of_all_three() {
        TwsSimulator<String, Event, OutEvent> v1 = new TwsSimulator<>(three());
        v1.run(ChainProcessors.firstPart());
        StateSnapshot before = v1.snapshot();

        // the same query again: every operator reads its own state back
        TwsSimulator<String, Event, OutEvent> v2 = v1.restartWith(three());
        assertThat(v1.isRunning()).isFalse();
        assertThat(RunComparison.between("v1", "v2").stateDifferences(before, v2.snapshot())).isEmpty();
        assertThat(v2.<String>state(1).value("seen", "a1")).contains(3L); // 2 rows, 1 timer output
        assertThat(v2.history().batches()).hasSize(4);

        // a middle operator that asks for another kind of state is refused as Spark refuses it
        TwsQuery<String, Event, OutEvent> renamed = ChainProcessors.relay()
                .then(TwsQuery.<String, OutEvent, OutEvent>builder(ListPass::new)
                        .keyBy(OutEvent::getKey, Encoders.STRING())
                        .input(Encoders.bean(OutEvent.class))
                        .output(Encoders.bean(OutEvent.class))
                        .outputEventTimeColumn("outTs"))
                .then(ChainProcessors.tally(TimeMode.EventTime()));
        // (accepted at the restart, failed at the first data batch)
        TwsSimulator<String, Event, OutEvent> refused = v2.restartWith(renamed);
        assertThatThrownBy(() -> refused.runBatch(new Event("a1", 30000, "x")))
                .hasMessageContaining("STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE");

        // a plan of another operator count is not a new version
        assertThatThrownBy(() -> v2.restartWith(ChainProcessors.chain()))
                .hasMessage("the new version has 2 stateful operator(s), the checkpoint 3; twstester deploys a new "
                        + "version of each operator, not a new plan");
    }

    /** The middle operator again, with "seen" as list state. */
    public static class ListPass extends Pass {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            getHandle().getListState("seen", Encoders.LONG(), TTLConfig.NONE());
        }
    }

    @Test
    void a_snapshot_of_three_operators_restores_them_all() {
        TwsSimulator<String, Event, OutEvent> first = new TwsSimulator<>(three());
        first.run(ChainProcessors.firstPart());
        StateSnapshot checkpoint = first.snapshot();
        RunResult<String, Event, OutEvent> rest = first.run(ChainProcessors.restPart());

        TwsSimulator<String, Event, OutEvent> restored = new TwsSimulator<>(three());
        restored.restore(checkpoint);

        assertThat(checkpoint.operatorCount()).isEqualTo(3);
        assertThat(checkpoint.variableNames(1)).containsExactly("seen");
        SAME.assertSame(rest, restored.run(ChainProcessors.restPart()));
    }

    /**
     * Counts the rows per team (the user's first letter) and, when the watermark passes 10 s after
     * the later of the last row's event time and the watermark, emits "team: N rows" and forgets the team.
     */
    public static final class TeamCount implements FlatMapGroupsWithStateFunction<String, OutEvent, Long, String> {
        @Override
        public Iterator<String> call(String team, Iterator<OutEvent> rows, GroupState<Long> state) {
            if (state.hasTimedOut()) {
                String out = team + ": " + state.get() + " rows";
                state.remove();
                return List.of(out).iterator();
            }
            long[] counted = PlanProcessors.countRows(rows, state);
            state.setTimeoutTimestamp(Math.max(counted[1], state.getCurrentWatermarkMs()) + 10_000);
            return List.<String>of().iterator();
        }
    }

    @Test
    void a_legacy_function_after_a_transform_with_state_times_out_on_the_shared_watermark() {
        TwsQuery<String, Event, String> query = ChainProcessors.relay().then(TwsQuery.flatMapGroupsWithState(
                        new TeamCount(), OutputMode.Append(), Encoders.LONG(), GroupStateTimeout.EventTimeTimeout())
                .keyBy(e -> e.getKey().substring(0, 1), Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.STRING()));
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(query);

        RunResult<String, Event, String> run = sim.run(story());

        // team a: a1 at 10000, a2 at 12000, a1's timer output at 15000, a1 at 24000 (timeout 34000);
        // b1 at 20000 (timeout 30000); both time out at watermark 35000, in key order; c1 at 40000
        // (timeout 50000) at watermark 55000, when a has new rows and no timeout
        assertThat(run.outputs()).containsExactly("a: 4 rows", "b: 1 rows", "c: 1 rows");
        assertThat(sim.<String>state(1).value(GroupStateProcessor.STATE_VARIABLE, "c")).isEmpty();
        assertThat(sim.<String>state(1).value(GroupStateProcessor.STATE_VARIABLE, "a")).contains(2L);
        assertThat(run.operator(0).firedTimers()).contains(new FiredTimer<>("a1", ms(15000)));
        assertThat(run.batches()).allSatisfy(b -> assertThat(b.operators().get(1).metrics())
                .containsOnlyKeys("numRemovedStateRows", "numRowsDroppedByWatermark", "numUpdatedStateRows"));
    }
}
