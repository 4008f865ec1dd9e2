package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.sim.SnapshotBuilder;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;

import scala.Tuple2;

/**
 * {@link CheckpointState} on checkpoints written by live Spark: value, list and map state with
 * TTL, a struct value, processing-time timers ({@link CheckpointProbe}); the end state of a live
 * run equals the simulator's, a checkpoint read at an earlier batch seeds a simulator that then
 * runs the rest of the run as Spark did, and a checkpoint of another processor version or a folder
 * that is none fails with what differs.
 */
@Tag("live")
class CheckpointStateTest {
    private static final RunComparison<Object> SAME = RunComparison.simulatorVsSpark();
    private static Path checkpoint;
    private static RunResult<String, String, String> live;

    static Instant minute(int m) {
        return Instant.EPOCH.plusSeconds(60L * m);
    }

    static long ms(int minute) {
        return minute(minute).toEpochMilli();
    }

    /** Batches 0 and 1 at minutes 1 and 3: the part before the checkpoint is read. */
    static Scenario.Builder<String> firstPart() {
        return Scenario.<String>builder()
                .batchAt(minute(1), List.of("a,v:x", "a,l:one", "a,m:k1=1", "a,p:5", "a,t:" + ms(20), "b,l:b1",
                        "b,m:z=9"))
                .batchAt(minute(3), List.of("a,l:two", "b,v:y", "b,t:" + ms(4)));
    }

    /** Batch 2 at minute 6 (b's timer fires), batch 3 at minute 12 (no data: what was written at minute 1 expires). */
    static Scenario.Builder<String> secondPart(Scenario.Builder<String> b) {
        return b.batchAt(minute(6), List.of("c,m:q=2")).tick(minute(12));
    }

    @BeforeAll
    static void runLive(@TempDir Path dir) {
        checkpoint = dir.resolve("checkpoint");
        live = LiveRunner.of(CheckpointProbe.query()).keepCheckpointIn(checkpoint)
                .run(secondPart(firstPart().stop().start()).build());
        assertThat(live.batches()).extracting(b -> b.batchId()).containsExactly(0L, 1L, 2L, 3L);
    }

    @Test
    void the_last_batch_state_is_every_value_with_its_ttl_expiry_and_every_timer() {
        StateSnapshot read = CheckpointState.of(CheckpointProbe.query()).read(checkpoint);

        SnapshotBuilder<String> expected = SnapshotBuilder.of(CheckpointProbe.query(), dev.twstester.sim.Fidelity.FULL)
                .value("last", "b", "y", ms(13))
                .listElement("seen", "a", "two", ms(13))
                .mapEntry("tags", "c", "q", 2L, ms(16))
                .value("pair", "a", new Tuple2<>("a!", 5L), SnapshotBuilder.NO_EXPIRY)
                .timer("a", ms(20))
                .position(ms(12), 0, 0, 4);
        assertThat(SAME.stateDifferences(expected.build(), read)).isEmpty();
        assertThat(read.nextBatchId()).isEqualTo(4);
        assertThat(read.processingTime()).isEqualTo(minute(12));
        assertThat(read.variableNames()).containsExactly("last", "seen", "tags", "pair");
    }

    @Test
    void an_earlier_batch_seeds_a_simulator_that_runs_the_rest_as_spark_did() {
        StateSnapshot batch1 = CheckpointState.of(CheckpointProbe.query()).batchId(1).read(checkpoint);

        TwsSimulator<String, String, String> firstPartOnly = new TwsSimulator<>(CheckpointProbe.query());
        firstPartOnly.run(firstPart().build());
        SAME.assertSameState(firstPartOnly.snapshot(), batch1);
        assertThat(batch1.nextBatchId()).isEqualTo(2);
        assertThat(batch1.processingTime()).isEqualTo(minute(3));

        TwsSimulator<String, String, String> seeded = new TwsSimulator<>(CheckpointProbe.query());
        seeded.restore(batch1);
        assertThat(seeded.state().list("seen", "a")).containsExactly("one", "two");
        assertThat(seeded.state().<String, Long>map("tags", "b")).isEqualTo(Map.of("z", 9L));
        assertThat(seeded.state().timers("b")).containsExactly(minute(4));
        RunResult<String, String, String> rest = seeded.run(secondPart(Scenario.builder()).build());

        SAME.assertSame(rest, new RunResult<>(live.batches().subList(2, 4)));
        assertThat(rest.outputs()).containsExactly("c:m:q=2",
                "b fired " + ms(4) + " last=y seen=[b1] tags=[z=9] pair=null");
        SAME.assertSameState(seeded.snapshot(), CheckpointState.of(CheckpointProbe.query()).read(checkpoint));
    }

    /** The snapshot file carries Spark's own state (UnsafeRow bytes, TTL expiries, timers, position) unchanged. */
    @Test
    void an_earlier_batch_saved_to_a_file_and_loaded_seeds_a_simulator_that_runs_the_rest_as_spark_did(
            @TempDir Path files) throws java.io.IOException {
        Path file = files.resolve("batch1.snapshot");
        CheckpointState.of(CheckpointProbe.query()).batchId(1).read(checkpoint).save(file);

        TwsSimulator<String, String, String> seeded = new TwsSimulator<>(CheckpointProbe.query());
        seeded.restore(StateSnapshot.load(file));
        RunResult<String, String, String> rest = seeded.run(secondPart(Scenario.builder()).build());

        SAME.assertSame(rest, new RunResult<>(live.batches().subList(2, 4)));
        assertThat(rest.outputs()).containsExactly("c:m:q=2",
                "b fired " + ms(4) + " last=y seen=[b1] tags=[z=9] pair=null");
        SAME.assertSameState(seeded.snapshot(), CheckpointState.of(CheckpointProbe.query()).read(checkpoint));
    }

    @Test
    void a_checkpoint_of_another_processor_version_names_each_variable_and_both_schemas() {
        assertThatThrownBy(() -> CheckpointState.of(CheckpointProbe.LongLast.query()).read(checkpoint))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("was not written by this version of the query's processor ("
                        + CheckpointProbe.LongLast.class.getName() + ")")
                .hasMessageContaining("state variable 'seen': the checkpoint has a list state, the query's processor"
                        + " declares a map state")
                .hasMessageContaining("state variable 'last' (value state): the checkpoint stores its value as"
                        + " struct<value:string>, the query's processor declares struct<value:bigint>")
                .hasMessageNotContaining("'tags'")
                .hasMessageNotContaining("'pair'");
    }

    @Test
    void a_variable_the_checkpoint_does_not_have_starts_empty() {
        StateSnapshot read = CheckpointState.of(CheckpointProbe.WithNotes.query()).read(checkpoint);
        assertThat(read.variableNames()).containsExactly("last", "seen", "tags", "pair", "notes");
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(CheckpointProbe.WithNotes.query());
        sim.restore(read);
        assertThat(sim.state().value("notes", "a")).isEmpty();
        assertThat(sim.state().<Tuple2<String, Long>>value("pair", "a")).contains(new Tuple2<>("a!", 5L));
        assertThat(sim.state().keys()).containsExactly("a", "b", "c");
    }

    @Test
    void a_batch_not_committed_names_the_last_committed_one() {
        assertThatThrownBy(() -> CheckpointState.of(CheckpointProbe.query()).batchId(9).read(checkpoint))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batch 9 is not committed in the checkpoint " + checkpoint.toAbsolutePath().normalize()
                        + "; its last committed batch is 3");
    }

    @Test
    void a_folder_that_is_no_checkpoint_says_so(@TempDir Path empty) throws Exception {
        Files.createDirectories(empty.resolve("offsets"));
        Path dir = empty.toAbsolutePath().normalize();
        assertThatThrownBy(() -> CheckpointState.of(CheckpointProbe.query()).read(empty))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(dir + " is no Spark streaming checkpoint: it has no offsets/ and commits/ folders; give the"
                        + " folder the query was started with as its checkpointLocation");
        assertThatThrownBy(() -> CheckpointState.of(CheckpointProbe.query()).operatorId(1).read(checkpoint))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the checkpoint " + checkpoint.toAbsolutePath().normalize()
                        + " has no state of operator 1; its state/ folder has operators [0]");
    }

    @Test
    void a_live_runs_end_state_equals_the_simulators() {
        Scenario<String> scenario = secondPart(firstPart()).build();
        LiveOutcome<String, String, String> outcome = LiveRunner.of(CheckpointProbe.query()).runWithEndState(scenario);
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(CheckpointProbe.query());
        SAME.assertSame(sim.run(scenario), outcome.run());
        SAME.assertSameState(sim.snapshot(), outcome.endState());

        sim.state().setValue("last", "b", "changed");
        assertThat(SAME.stateDifferences(sim.snapshot(), outcome.endState()))
                .extracting(d -> d.message())
                .containsExactly("end state after batch 3, key b: state variable 'last' differs\n"
                        + "  simulator: changed (expires at 1970-01-01T00:22:00Z)\n"
                        + "  spark:     y (expires at 1970-01-01T00:13:00Z)");
    }
}
