package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.property.GenScenario;
import dev.twstester.property.Property;
import dev.twstester.sim.Event;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.LiveGroupsWithStateGeneratedTest.Case;

/**
 * What {@link LiveGroupsWithStateGeneratedTest} compares live reaches, counted on the simulator
 * (no Spark) over the 8 tries of base seeds 0 and 1 per query: keys that time out (more than one
 * in a batch), timed-out calls that set a new timeout, late rows (and, without a timeout, rows at
 * or before the late watermark that are kept), no-data batches, restarts and 2 partitions.
 */
class GroupsWithStateCoverageTest {
    private static final List<Long> SEEDS = seeds();

    private static List<Long> seeds() {
        List<Long> seeds = new java.util.ArrayList<>(Property.trySeeds(0, 8));
        seeds.addAll(Property.trySeeds(1, 8));
        return seeds;
    }

    /** Counts over one case's scenarios. */
    private record Counts(int scenarios, int withTimeouts, int batchesWithSeveralTimeouts, int rearmed, int lateRows,
            int atOrBeforeLateWatermark, int noDataBatches, int failed, int restarts, int twoPartitions) {}

    private static Counts count(Case c) {
        int withTimeouts = 0;
        int several = 0;
        int rearmed = 0;
        int late = 0;
        int atOrBefore = 0;
        int noData = 0;
        int failed = 0;
        int restarts = 0;
        int two = 0;
        Property property = Property.forAll(c.fullGenerator()).shufflePartitions(1, 2);
        for (long seed : SEEDS) {
            GenScenario gen = property.scenario(seed);
            restarts += gen.restartCount() > 0 ? 1 : 0;
            two += gen.shufflePartitions().orElse(1) == 2 ? 1 : 0;
            TwsSimulator<String, Event, String> sim = new TwsSimulator<>(gen.applyTo(c.query()));
            try {
                sim.run(gen.toScenario((key, ms, variant) -> new Event(key, ms, c.commands()[variant])));
            } catch (RuntimeException e) {
                failed++;
            }
            RunResult<String, Event, String> run = sim.history();
            withTimeouts += run.firedTimers().isEmpty() ? 0 : 1;
            for (BatchResult<String, Event, String> b : run.batches()) {
                several += b.firedTimers().size() > 1 ? 1 : 0;
                rearmed += (int) b.outputs().stream().filter(o -> o.startsWith("rearm timed out")).count();
                late += b.droppedLate().size();
                long lateMs = b.lateWatermark().toEpochMilli();
                atOrBefore += (int) b.input().stream().filter(e -> e.getTs().getTime() <= lateMs).count();
                noData += b.hadInput() ? 0 : 1;
            }
        }
        Counts counts = new Counts(SEEDS.size(), withTimeouts, several, rearmed, late, atOrBefore, noData, failed, restarts, two);
        System.out.println(c.query().groupsWithState().orElseThrow() + ": " + counts);
        return counts;
    }

    @Test
    void processing_time_scenarios_time_out_keys_rearm_them_and_restart() {
        Counts n = count(LiveGroupsWithStateGeneratedTest.processingTimeTimeout());
        assertThat(n.withTimeouts()).as("%s", n).isGreaterThanOrEqualTo(6);
        assertThat(n.batchesWithSeveralTimeouts()).as("%s", n).isPositive();
        assertThat(n.rearmed()).as("%s", n).isPositive();
        assertThat(n.noDataBatches()).as("%s", n).isPositive();
        assertThat(n.restarts()).as("%s", n).isPositive();
        assertThat(n.twoPartitions()).as("%s", n).isPositive();
    }

    @Test
    void event_time_scenarios_time_out_keys_and_drop_late_rows() {
        Counts n = count(LiveGroupsWithStateGeneratedTest.eventTimeTimeoutAppend());
        assertThat(n.withTimeouts()).as("%s", n).isGreaterThanOrEqualTo(4);
        assertThat(n.lateRows()).as("%s", n).isPositive();
        assertThat(n.noDataBatches()).as("%s", n).isPositive();
        assertThat(n.restarts()).as("%s", n).isPositive();
    }

    @Test
    void scenarios_without_timeout_keep_late_rows_and_run_no_no_data_batch() {
        Counts n = count(LiveGroupsWithStateGeneratedTest.mapWithoutTimeoutOnAWatermarkedInput());
        assertThat(n.withTimeouts()).as("%s", n).isZero();
        assertThat(n.atOrBeforeLateWatermark()).as("rows an EventTimeTimeout would drop: %s", n).isPositive();
        assertThat(n.lateRows()).as("%s", n).isZero();
        assertThat(n.noDataBatches()).as("%s", n).isZero();
        assertThat(n.failed()).as("%s", n).isZero();
    }

    @Test
    void initial_state_scenarios_call_keys_with_only_initial_state_and_time_them_out() {
        Case c = LiveGroupsWithStateGeneratedTest.processingTimeTimeoutWithInitialState();
        Property property = Property.forAll(c.fullGenerator()).shufflePartitions(1, 2);
        int initialOnlyCalled = 0;
        int initialTimedOut = 0;
        for (long seed : SEEDS) {
            GenScenario gen = property.scenario(seed);
            TwsSimulator<String, Event, String> sim = new TwsSimulator<>(gen.applyTo(c.query()));
            sim.run(gen.toScenario((key, ms, variant) -> new Event(key, ms, c.commands()[variant])));
            List<String> outputs = sim.history().outputs();
            initialOnlyCalled += outputs.contains("z=9") ? 1 : 0;
            initialTimedOut += outputs.contains("rearm timed out 1") ? 1 : 0;
        }
        System.out.println("with initial state: z called in " + initialOnlyCalled + ", rearm's initial state timed out in "
                + initialTimedOut + " of " + SEEDS.size());
        assertThat(initialOnlyCalled).isEqualTo(SEEDS.size());
        assertThat(initialTimedOut).isPositive();
    }
}
