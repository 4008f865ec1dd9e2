package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.spark.api.java.function.MapGroupsWithStateFunction;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.ChainProcessors;
import dev.twstester.sim.Event;
import dev.twstester.sim.MultiOperatorQueryTest;
import dev.twstester.sim.OutEvent;
import dev.twstester.sim.PlanProcessors;
import dev.twstester.sim.TwsSimulator;

import scala.jdk.javaapi.CollectionConverters;

/**
 * Queries of three {@code transformWithState} operators, and a legacy function after a
 * {@code transformWithState}, on live Spark against the simulator: batch by batch, every operator's
 * own view ({@link RunResult#operator(int)}: its input, late rows, outputs with their partitions,
 * fired timers and metrics, which pin that Spark lists the state operators of the progress from the
 * sink back to the source), the query's batches, and the end state of every operator read from the
 * checkpoint ({@link CheckpointState}).
 */
@Tag("live")
class LiveMultiOperatorTest {
    private static final RunComparison<Object> SAME = RunComparison.simulatorVsSpark();

    private static Instant ms(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    /** Every operator's view and the query's batches agree. */
    private static void assertSame(RunResult<?, ?, ?> sim, RunResult<?, ?, ?> live, int operators) {
        for (int i = 0; i < operators; i++) {
            SAME.assertSame(sim.operator(i), live.operator(i));
        }
        SAME.assertSame(sim, live);
    }

    /**
     * Runs {@code query} on {@link MultiOperatorQueryTest#story()} in the simulator and live,
     * requires the same batches of every operator and the same end state, and returns the live run.
     */
    private static <O> LiveOutcome<String, Event, O> agreeOnStory(TwsQuery<String, Event, O> query) {
        return agree(query, MultiOperatorQueryTest.story());
    }

    /**
     * Runs {@code query} on {@code scenario} in the simulator and live, requires the same batches of
     * every operator and the same end state, and returns the live run.
     */
    static <O> LiveOutcome<String, Event, O> agree(TwsQuery<String, Event, O> query, Scenario<Event> scenario) {
        TwsSimulator<String, Event, O> sim = new TwsSimulator<>(query);
        RunResult<String, Event, O> simRun = sim.run(scenario);
        LiveOutcome<String, Event, O> live = LiveRunner.of(query).runWithEndState(scenario);
        assertSame(simRun, live.run(), query.operators().size());
        assertThat(SAME.stateDifferences(sim.snapshot(), live.endState())).isEmpty();
        assertThat(live.endState().operatorCount()).isEqualTo(query.operators().size());
        assertThat(live.run().outputs()).isNotEmpty().containsExactlyElementsOf(simRun.outputs());
        return live;
    }

    /**
     * A middle operator with timers: passes each row on and counts it in "seen"; a row that is not an
     * echo registers an event-time timer 2 s after its event time, which emits an "echo" row at its expiry.
     */
    public static class Echo extends StatefulProcessor<String, OutEvent, OutEvent> {
        private transient ValueState<Long> seen;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            seen = getHandle().getValueState("seen", Encoders.LONG(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleInputRows(String key, scala.collection.Iterator<OutEvent> rows,
                TimerValues timerValues) {
            List<OutEvent> out = new ArrayList<>();
            while (rows.hasNext()) {
                OutEvent row = rows.next();
                seen.update(seen.exists() ? seen.get() + 1 : 1L);
                if (!row.getWhat().equals("echo")) {
                    getHandle().registerTimer(row.getOutTs().getTime() + 2000);
                }
                out.add(row);
            }
            return CollectionConverters.asScala(out.iterator());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo info) {
            return CollectionConverters.asScala(List.of(new OutEvent(key, info.getExpiryTimeInMs(), "echo")).iterator());
        }
    }

    /** Relay (timers on "timer+N"), then Echo (a timer per row), then Tally (a timer per row), all in EventTime mode. */
    static TwsQuery<String, Event, OutEvent> echoing() {
        return ChainProcessors.relay()
                .then(TwsQuery.<String, OutEvent, OutEvent>builder(Echo::new)
                        .keyBy(OutEvent::getKey, Encoders.STRING())
                        .input(Encoders.bean(OutEvent.class))
                        .output(Encoders.bean(OutEvent.class))
                        .outputEventTimeColumn("outTs"))
                .then(ChainProcessors.tally(TimeMode.EventTime()));
    }

    @Test
    void three_operators_run_batch_by_batch_as_the_simulator_runs_them_and_end_in_its_state() {
        LiveOutcome<String, Event, OutEvent> live = agreeOnStory(MultiOperatorQueryTest.three());

        assertThat(live.endState().variableNames(1)).containsExactly("seen");
        // each operator's own progress entry: Relay registered 1 timer in batch 0, Pass none, Tally 3
        BatchResult<String, Event, OutEvent> first = live.run().batches().get(0);
        assertThat(first.operators()).extracting(b -> b.metric("numRegisteredTimers")).containsExactly(1L, 0L, 3L);
        assertThat(first.metric("numRegisteredTimers")).isEqualTo(1);
        // the middle operator passes the first one's rows on, and the last one receives them
        for (BatchResult<String, Event, OutEvent> batch : live.run().batches()) {
            assertThat(batch.operators().get(1).input()).containsExactlyElementsOf((List) batch.operators().get(0).outputs());
            assertThat(batch.operators().get(2).input()).containsExactlyElementsOf((List) batch.operators().get(1).outputs());
        }
    }

    @Test
    void timers_fire_in_all_three_operators_across_a_restart_with_a_new_version_of_each() {
        TwsQuery<String, Event, OutEvent> query = echoing().withShufflePartitions(2);
        Scenario<Event> before = ChainProcessors.firstPart();
        Scenario<Event> after = Scenario.<Event>builder()
                .addData(List.of(new Event("c1", 40000, "timer+3"), new Event("a2", 18000, "late")))
                .batch(List.of(new Event("a1", 60000, "x")))
                .build();

        RunResult<String, Event, OutEvent> live = LiveRunner.of(query).runThenRestartWith(before, echoing(), after);

        TwsSimulator<String, Event, OutEvent> v1 = new TwsSimulator<>(query);
        v1.run(before);
        TwsSimulator<String, Event, OutEvent> v2 = v1.restartWith(echoing());
        v2.run(after);
        RunResult<String, Event, OutEvent> sim = v2.history();
        assertSame(sim, live, 3);
        for (int i = 0; i < 3; i++) {
            assertThat(live.operator(i).firedTimers()).as("operator %d's fired timers", i).isNotEmpty();
        }
        // the first operator's timer a1@15000 fires in batch 1; its "timer" row is echoed at 17000
        assertThat(live.operator(0).batches().get(1).firedTimers()).containsExactly(new FiredTimer<>("a1", ms(15000)));
        assertThat(live.<String, OutEvent, OutEvent>operator(1).firedTimers()).contains(new FiredTimer<>("a1", ms(17000)));
        assertThat(live.outputs()).contains(new OutEvent("a", 27000, "count=8 from a1"));
        assertThat(live.operator(0).droppedLate()).containsExactly(new Event("a2", 18000, "late"));
    }

    @Test
    void a_legacy_flat_map_groups_with_state_after_a_transform_with_state_times_out_on_the_shared_watermark() {
        TwsQuery<String, Event, String> query = ChainProcessors.relay().then(TwsQuery.flatMapGroupsWithState(
                        new MultiOperatorQueryTest.TeamCount(), OutputMode.Append(), Encoders.LONG(),
                        GroupStateTimeout.EventTimeTimeout())
                .keyBy(e -> e.getKey().substring(0, 1), Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.STRING()));
        LiveOutcome<String, Event, String> live = agreeOnStory(query);

        assertThat(live.run().outputs()).containsExactly("a: 4 rows", "b: 1 rows", "c: 1 rows");
        assertThat(live.run().operator(1).firedTimers()).extracting(FiredTimer::key).containsExactly("a", "b", "c");
    }

    /** Counts a team's rows per call and returns "team: N"; on a timeout, "team: N (timed out)", forgetting the team. */
    public static final class TeamTotal implements MapGroupsWithStateFunction<String, OutEvent, Long, String> {
        @Override
        public String call(String team, Iterator<OutEvent> rows, GroupState<Long> state) {
            if (state.hasTimedOut()) {
                long count = state.get();
                state.remove();
                return team + ": " + count + " (timed out)";
            }
            long[] counted = PlanProcessors.countRows(rows, state);
            state.setTimeoutTimestamp(Math.max(counted[1], state.getCurrentWatermarkMs()) + 10_000);
            return team + ": " + counted[0];
        }
    }

    @Test
    void spark_accepts_a_map_groups_with_state_after_a_transform_with_state_in_update_mode() {
        TwsQuery<String, Event, String> query = ChainProcessors.relay().then(TwsQuery.mapGroupsWithState(
                        new TeamTotal(), Encoders.LONG(), GroupStateTimeout.EventTimeTimeout())
                .keyBy(e -> e.getKey().substring(0, 1), Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.STRING()));
        LiveOutcome<String, Event, String> live = agreeOnStory(query);

        assertThat(live.run().outputs()).contains("a: 3", "b: 1", "a: 4 (timed out)", "b: 1 (timed out)");
    }
}
