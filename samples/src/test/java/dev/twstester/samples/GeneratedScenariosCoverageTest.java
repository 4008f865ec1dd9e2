package dev.twstester.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.TreeSet;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.property.GenScenario;
import dev.twstester.property.Property;
import dev.twstester.samples.GeneratedScenariosTest.Sample;
import dev.twstester.sim.TwsSimulator;

/**
 * What {@link GeneratedScenariosTest} compares live reaches, counted on the simulator (no Spark)
 * for the tries of two base seeds: scenarios with a trigger interval above zero, ticks exactly on
 * a trigger time, before the next one (nothing runs) and past several, idle ticks, no-data batches
 * at a later trigger, stops with a no-data batch pending, starts that read rows added while
 * stopped, and 2 and 5 shuffle partitions.
 */
class GeneratedScenariosCoverageTest {
    private static final List<Long> SEEDS = seeds();

    private static List<Long> seeds() {
        List<Long> seeds = new java.util.ArrayList<>(Property.trySeeds(0, Property.DEFAULT_TRIES));
        seeds.addAll(Property.trySeeds(1, Property.DEFAULT_TRIES));
        return seeds;
    }

    /** Counts over the scenarios of one or more samples. */
    private static final class Counts {
        int scenarios;
        int triggered;
        int onTriggerTime;
        int beforeNextTrigger;
        int pastSeveral;
        int idleTicks;
        int noDataAtLaterTrigger;
        int stopsWithNoDataPending;
        int startsReadingRowsAddedWhileStopped;
        final TreeSet<Integer> partitions = new TreeSet<>();

        @Override
        public String toString() {
            return scenarios + " scenarios, " + triggered + " with an interval above 0; ticks: " + onTriggerTime
                    + " on a trigger time, " + beforeNextTrigger + " before the next one, " + pastSeveral
                    + " past several, " + idleTicks + " idle; " + noDataAtLaterTrigger + " no-data batches at a later"
                    + " trigger; " + stopsWithNoDataPending + " stops with a no-data batch pending; "
                    + startsReadingRowsAddedWhileStopped + " starts reading rows added while stopped; partitions "
                    + partitions;
        }
    }

    private static <K, I, O> Counts count(Sample<K, I, O> sample) {
        Counts c = new Counts();
        for (long seed : SEEDS) {
            GenScenario generated = sample.scenario(seed);
            TwsQuery<K, I, O> query = generated.applyTo(sample.query());
            c.scenarios++;
            c.triggered += query.triggerIntervalMs() > 0 ? 1 : 0;
            c.partitions.add(query.shufflePartitions());
            StepCounter<K, I, O> counter = new StepCounter<>(new TwsSimulator<>(query), c);
            generated.toScenario(sample.events()).steps().forEach(step -> step.applyTo(counter));
        }
        return c;
    }

    /** Runs each step on the simulator, counting the trigger situations it reaches. */
    private static final class StepCounter<K, I, O> implements Scenario.StepTarget<I, RunResult<K, I, O>> {
        private final TwsSimulator<K, I, O> sim;
        private final long interval;
        private final Counts c;
        private boolean addedWhileStopped;

        StepCounter(TwsSimulator<K, I, O> sim, Counts c) {
            this.sim = sim;
            this.interval = sim.query().triggerIntervalMs();
            this.c = c;
        }

        @Override
        public RunResult<K, I, O> batch(List<I> rows, Instant at) {
            return at == null ? sim.runBatch(rows) : sim.runBatchAt(at, rows);
        }

        @Override
        public RunResult<K, I, O> addData(List<I> rows) {
            addedWhileStopped |= !sim.isRunning();
            return sim.addData(rows);
        }

        @Override
        public RunResult<K, I, O> tick(Instant to) {
            long next = sim.nextTriggerTime().toEpochMilli();
            boolean running = sim.isRunning();
            RunResult<K, I, O> ran = sim.setProcessingTime(to);
            if (running && interval > 0) {
                long t = to.toEpochMilli();
                c.onTriggerTime += t % interval == 0 && t >= next ? 1 : 0;
                c.beforeNextTrigger += t < next ? 1 : 0;
                c.pastSeveral += t >= next + interval ? 1 : 0;
                c.idleTicks += ran.batches().isEmpty() ? 1 : 0;
                c.noDataAtLaterTrigger += ran.batches().stream().anyMatch(b -> !b.hadInput()) ? 1 : 0;
            }
            return ran;
        }

        @Override
        public RunResult<K, I, O> stop() {
            List<BatchResult<K, I, O>> all = sim.history().batches();
            BatchResult<K, I, O> last = all.isEmpty() ? null : all.get(all.size() - 1);
            boolean eventTime = sim.query().timeMode().equals(TimeMode.EventTime());
            if (interval > 0 && eventTime && last != null && last.hadInput()
                    && sim.watermark().isAfter(last.evictionWatermark())) {
                c.stopsWithNoDataPending++;
            }
            addedWhileStopped = false;
            sim.stop();
            return new RunResult<>(List.of());
        }

        @Override
        public RunResult<K, I, O> start() {
            RunResult<K, I, O> ran = sim.start();
            if (addedWhileStopped && !ran.batches().isEmpty()) {
                c.startsReadingRowsAddedWhileStopped++;
            }
            return ran;
        }

        @Override
        public RunResult<K, I, O> deploy(String version, TwsQuery<?, I, ?> query) {
            throw new AssertionError("the property engine generates no deploy step, but gave " + version);
        }
    }

    @Test
    void the_generated_scenarios_reach_every_trigger_situation() {
        Counts cart = count(GeneratedScenariosTest.cartWatch());
        Counts counts = count(GeneratedScenariosTest.runningCount());
        Counts fraud = count(GeneratedScenariosTest.fraudSessions());
        Counts ttl = count(GeneratedScenariosTest.ttlSessions());
        Counts migration = count(GeneratedScenariosTest.migrationFromInitialState());
        System.out.println("cart_watch: " + cart + "\nrunning_count: " + counts + "\nfraud_sessions: " + fraud
                + "\nttl_sessions: " + ttl + "\nmigration_from_initial_state: " + migration);

        for (Counts c : List.of(cart, counts, fraud, ttl, migration)) {
            assertThat(c.triggered).as(c.toString()).isBetween(c.scenarios / 4, c.scenarios * 9 / 10);
            assertThat(c.onTriggerTime).as(c.toString()).isPositive();
            assertThat(c.pastSeveral).as(c.toString()).isPositive();
        }
        for (Counts c : List.of(cart, counts, migration)) {
            // EventTime and None mode: ticks between trigger times and ticks with nothing to run
            assertThat(c.beforeNextTrigger).as(c.toString()).isPositive();
            assertThat(c.idleTicks).as(c.toString()).isPositive();
        }
        // a watermark advance's no-data batch at a later trigger, and stops while it is pending
        assertThat(cart.noDataAtLaterTrigger).as(cart.toString()).isPositive();
        assertThat(cart.stopsWithNoDataPending).as(cart.toString()).isPositive();
        // in ProcessingTime mode every trigger after the first batch runs one: no-data batches at ticks
        assertThat(fraud.noDataAtLaterTrigger + ttl.noDataAtLaterTrigger).isPositive();
        assertThat(cart.startsReadingRowsAddedWhileStopped + counts.startsReadingRowsAddedWhileStopped
                + fraud.startsReadingRowsAddedWhileStopped + ttl.startsReadingRowsAddedWhileStopped
                + migration.startsReadingRowsAddedWhileStopped).isGreaterThan(5);
        assertThat(counts.partitions).containsExactly(2, 3, 4, 5);
        assertThat(cart.partitions).containsExactly(1, 2);
    }
}
