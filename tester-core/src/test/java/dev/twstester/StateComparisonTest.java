package dev.twstester;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.twstester.RunDifference.Aspect;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.SnapshotBuilder;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.CheckpointProbe;

import scala.Tuple2;

/**
 * {@link RunComparison#stateDifferences} and {@link SnapshotBuilder}, without Spark: end states
 * compared key by key (values as Spark's bytes, with TTL expirations), and snapshots built from
 * outside data as a checkpoint reader builds them.
 */
class StateComparisonTest {
    private static final RunComparison<Object> SAME = RunComparison.simulatorVsSpark();

    static Instant minute(int m) {
        return Instant.EPOCH.plusSeconds(60L * m);
    }

    static long ms(int minute) {
        return minute(minute).toEpochMilli();
    }

    /** Minute 1: a's value, list, map, pair and a timer; minute 3: more for a and b. */
    static Scenario<String> scenario() {
        return Scenario.<String>builder()
                .batchAt(minute(1), List.of("a,v:x", "a,l:one", "a,m:k1=1", "a,p:5", "a,t:" + ms(20)))
                .batchAt(minute(3), List.of("a,l:two", "b,v:y", "b,m:z=9", "b,t:" + ms(30)))
                .build();
    }

    static TwsSimulator<String, String, String> ran(Fidelity fidelity) {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(CheckpointProbe.query(), fidelity);
        sim.run(scenario());
        return sim;
    }

    static SnapshotBuilder<String> expected() {
        return SnapshotBuilder.of(CheckpointProbe.query(), Fidelity.FULL)
                .value("last", "a", "x", ms(11))
                .listElement("seen", "a", "one", ms(11))
                .listElement("seen", "a", "two", ms(13))
                .mapEntry("tags", "a", "k1", 1L, ms(11))
                .value("pair", "a", new Tuple2<>("a!", 5L), SnapshotBuilder.NO_EXPIRY)
                .value("last", "b", "y", ms(13))
                .mapEntry("tags", "b", "z", 9L, ms(13))
                .timer("a", ms(20))
                .timer("b", ms(30))
                .position(ms(3), 0, 0, 2);
    }

    @Test
    void a_built_snapshot_equals_the_simulators_after_the_same_batches() {
        assertThat(SAME.stateDifferences(ran(Fidelity.FULL).snapshot(), expected().build())).isEmpty();
    }

    @Test
    void fast_and_full_snapshots_compare_by_spark_bytes() {
        assertThat(SAME.stateDifferences(ran(Fidelity.FAST).snapshot(), ran(Fidelity.FULL).snapshot())).isEmpty();
    }

    @Test
    void a_built_snapshot_restores_with_its_expirations_clock_and_batch_id() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(CheckpointProbe.query());
        sim.restore(expected().build());
        assertThat(sim.processingTime()).isEqualTo(minute(3));
        assertThat(sim.nextBatchId()).isEqualTo(2);
        assertThat(sim.state().list("seen", "a")).containsExactly("one", "two");
        assertThat(sim.state().<String, Long>map("tags", "b")).isEqualTo(Map.of("z", 9L));
        assertThat(sim.state().timers("a")).containsExactly(minute(20));

        RunResult<String, String, String> at11 = sim.runBatchAt(minute(11), List.of("c,v:c"));
        assertThat(at11.lastBatch().batchId()).isEqualTo(2);
        assertThat(sim.state().value("last", "a")).isEmpty();   // expired at minute 11
        assertThat(sim.state().list("seen", "a")).containsExactly("two");
        assertThat(sim.state().<Tuple2<String, Long>>value("pair", "a")).contains(new Tuple2<>("a!", 5L));
    }

    @Test
    void each_differing_key_variable_and_timer_is_named_with_both_sides() {
        StateSnapshot sim = ran(Fidelity.FULL).snapshot();
        StateSnapshot other = SnapshotBuilder.of(CheckpointProbe.query(), Fidelity.FULL)
                .value("last", "a", "x", ms(11))
                .listElement("seen", "a", "one", ms(11))
                .mapEntry("tags", "a", "k1", 1L, ms(11))
                .value("pair", "a", new Tuple2<>("a!", 5L), SnapshotBuilder.NO_EXPIRY)
                .value("last", "b", "y", ms(14))
                .mapEntry("tags", "b", "z", 8L, ms(13))
                .timer("a", ms(20))
                .position(ms(3), 0, ms(1), 3)
                .build();

        List<RunDifference> found = SAME.stateDifferences(sim, other);

        assertThat(found).extracting(RunDifference::aspect).containsExactly(Aspect.BATCH_ID,
                Aspect.EVICTION_WATERMARK, Aspect.STATE, Aspect.STATE, Aspect.STATE, Aspect.TIMERS);
        assertThat(found).extracting(RunDifference::key).containsExactly(null, null, "b", "a", "b", "b");
        assertThat(found).extracting(RunDifference::message).containsExactly(
                "end state after batch 1: next batch id differs\n  simulator: 2\n  spark:     3",
                "end state after batch 1: watermark (the next batch's eviction watermark) differs\n"
                        + "  simulator: 1970-01-01T00:00:00Z\n  spark:     1970-01-01T00:01:00Z",
                "end state after batch 1, key b: state variable 'last' differs\n"
                        + "  simulator: y (expires at 1970-01-01T00:13:00Z)\n"
                        + "  spark:     y (expires at 1970-01-01T00:14:00Z)",
                "end state after batch 1, key a: state variable 'seen' differs\n"
                        + "  simulator: [one (expires at 1970-01-01T00:11:00Z), two (expires at 1970-01-01T00:13:00Z)]\n"
                        + "  spark:     [one (expires at 1970-01-01T00:11:00Z)]",
                "end state after batch 1, key b: state variable 'tags' differs\n"
                        + "  simulator: {z=9 (expires at 1970-01-01T00:13:00Z)}\n"
                        + "  spark:     {z=8 (expires at 1970-01-01T00:13:00Z)}",
                "end state after batch 1, key b: registered timers differ\n"
                        + "  simulator: [1970-01-01T00:30:00Z]\n  spark:     (none)");
        assertThatThrownBy(() -> SAME.assertSameState(sim, other))
                .isInstanceOf(AssertionError.class)
                .hasMessage(found.get(0).message() + "\n(5 more differences; stateDifferences(...) lists them all)");
    }

    @Test
    void ignoring_timers_leaves_a_difference_in_registered_timers_only_out() {
        StateSnapshot sim = ran(Fidelity.FULL).snapshot();
        StateSnapshot moreTimers = expected().timer("a", ms(25)).build();

        assertThat(SAME.stateDifferences(sim, moreTimers)).extracting(RunDifference::message).containsExactly(
                "end state after batch 1, key a: registered timers differ\n"
                        + "  simulator: [1970-01-01T00:20:00Z]\n"
                        + "  spark:     [1970-01-01T00:20:00Z, 1970-01-01T00:25:00Z]");
        RunComparison<Object> noTimers = SAME.ignoring(Aspect.TIMERS);
        assertThat(noTimers.stateDifferences(sim, moreTimers)).isEmpty();
        noTimers.assertSameState(sim, moreTimers);
        // only timers are left out: a state difference is still one
        assertThat(noTimers.stateDifferences(sim, expected().timer("a", ms(25)).value("last", "b", "z", ms(13)).build()))
                .extracting(RunDifference::aspect, RunDifference::key).containsExactly(tuple(Aspect.STATE, "b"));
    }

    @Test
    void ignoring_state_leaves_a_difference_in_state_variables_only_out() {
        StateSnapshot sim = ran(Fidelity.FULL).snapshot();
        StateSnapshot moreState = expected().listElement("seen", "b", "x", ms(13)).build();

        assertThat(SAME.stateDifferences(sim, moreState)).extracting(RunDifference::message).containsExactly(
                "end state after batch 1, key b: state variable 'seen' differs\n"
                        + "  simulator: (none)\n"
                        + "  spark:     [x (expires at 1970-01-01T00:13:00Z)]");
        assertThatThrownBy(() -> SAME.assertSameState(sim, moreState)).isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("end state after batch 1, key b: state variable 'seen' differs");
        RunComparison<Object> noState = SAME.ignoring(Aspect.STATE);
        assertThat(noState.stateDifferences(sim, moreState)).isEmpty();
        noState.assertSameState(sim, moreState);
        assertThat(noState.stateDifferences(sim, expected().listElement("seen", "b", "x", ms(13)).timer("c", ms(9))
                .build())).extracting(RunDifference::aspect, RunDifference::key).containsExactly(tuple(Aspect.TIMERS, "c"));
    }

    @Test
    void ignoring_the_batch_id_and_watermarks_applies_to_the_end_state_too() {
        StateSnapshot sim = ran(Fidelity.FULL).snapshot();
        StateSnapshot later = expected().position(ms(3), ms(1), ms(2), 3).build();

        assertThat(SAME.stateDifferences(sim, later)).extracting(RunDifference::aspect).containsExactly(
                Aspect.BATCH_ID, Aspect.EVICTION_WATERMARK, Aspect.LATE_WATERMARK);
        assertThat(SAME.ignoring(Aspect.BATCH_ID, Aspect.LATE_WATERMARK).stateDifferences(sim, later))
                .extracting(RunDifference::aspect).containsExactly(Aspect.EVICTION_WATERMARK);
        SAME.ignoring(Aspect.BATCH_ID, Aspect.EVICTION_WATERMARK, Aspect.LATE_WATERMARK).assertSameState(sim, later);
    }

    @Test
    void the_builder_names_what_the_processor_declares() {
        SnapshotBuilder<String> b = SnapshotBuilder.of(CheckpointProbe.query(), Fidelity.FULL);
        assertThat(b.declared()).extracting(SnapshotBuilder.Declared::name, SnapshotBuilder.Declared::kind,
                SnapshotBuilder.Declared::ttlMs).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("last", "value", Duration.ofMinutes(10).toMillis()),
                        org.assertj.core.groups.Tuple.tuple("seen", "list", Duration.ofMinutes(10).toMillis()),
                        org.assertj.core.groups.Tuple.tuple("tags", "map", Duration.ofMinutes(10).toMillis()),
                        org.assertj.core.groups.Tuple.tuple("pair", "value", 0L));
        assertThatThrownBy(() -> b.value("count", "a", 1L, SnapshotBuilder.NO_EXPIRY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the query's processor declares no state variable 'count'; it declares [last, seen, tags, pair]");
        assertThatThrownBy(() -> b.value("seen", "a", "x", SnapshotBuilder.NO_EXPIRY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("state variable 'seen' is a list state in the query's processor, not a value state");
    }
}
