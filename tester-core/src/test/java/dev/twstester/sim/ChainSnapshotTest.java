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
import dev.twstester.ChainResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunComparison;
import dev.twstester.TwsChain;

/**
 * {@link ChainSimulator#snapshot()} and {@link ChainSimulator#restore}: a chain restored from a
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

    private static void assertSame(ChainResult<?, ?, ?, ?, ?> expected, ChainResult<?, ?, ?, ?, ?> actual) {
        SAME.assertSame(expected.upstream(), actual.upstream());
        SAME.assertSame(expected.downstream(), actual.downstream());
    }

    private static void assertSameState(ChainSnapshot expected, ChainSnapshot actual) {
        assertThat(SAME.stateDifferences(expected.upstream(), actual.upstream())).isEmpty();
        assertThat(SAME.stateDifferences(expected.downstream(), actual.downstream())).isEmpty();
        assertThat(actual.processingTime()).isEqualTo(expected.processingTime());
    }

    @Test
    void a_chain_restored_from_a_snapshot_runs_the_rest_as_the_uninterrupted_chain() {
        ChainSimulator<String, Event, OutEvent, String, OutEvent> uninterrupted = new ChainSimulator<>(ChainProcessors.chain());
        ChainResult<String, Event, OutEvent, String, OutEvent> first = uninterrupted.run(ChainProcessors.firstPart());
        ChainSnapshot checkpoint = uninterrupted.snapshot();
        ChainResult<String, Event, OutEvent, String, OutEvent> rest = uninterrupted.run(ChainProcessors.restPart());

        // one position for the query: batches 0 to 3 ran (two data batches, each with its no-data batch)
        assertThat(first.upstream().batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L);
        assertThat(checkpoint.nextBatchId()).isEqualTo(4);
        assertThat(checkpoint.watermark()).isEqualTo(ms(19000));
        assertThat(checkpoint.processingTime()).isEqualTo(Instant.EPOCH);
        assertThat(checkpoint.upstream().variableNames()).containsExactly("n");
        assertThat(checkpoint.downstream().variableNames()).containsExactly("count", "last");

        ChainSimulator<String, Event, OutEvent, String, OutEvent> restored = new ChainSimulator<>(ChainProcessors.chain());
        ChainResult<String, Event, OutEvent, String, OutEvent> started = restored.restore(checkpoint);

        assertThat(started.isEmpty()).isTrue(); // no rows wait: a restarted query runs no batch before new data
        assertThat(restored.nextBatchId()).isEqualTo(4);
        assertThat(restored.watermark()).isEqualTo(ms(19000));
        assertThat(restored.upstreamState().value("n", "a1")).contains(2L);
        assertThat(restored.upstreamState().timers("a1")).containsExactly(ms(44000));
        assertThat(restored.state().value("count", "a")).contains(4L);
        assertThat(restored.state().timers("a")).containsExactly(ms(20000), ms(22000), ms(25000), ms(34000));
        assertSameState(checkpoint, restored.snapshot());

        ChainResult<String, Event, OutEvent, String, OutEvent> replayed = restored.run(ChainProcessors.restPart());

        assertSame(rest, replayed);
        assertThat(replayed.upstream().batches()).extracting(BatchResult::batchId).containsExactly(4L, 5L, 6L, 7L);
        assertThat(replayed.upstream().droppedLate()).containsExactly(new Event("a2", 18000, "late"));
        assertThat(replayed.upstream().firedTimers()).containsExactly(new FiredTimer<>("a1", ms(44000)));
        assertThat(replayed.outputs()).containsExactly(out("a", 20000, "count=4 from a1"),
                out("a", 22000, "count=4 from a1"), out("a", 25000, "count=4 from a1"), out("b", 30000, "count=1 from b1"),
                out("a", 34000, "count=4 from a1"), out("c", 50000, "count=1 from c1"),
                out("a", 54000, "count=6 from a1")); // a1's timer output at 44000 and its row at 60000 count there
        assertSameState(uninterrupted.snapshot(), restored.snapshot());
        // the history of the restored chain holds what it ran, not the batches before the snapshot
        assertThat(restored.history().upstream().batches()).extracting(BatchResult::batchId).containsExactly(4L, 5L, 6L, 7L);
    }

    @Test
    void a_saved_chain_snapshot_loads_and_restores(@TempDir Path dir) throws IOException {
        ChainSimulator<String, Event, OutEvent, String, OutEvent> sim = new ChainSimulator<>(ChainProcessors.chain());
        sim.run(ChainProcessors.firstPart());
        Path file = dir.resolve("chain.snapshot");
        sim.snapshot().save(file);
        ChainResult<String, Event, OutEvent, String, OutEvent> rest = sim.run(ChainProcessors.restPart());

        ChainSnapshot loaded = ChainSnapshot.load(file);
        ChainSimulator<String, Event, OutEvent, String, OutEvent> restored = new ChainSimulator<>(ChainProcessors.chain());
        restored.restore(loaded);

        assertThat(loaded.nextBatchId()).isEqualTo(4);
        assertSame(rest, restored.run(ChainProcessors.restPart()));
        // a single operator's snapshot file is no chain snapshot
        Path single = dir.resolve("single.snapshot");
        loaded.upstream().save(single);
        assertThatThrownBy(() -> ChainSnapshot.load(single)).isInstanceOf(IOException.class)
                .hasMessage(single + " does not hold a twstester ChainSnapshot but a " + StateSnapshot.class.getName());
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
            TwsChain<String, Event, OutEvent, String, OutEvent> chain = ChainProcessors.chain()
                    .withShufflePartitions(partitions).withTrigger(Trigger.ProcessingTime(intervalMs));
            List<List<Event>> batches = generate(random);
            int split = random.nextInt(batches.size() + 1);
            String what = "seed " + runSeed + " (" + partitions + " partitions, interval " + intervalMs + " ms, split at "
                    + split + "), batches " + batches;
            try {
                ChainSimulator<String, Event, OutEvent, String, OutEvent> original = new ChainSimulator<>(chain);
                ChainSimulator<String, Event, OutEvent, String, OutEvent> restored = new ChainSimulator<>(chain);
                batches.subList(0, split).forEach(original::runBatch);
                ChainSnapshot checkpoint = original.snapshot();

                List<ChainResult<String, Event, OutEvent, String, OutEvent>> expected = new ArrayList<>();
                List<ChainResult<String, Event, OutEvent, String, OutEvent>> actual = new ArrayList<>();
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

    private static <K, I, M, K2, O> ChainResult<K, I, M, K2, O> concat(List<ChainResult<K, I, M, K2, O>> parts) {
        List<BatchResult<K, I, M>> up = new ArrayList<>();
        List<BatchResult<K2, M, O>> down = new ArrayList<>();
        for (ChainResult<K, I, M, K2, O> part : parts) {
            up.addAll(part.upstream().batches());
            down.addAll(part.downstream().batches());
        }
        return new ChainResult<>(new dev.twstester.RunResult<>(up), new dev.twstester.RunResult<>(down));
    }

    @Test
    void a_snapshot_of_another_chain_is_refused_and_the_simulator_stays_as_it_was() {
        ChainSimulator<String, Event, OutEvent, Integer, OutEvent> other = new ChainSimulator<>(ChainProcessors.byLength());
        other.run(ChainProcessors.firstPart());
        ChainSnapshot foreign = other.snapshot();
        ChainSimulator<String, Event, OutEvent, String, OutEvent> sim = new ChainSimulator<>(ChainProcessors.chain());
        sim.runBatch(new Event("c1", 30000, "x"));

        assertThatThrownBy(() -> sim.restore(foreign)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot restore the chain snapshot's downstream: its grouping key encoder "
                        + Encoders.INT() + " differs from this query's " + Encoders.STRING() + " (processor "
                        + ChainProcessors.Tally.class.getName() + "); restore a ChainSnapshot into a simulator of the "
                        + "chain it was taken from");

        // nothing changed: the upstream's snapshot (same key type) was not restored either, the run goes on
        assertThat(sim.isRunning()).isTrue();
        assertThat(sim.nextBatchId()).isEqualTo(2);
        assertThat(sim.upstreamState().value("n", "a1")).isEmpty();
        assertThat(sim.upstreamState().value("n", "c1")).contains(1L);
        assertThat(sim.runBatch(new Event("c1", 31000, "x")).upstream().batches()).extracting(BatchResult::batchId)
                .containsExactly(2L, 3L);
        // the upstream's key is checked too, first
        ChainSnapshot intKeyed = new ChainSnapshot(foreign.downstream(), foreign.downstream());
        assertThatThrownBy(() -> sim.restore(intKeyed)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot restore the chain snapshot's upstream: its grouping key encoder "
                        + Encoders.INT() + " differs from this query's " + Encoders.STRING() + " (processor "
                        + ChainProcessors.Relay.class.getName() + ")");
        // and a chain restores what it took
        ChainSimulator<String, Event, OutEvent, Integer, OutEvent> same = new ChainSimulator<>(ChainProcessors.byLength());
        same.restore(foreign);
        assertThat(same.state().value("count", 2)).contains(5L); // 4 rows and a1's timer output at 15000
    }

    @Test
    void the_two_operators_snapshots_must_stand_at_one_position_of_the_query() {
        ChainSimulator<String, Event, OutEvent, String, OutEvent> sim = new ChainSimulator<>(ChainProcessors.chain());
        ChainSnapshot before = sim.snapshot();
        sim.runBatch(new Event("a1", 10000, "x"));
        ChainSnapshot after = sim.snapshot();

        assertThatThrownBy(() -> new ChainSnapshot(after.upstream(), before.downstream()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the upstream snapshot is at next batch 2 at 1970-01-01T00:00:00Z, watermark "
                        + "1970-01-01T00:00:05Z (the last batch's 1970-01-01T00:00:05Z), the downstream snapshot at "
                        + "next batch 0 at 1970-01-01T00:00:00Z, watermark 1970-01-01T00:00:00Z (the last batch's "
                        + "1970-01-01T00:00:00Z); both operators of a chain share the query's one clock, watermark and "
                        + "batch id: take both snapshots from one ChainSimulator#snapshot() or one checkpoint batch "
                        + "(CheckpointState.of(chain))");
        assertThatThrownBy(() -> new ChainSnapshot(after.upstream(), null)).isInstanceOf(NullPointerException.class)
                .hasMessage("downstream must not be null");
    }

    @Test
    void a_single_query_snapshot_of_another_key_type_is_refused_before_the_simulator_stops() {
        TwsSimulator<String, Event, OutEvent> relay = new TwsSimulator<>(ChainProcessors.relay());
        relay.runBatch(new Event("a1", 10000, "x"));
        TwsSimulator<Integer, OutEvent, OutEvent> other = new TwsSimulator<>(ChainProcessors.byLength().downstream());

        assertThatThrownBy(() -> other.restore(relay.snapshot())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot restore the snapshot: its grouping key encoder " + Encoders.STRING()
                        + " differs from this query's " + Encoders.INT() + " (processor " + ChainProcessors.Tally.class.getName()
                        + "); restore it into the query it was taken from, then deploy a new version with restartWith(next)");
        assertThat(other.isRunning()).isTrue();
    }
}
