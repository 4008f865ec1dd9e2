package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.FiredTimer;
import dev.twstester.RunComparison;

/**
 * {@link TwsSimulator#snapshot()} and {@link TwsSimulator#restore} of two operators: a query restored from a
 * snapshot runs the rest of a run as the chain that took it would after a restart (and, with no
 * no-data batch pending, as the uninterrupted run), and snapshots of another chain or of two
 * points of a run are refused with what to do.
 */
class ChainSnapshotTest {
    private static final RunComparison<Object> SAME = RunComparison.between("uninterrupted", "restored");

    private static Instant ms(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static OutEvent out(String key, long at, String what) {
        return new OutEvent(key, at, what);
    }

    private static void assertSame(RunResult<?, ?, ?> expected, RunResult<?, ?, ?> actual) {
        SAME.assertSame(expected.operator(0), actual.operator(0));
        SAME.assertSame(expected.operator(1), actual.operator(1));
    }

    private static void assertSameState(StateSnapshot expected, StateSnapshot actual) {
        assertThat(SAME.stateDifferences(expected, actual)).isEmpty();
        assertThat(actual.processingTime()).isEqualTo(expected.processingTime());
    }

    @Test
    void a_chain_restored_from_a_snapshot_runs_the_rest_as_the_uninterrupted_chain() {
        TwsSimulator<String, Event, OutEvent> uninterrupted = new TwsSimulator<>(ChainProcessors.chain());
        RunResult<String, Event, OutEvent> first = uninterrupted.run(ChainProcessors.firstPart());
        StateSnapshot checkpoint = uninterrupted.snapshot();
        RunResult<String, Event, OutEvent> rest = uninterrupted.run(ChainProcessors.restPart());

        // one position for the query: batches 0 to 3 ran (two data batches, each with its no-data batch)
        assertThat(first.operator(0).batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L);
        assertThat(checkpoint.nextBatchId()).isEqualTo(4);
        assertThat(checkpoint.watermark()).isEqualTo(ms(19000));
        assertThat(checkpoint.processingTime()).isEqualTo(Instant.EPOCH);
        assertThat(checkpoint.operatorCount()).isEqualTo(2);
        assertThat(checkpoint.variableNames(0)).containsExactly("n");
        assertThat(checkpoint.variableNames(1)).containsExactly("count", "last");

        TwsSimulator<String, Event, OutEvent> restored = new TwsSimulator<>(ChainProcessors.chain());
        RunResult<String, Event, OutEvent> started = restored.restore(checkpoint);

        assertThat(started.isEmpty()).isTrue(); // no rows wait: a restarted query runs no batch before new data
        assertThat(restored.nextBatchId()).isEqualTo(4);
        assertThat(restored.watermark()).isEqualTo(ms(19000));
        assertThat(restored.state().value("n", "a1")).contains(2L);
        assertThat(restored.state().timers("a1")).containsExactly(ms(44000));
        assertThat(restored.<Object>state(1).value("count", "a")).contains(4L);
        assertThat(restored.<Object>state(1).timers("a")).containsExactly(ms(20000), ms(22000), ms(25000), ms(34000));
        assertSameState(checkpoint, restored.snapshot());

        RunResult<String, Event, OutEvent> replayed = restored.run(ChainProcessors.restPart());

        assertSame(rest, replayed);
        assertThat(replayed.operator(0).batches()).extracting(BatchResult::batchId).containsExactly(4L, 5L, 6L, 7L);
        assertThat(replayed.operator(0).droppedLate()).containsExactly(new Event("a2", 18000, "late"));
        assertThat(replayed.operator(0).firedTimers()).containsExactly(new FiredTimer<>("a1", ms(44000)));
        assertThat(replayed.outputs()).containsExactly(out("a", 20000, "count=4 from a1"),
                out("a", 22000, "count=4 from a1"), out("a", 25000, "count=4 from a1"), out("b", 30000, "count=1 from b1"),
                out("a", 34000, "count=4 from a1"), out("c", 50000, "count=1 from c1"),
                out("a", 54000, "count=6 from a1")); // a1's timer output at 44000 and its row at 60000 count there
        assertSameState(uninterrupted.snapshot(), restored.snapshot());
        // the history of the restored chain holds what it ran, not the batches before the snapshot
        assertThat(restored.history().operator(0).batches()).extracting(BatchResult::batchId).containsExactly(4L, 5L, 6L, 7L);
    }

    @Test
    void a_saved_chain_snapshot_loads_and_restores(@TempDir Path dir) throws IOException {
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(ChainProcessors.chain());
        sim.run(ChainProcessors.firstPart());
        Path file = dir.resolve("chain.snapshot");
        sim.snapshot().save(file);
        RunResult<String, Event, OutEvent> rest = sim.run(ChainProcessors.restPart());

        StateSnapshot loaded = StateSnapshot.load(file);
        TwsSimulator<String, Event, OutEvent> restored = new TwsSimulator<>(ChainProcessors.chain());
        restored.restore(loaded);

        assertThat(loaded.nextBatchId()).isEqualTo(4);
        assertSame(rest, restored.run(ChainProcessors.restPart()));
        // a snapshot of a query of two operators restores into a query of two operators only
        TwsSimulator<String, Event, OutEvent> relay = new TwsSimulator<>(ChainProcessors.relay());
        assertThatThrownBy(() -> relay.restore(loaded)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot restore the snapshot: it holds 2 stateful operator(s), this query has 1; restore it "
                        + "into the query it was taken from, then deploy a new version with restartWith(next)");
    }

    /**
     * Generated runs (seeded; the seed is in the failure message): 1 to 3 partitions, the default
     * trigger or a 1 s interval, split at any step. A new chain restored from the snapshot at the
     * split runs the rest exactly as the chain that took it does after {@code restart()} (a restore
     * is a restart from that checkpoint: with an interval a pending no-data batch is skipped by both).
     */
    @Test
    void generated_runs_restored_at_any_step_run_the_rest_as_a_restart_there() {
        long seed = new SplittableRandom().nextLong();
        for (int i = 0; i < 40; i++) {
            long runSeed = seed + i;
            SplittableRandom random = new SplittableRandom(runSeed);
            int partitions = 1 + random.nextInt(3);
            long intervalMs = random.nextBoolean() ? 0 : 1000;
            TwsQuery<String, Event, OutEvent> chain = ChainProcessors.chain()
                    .withShufflePartitions(partitions).withTrigger(Trigger.ProcessingTime(intervalMs));
            List<List<Event>> batches = generate(random);
            int split = random.nextInt(batches.size() + 1);
            String what = "seed " + runSeed + " (" + partitions + " partitions, interval " + intervalMs + " ms, split at "
                    + split + "), batches " + batches;
            try {
                TwsSimulator<String, Event, OutEvent> original = new TwsSimulator<>(chain);
                TwsSimulator<String, Event, OutEvent> restored = new TwsSimulator<>(chain);
                batches.subList(0, split).forEach(original::runBatch);
                StateSnapshot checkpoint = original.snapshot();

                List<RunResult<String, Event, OutEvent>> expected = new ArrayList<>();
                List<RunResult<String, Event, OutEvent>> actual = new ArrayList<>();
                expected.add(original.restart());
                actual.add(restored.restore(checkpoint));
                for (List<Event> rows : batches.subList(split, batches.size())) {
                    expected.add(original.runBatch(rows));
                    actual.add(restored.runBatch(rows));
                }
                expected.add(original.advanceProcessingTime(java.time.Duration.ofSeconds(1)));
                actual.add(restored.advanceProcessingTime(java.time.Duration.ofSeconds(1)));

                assertSame(concat(expected), concat(actual));
                assertSameState(original.snapshot(), restored.snapshot());
            } catch (AssertionError e) {
                throw new AssertionError(what + ": " + e.getMessage(), e);
            }
        }
    }

    private static List<List<Event>> generate(SplittableRandom random) {
        List<List<Event>> batches = new ArrayList<>();
        long base = 10_000;
        int n = 2 + random.nextInt(5);
        for (int s = 0; s < n; s++) {
            batches.add(ChainProcessors.randomRows(random, base));
            base += random.nextInt(0, 12) * 1000L;
        }
        return batches;
    }

    private static <K, I, O> RunResult<K, I, O> concat(List<RunResult<K, I, O>> parts) {
        List<BatchResult<K, I, O>> all = new ArrayList<>();
        parts.forEach(part -> all.addAll(part.batches()));
        return new RunResult<>(all);
    }

    @Test
    void a_snapshot_of_another_chain_is_refused_and_the_simulator_stays_as_it_was() {
        TwsSimulator<String, Event, OutEvent> other = new TwsSimulator<>(ChainProcessors.byLength());
        other.run(ChainProcessors.firstPart());
        StateSnapshot foreign = other.snapshot();
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(ChainProcessors.chain());
        sim.runBatch(new Event("c1", 30000, "x"));

        assertThatThrownBy(() -> sim.restore(foreign)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot restore operator 1 of the snapshot: its grouping key encoder "
                        + Encoders.INT() + " differs from this query's " + Encoders.STRING() + " (processor "
                        + ChainProcessors.Tally.class.getName() + "); restore it into the query it was taken from, "
                        + "then deploy a new version with restartWith(next)");

        // nothing changed: the upstream's snapshot (same key type) was not restored either, the run goes on
        assertThat(sim.isRunning()).isTrue();
        assertThat(sim.nextBatchId()).isEqualTo(2);
        assertThat(sim.state().value("n", "a1")).isEmpty();
        assertThat(sim.state().value("n", "c1")).contains(1L);
        assertThat(sim.runBatch(new Event("c1", 31000, "x")).operator(0).batches()).extracting(BatchResult::batchId)
                .containsExactly(2L, 3L);
        // and a chain restores what it took
        TwsSimulator<String, Event, OutEvent> same = new TwsSimulator<>(ChainProcessors.byLength());
        same.restore(foreign);
        assertThat(same.<Object>state(1).value("count", 2)).contains(5L); // 4 rows and a1's timer output at 15000
    }

    @Test
    void a_single_query_snapshot_of_another_key_type_is_refused_before_the_simulator_stops() {
        TwsSimulator<String, Event, OutEvent> relay = new TwsSimulator<>(ChainProcessors.relay());
        relay.runBatch(new Event("a1", 10000, "x"));
        TwsSimulator<Integer, OutEvent, OutEvent> other = new TwsSimulator<>(ChainProcessors.tallyByLength());

        assertThatThrownBy(() -> other.restore(relay.snapshot())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot restore the snapshot: its grouping key encoder " + Encoders.STRING()
                        + " differs from this query's " + Encoders.INT() + " (processor " + ChainProcessors.Tally.class.getName()
                        + "); restore it into the query it was taken from, then deploy a new version with restartWith(next)");
        assertThat(other.isRunning()).isTrue();
    }
}
