package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;

/**
 * Snapshots saved to a file, loaded and restored run on exactly as the in-memory snapshot they
 * were saved from: every state kind, TTL, timers of both time modes, several operators, a legacy
 * flatMapGroupsWithState, evolved schemas, FULL and FAST. And the files it refuses: an older
 * twstester's (Java serialization, never deserialized), a newer format version's, a hostile length.
 */
class SnapshotFileTest {
    @TempDir
    Path dir;

    @BeforeEach
    void clearLog() {
        Log.drain();
    }

    /** {@link ExperimentProcessor} in processing time, keyed by the row's text before the comma. */
    static TwsQuery<String, String, String> experiment() {
        return RestartRetryAndModesTest.experiment();
    }

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    /** Values, lists, maps of string and int keys, TTL on all three, timers; a map key removed. */
    static void experimentFirstPart(TwsSimulator<String, String, String> sim) {
        sim.runBatchAt(t(1000), List.of("a,reg:5000", "a,smap:x=1;y=2", "b,imap:3=30;-1=10", "a,lst:p;q", "b,ttlset:v"));
        sim.runBatchAt(t(2000), List.of("c,ttlset:w", "c,reg:2500", "a,reg:9000", "b,smap:z=5", "b,smapclear"));
    }

    private static List<Object> experimentRest(TwsSimulator<String, String, String> sim) {
        List<Object> out = new ArrayList<>(sim.runBatchAt(t(3000), List.of("a,show", "b,ttlget", "c,ttlget")).outputs());
        out.addAll(sim.runBatchAt(t(6000), List.of("a,show", "b,show", "c,ttlget")).outputs());
        out.addAll(sim.setProcessingTime(t(10_000)).outputs());
        return out;
    }

    @Test
    void every_state_kind_with_ttl_and_processing_time_timers_runs_on_as_the_in_memory_snapshot() throws IOException {
        for (Fidelity fidelity : Fidelity.values()) {
            roundTrip(() -> new TwsSimulator<>(experiment(), fidelity), SnapshotFileTest::experimentFirstPart,
                    SnapshotFileTest::experimentRest);
        }
    }

    @Test
    void event_time_timers_and_bean_values_of_several_operators_run_on_as_the_in_memory_snapshot() throws IOException {
        for (Fidelity fidelity : Fidelity.values()) {
            roundTrip(() -> new TwsSimulator<>(ChainProcessors.chain(), fidelity),
                    sim -> sim.run(ChainProcessors.firstPart()), sim -> List.copyOf(sim.run(ChainProcessors.restPart()).outputs()));
        }
    }

    @Test
    void legacy_flat_map_groups_with_state_and_its_timeouts_run_on_as_the_in_memory_snapshot() throws IOException {
        roundTrip(() -> new TwsSimulator<>(GroupsWithStateTest.flat(GroupsWithStateTest.PROCESSING).build()), sim -> {
            sim.runBatchAt(t(1000), List.of(GroupsWithStateTest.e("a", 0, "inc;dur:1000"), GroupsWithStateTest.e("b", 0, "inc")));
            sim.runBatchAt(t(1500), List.of(GroupsWithStateTest.e("b", 0, "inc;dur:5000")));
        }, sim -> {
            List<Object> out = new ArrayList<>(sim.setProcessingTime(t(2001)).outputs());
            out.addAll(sim.runBatchAt(t(3000), List.of(GroupsWithStateTest.e("b", 0, "inc"))).outputs());
            return out;
        });
    }

    @Test
    void evolved_schemas_with_avro_run_on_as_the_in_memory_snapshot() throws IOException {
        for (Fidelity fidelity : Fidelity.values()) {
            roundTrip(() -> new TwsSimulator<>(EvolutionTest.query("C2/long+log", StateEncoding.AVRO), fidelity), sim -> {
                TwsSimulator<String, String, String> v1 = new TwsSimulator<>(EvolutionTest.query("C1/long", StateEncoding.AVRO),
                        fidelity);
                v1.runBatchAt(t(1000), List.of("a,1", "b,1"));
                v1.runBatchAt(t(2000), List.of("a,2"));
                TwsSimulator<String, String, String> v2 = v1.restartWith(EvolutionTest.query("C2/long+log", StateEncoding.AVRO));
                v2.runBatchAt(t(3000), List.of("a,3"));
                sim.restore(v2.snapshot());
            }, sim -> List.copyOf(sim.runBatchAt(t(4000), List.of("a,4", "b,2")).outputs()));
        }
    }

    @Test
    void a_loaded_snapshot_takes_a_new_version_as_the_in_memory_one_does() throws IOException {
        TwsSimulator<String, String, String> v1 = new TwsSimulator<>(EvolutionTest.query("C1/long+log", StateEncoding.AVRO));
        v1.runBatchAt(t(1000), List.of("a,1", "b,1"));
        Path file = dir.resolve("v1.snapshot");
        v1.snapshot().save(file);
        List<String> expected = newVersionRun(v1.snapshot());

        assertThat(newVersionRun(StateSnapshot.load(file))).isEqualTo(expected)
                .containsExactly("a c=C2{count=1, name=v1, note=null} n=1 log=[a,1]");
    }

    private static List<String> newVersionRun(StateSnapshot snapshot) {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(EvolutionTest.query("C1/long+log", StateEncoding.AVRO));
        sim.restore(snapshot);
        return sim.restartWith(EvolutionTest.query("C2/long+log", StateEncoding.AVRO))
                .runBatchAt(t(2000), List.of("a,2")).outputs();
    }

    /**
     * {@code first} runs on a new simulator, whose snapshot is saved and loaded; a simulator restored
     * from the loaded one and one restored from the in-memory one run {@code rest}: the same outputs,
     * the same log of handler calls, the same state after. The loaded snapshot equals the in-memory
     * one and saves to the same bytes.
     */
    private <K, I, O> void roundTrip(Supplier<TwsSimulator<K, I, O>> fresh,
            java.util.function.Consumer<TwsSimulator<K, I, O>> first, Function<TwsSimulator<K, I, O>, List<Object>> rest)
            throws IOException {
        TwsSimulator<K, I, O> original = fresh.get();
        first.accept(original);
        StateSnapshot taken = original.snapshot();
        Path file = dir.resolve("state.snapshot");
        taken.save(file);
        StateSnapshot loaded = StateSnapshot.load(file);

        assertThat(loaded.differencesTo(taken)).isEmpty();
        assertThat(loaded.operatorCount()).isEqualTo(taken.operatorCount());
        assertThat(loaded.nextBatchId()).isEqualTo(taken.nextBatchId());
        assertThat(loaded.watermark()).isEqualTo(taken.watermark());
        assertThat(loaded.processingTime()).isEqualTo(taken.processingTime());
        assertThat(SnapshotWriter.bytes(loaded)).isEqualTo(Files.readAllBytes(file));

        Log.drain();
        TwsSimulator<K, I, O> fromFile = fresh.get();
        fromFile.restore(loaded);
        List<Object> fileOutputs = rest.apply(fromFile);
        List<String> fileLog = Log.drain();
        TwsSimulator<K, I, O> fromMemory = fresh.get();
        fromMemory.restore(taken);
        List<Object> memoryOutputs = rest.apply(fromMemory);
        List<String> memoryLog = Log.drain();

        assertThat(fileOutputs).isNotEmpty().isEqualTo(memoryOutputs);
        assertThat(fileLog).isEqualTo(memoryLog);
        for (int i = 0; i < taken.operatorCount(); i++) {
            assertThat(fromFile.state(i).dump().toString()).isEqualTo(fromMemory.state(i).dump().toString());
        }
        assertThat(fromFile.snapshot().differencesTo(fromMemory.snapshot())).isEmpty();
        assertThat(fromFile.snapshot().differencesTo(original.snapshot())).isNotEmpty(); // rest changed the state
    }

    @Test
    void a_loaded_snapshot_restores_only_into_a_query_of_its_grouping_key_schema() throws IOException {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment());
        experimentFirstPart(sim);
        Path file = dir.resolve("strings.snapshot");
        sim.snapshot().save(file);
        TwsSimulator<Integer, OutEvent, OutEvent> other = new TwsSimulator<>(ChainProcessors.tallyByLength());

        assertThatThrownBy(() -> other.restore(StateSnapshot.load(file))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot restore the snapshot: its grouping key schema struct<value:string> differs "
                        + "from this query's struct<value:int>");
    }

    /** Sets {@link #READ} when deserialized: shows an older twstester's file is never deserialized. */
    static final class Tripwire implements Serializable {
        private static final long serialVersionUID = 1L;
        static volatile boolean read;

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            read = true;
        }
    }

    @Test
    void a_file_of_an_older_twstester_is_refused_unread_with_how_to_regenerate_it() throws IOException {
        Path file = dir.resolve("old.snapshot");
        try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(file))) {
            out.writeObject(new Tripwire());
        }
        Tripwire.read = false;

        assertThatThrownBy(() -> StateSnapshot.load(file)).isExactlyInstanceOf(SnapshotFormatException.class)
                .hasMessage("cannot load the snapshot " + file + ": it was written by an older twstester, which saved "
                        + "snapshots with Java serialization; it is not read, since deserializing a file can run code. "
                        + "Regenerate it: run what produced it again with this twstester and save sim.snapshot() anew");
        assertThat(Tripwire.read).isFalse();
    }

    @Test
    void a_file_of_a_newer_format_version_says_which_version_wrote_it() throws IOException {
        byte[] data = savedExperiment();
        data[9] = 2;
        Path file = dir.resolve("future.snapshot");
        Files.write(file, data);

        assertThatThrownBy(() -> StateSnapshot.load(file)).isExactlyInstanceOf(SnapshotFormatException.class)
                .hasMessage("cannot load the snapshot " + file + ": at byte 8: it was written by a newer twstester, in "
                        + "snapshot format version 2; this twstester reads format version 1: use the twstester that "
                        + "wrote it or a newer one");
    }

    @Test
    void a_hostile_length_is_checked_against_the_file_before_anything_is_allocated() throws IOException {
        byte[] data = savedExperiment();
        // the first schema's length, after the header (12), the position (32) and the schema count (4)
        java.nio.ByteBuffer.wrap(data).putInt(48, Integer.MAX_VALUE);
        Path file = dir.resolve("hostile.snapshot");
        Files.write(file, SnapshotFuzzTest.withCrc(data));

        assertThatThrownBy(() -> StateSnapshot.load(file)).isExactlyInstanceOf(SnapshotFormatException.class)
                .hasMessage("cannot load the snapshot " + file + ": at byte 48: the length of schema #0 is 2147483647, "
                        + "but only " + (data.length - 4 - 52) + " byte(s) are left in the file");
    }

    @Test
    void a_corrupted_or_truncated_file_and_a_foreign_one_are_refused_naming_what_is_wrong() throws IOException {
        byte[] data = savedExperiment();
        Path flipped = dir.resolve("flipped.snapshot");
        byte[] copy = data.clone();
        copy[100] ^= 4;
        Files.write(flipped, copy);
        Path cut = dir.resolve("cut.snapshot");
        Files.write(cut, java.util.Arrays.copyOf(data, 200));
        Path foreign = dir.resolve("foreign.snapshot");
        Files.writeString(foreign, "{\"not\": \"a snapshot\"}");

        assertThatThrownBy(() -> StateSnapshot.load(flipped)).isExactlyInstanceOf(SnapshotFormatException.class)
                .hasMessageContaining(flipped + ": at byte " + (data.length - 4) + ": the CRC-32 of the file's content is ")
                .hasMessageEndingWith(": the file is corrupted or was cut short");
        assertThatThrownBy(() -> StateSnapshot.load(cut)).isExactlyInstanceOf(SnapshotFormatException.class)
                .hasMessageEndingWith(": the file is corrupted or was cut short");
        assertThatThrownBy(() -> StateSnapshot.load(foreign)).isExactlyInstanceOf(SnapshotFormatException.class)
                .hasMessage("cannot load the snapshot " + foreign + ": at byte 0: it is not a twstester snapshot: it does "
                        + "not start with the bytes 89 54 57 53 53 4E 41 50 (\\x89TWSSNAP)");
    }

    @Test
    void a_fast_snapshot_whose_object_the_encoder_refuses_fails_to_save_naming_the_variable_and_full() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment(), Fidelity.FAST);
        sim.runBatchAt(t(1000), List.of("a,smap:x=1"));
        // FAST keeps objects unchecked: a wrong-typed object written through the state view reaches the snapshot
        sim.state().setValue("count", "a", (Object) "not a long");

        assertThatThrownBy(() -> sim.snapshot().save(dir.resolve("fast.snapshot"))).isInstanceOf(IOException.class)
                .hasMessageStartingWith("cannot save the snapshot: a value of state variable 'count' (operator 0) cannot "
                        + "be encoded by its encoder (")
                .hasMessageEndingWith("; at Fidelity.FAST values are kept as objects and encoded only when saved: take the "
                        + "snapshot at Fidelity.FULL, where Spark's encoder checks each value when it is stored");
    }

    private byte[] savedExperiment() throws IOException {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment());
        experimentFirstPart(sim);
        return SnapshotWriter.bytes(sim.snapshot());
    }

}
