package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;

/**
 * {@link TwsSimulator#restartWith}: a new processor version on the state of the old one
 * (docs/semantics.md, section 15). What Spark accepts and refuses is pinned against live Spark by
 * {@code LiveEvolutionTest}; these tests pin the simulator's side in detail: the exact errors, how
 * evolved values read, and what carries over.
 */
class EvolutionTest {
    private static final String C1_SCHEMA = "StructType(StructField(count,IntegerType,true),StructField(name,StringType,true))";

    static TwsQuery<String, String, String> query(String spec, StateEncoding encoding) {
        return query(spec, encoding, TimeMode.None(), OutputMode.Update());
    }

    static TwsQuery<String, String, String> query(String spec, StateEncoding encoding, TimeMode mode, OutputMode out) {
        return TwsQuery.builder(() -> EvolvingProcessor.of(spec))
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING()).output(Encoders.STRING())
                .timeMode(mode).outputMode(out)
                .trigger(Trigger.ProcessingTime(1000))
                .stateEncoding(encoding)
                .build();
    }

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    /** v1 ran two batches: a has c=C1{2, v1}, n=2; b has c=C1{1, v1}, n=1. */
    private static TwsSimulator<String, String, String> ranV1(String spec, StateEncoding encoding, Fidelity fidelity) {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query(spec, encoding), fidelity);
        sim.runBatchAt(t(1000), List.of("a,1", "b,1"));
        sim.runBatchAt(t(2000), List.of("a,2"));
        return sim;
    }

    /**
     * Deploys {@code next}, which Spark accepts as a restart, and returns the error its first data
     * batch (at 3000, "a,3") fails with: where Spark refuses a new version.
     */
    private static Throwable refusedAtFirstBatch(TwsSimulator<String, String, String> v1,
            TwsQuery<String, String, String> next) {
        TwsSimulator<String, String, String> deployed = v1.restartWith(next);
        assertThat(deployed.history().batches()).hasSize(v1.history().batches().size()); // nothing ran at the restart
        return catchThrowable(() -> outputsAt(deployed, 3000, "a,3"));
    }

    private static List<String> outputsAt(TwsSimulator<String, String, String> sim, long ms, String... rows) {
        return sim.runBatchAt(t(ms), List.of(rows)).outputs();
    }

    @Test
    void an_added_variable_starts_empty_and_the_kept_ones_carry_their_state_timers_clock_and_batch_ids() {
        TwsSimulator<String, String, String> v1 = ranV1("C1/long", StateEncoding.UNSAFE_ROW, Fidelity.FULL);

        TwsSimulator<String, String, String> v2 = v1.restartWith(query("C1/long+log", StateEncoding.UNSAFE_ROW));

        assertThat(v1.isRunning()).isFalse();
        assertThat(v2.isRunning()).isTrue();
        assertThat(v2.processingTime()).isEqualTo(t(2000));
        assertThat(v2.nextBatchId()).isEqualTo(2);
        assertThat(v2.history().batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
        RunResult<String, String, String> next = v2.runBatchAt(t(3000), List.of("a,3"));
        assertThat(next.lastBatch().batchId()).isEqualTo(2);
        assertThat(next.outputs()).containsExactly("a c=C1{count=2, name=v1} n=2 log=[]");
        assertThat(v2.state().<String>list("log", "a")).containsExactly("a,3");
        assertThat(v2.history().batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L);
    }

    @Test
    void rows_waiting_in_the_source_make_the_first_batch_of_the_new_version() {
        TwsSimulator<String, String, String> v1 = ranV1("C1/long", StateEncoding.UNSAFE_ROW, Fidelity.FULL);
        v1.addData("a,3"); // waits for the trigger at 3000
        v1.stop();

        TwsSimulator<String, String, String> v2 = v1.restartWith(query("C1/long+log", StateEncoding.UNSAFE_ROW));

        // the start's first trigger reads them at once, as Spark's first trigger after a start does
        assertThat(v2.waitingRows()).isEmpty();
        BatchResult<String, String, String> first = v2.history().lastBatch();
        assertThat(first.batchId()).isEqualTo(2);
        assertThat(first.batchTimestamp()).isEqualTo(t(2000));
        assertThat(first.outputs()).containsExactly("a c=C1{count=2, name=v1} n=2 log=[]");
    }

    @Test
    void a_dropped_variable_is_hidden_and_a_version_asking_for_it_again_reads_its_old_rows() throws Exception {
        TwsSimulator<String, String, String> v2 = ranV1("C1/long+log", StateEncoding.UNSAFE_ROW, Fidelity.FULL)
                .restartWith(query("C1/long", StateEncoding.UNSAFE_ROW));

        assertThat(v2.state().variableNames()).containsExactlyInAnyOrder("c", "n");
        assertThat(v2.snapshot().variableNames()).containsExactlyInAnyOrder("c", "n");
        assertThat(outputsAt(v2, 3000, "b,2")).containsExactly("b c=C1{count=1, name=v1} n=1");
        // Spark keeps the dropped variable's rows in its store: v3 asks for "log" again and reads them,
        // also from a saved snapshot
        java.nio.file.Path file = java.nio.file.Files.createTempFile("evolve", ".snapshot");
        v2.snapshot().save(file);
        TwsSimulator<String, String, String> saved = new TwsSimulator<>(query("C1/long", StateEncoding.UNSAFE_ROW));
        saved.restore(StateSnapshot.load(file));
        java.nio.file.Files.delete(file);
        TwsSimulator<String, String, String> v3 = saved.restartWith(query("C1/long+log", StateEncoding.UNSAFE_ROW));
        assertThat(outputsAt(v3, 4000, "a,4")).containsExactly("a c=C1{count=2, name=v1} n=2 log=[a,1, a,2]");
    }

    @Test
    void unsaferow_refuses_a_value_field_added_or_widened_with_sparks_error_and_the_old_version_can_go_on() {
        TwsSimulator<String, String, String> v1 = ranV1("C1/long", StateEncoding.UNSAFE_ROW, Fidelity.FULL);

        TwsSimulator<String, String, String> v2 = v1.restartWith(query("C2/long", StateEncoding.UNSAFE_ROW));
        Throwable refused = catchThrowable(() -> outputsAt(v2, 3000, "a,3"));

        assertThat(refused).isInstanceOf(org.apache.spark.SparkUnsupportedOperationException.class);
        assertThat(((SparkThrowable) refused).getCondition()).isEqualTo("STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE");
        assertThat(((SparkThrowable) refused).getMessageParameters()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "storedValueSchema", C1_SCHEMA,
                "newValueSchema", "StructType(StructField(count,LongType,true),StructField(name,StringType,true),"
                        + "StructField(note,StringType,true))"));
        // the refused batch 2 is in the offset log: the old version, deployed again, runs it first, at 3000
        assertThat(v2.isRunning()).isFalse();
        TwsSimulator<String, String, String> back = v2.restartWith(query("C1/long", StateEncoding.UNSAFE_ROW));
        assertThat(back.history().lastBatch().batchId()).isEqualTo(2);
        assertThat(back.history().lastBatch().batchTimestamp()).isEqualTo(t(3000));
        assertThat(back.history().lastBatch().outputs()).containsExactly("a c=C1{count=2, name=v1} n=2");
    }

    @Test
    void avro_reads_an_evolved_value_by_field_name_widened_with_the_new_field_null() {
        for (Fidelity fidelity : Fidelity.values()) {
            TwsSimulator<String, String, String> v2 = ranV1("C1/long", StateEncoding.AVRO, fidelity)
                    .restartWith(query("C2/long", StateEncoding.AVRO));

            assertThat(outputsAt(v2, 3000, "a,3", "b,2")).as(fidelity.name()).containsExactly(
                    "a c=C2{count=2, name=v1, note=null} n=2", "b c=C2{count=1, name=v1, note=null} n=1");
            assertThat(v2.state().<Counters.C2>value("c", "a")).contains(new Counters.C2(3L, "v1", "was-null"));
        }
    }

    @Test
    void avro_reads_each_value_with_the_schema_it_was_written_with_so_a_dropped_field_comes_back() {
        for (Fidelity fidelity : Fidelity.values()) {
            TwsSimulator<String, String, String> v2 = ranV1("C1/long", StateEncoding.AVRO, fidelity)
                    .restartWith(query("C3/long", StateEncoding.AVRO));
            assertThat(outputsAt(v2, 3000, "a,3")).as(fidelity.name()).containsExactly("a c=C3{count=2} n=2");
            TwsSimulator<String, String, String> v3 = v2.restartWith(query("C1/long", StateEncoding.AVRO));

            // a was rewritten by v2 (no name); b was written by v1 only and reads its name again
            assertThat(outputsAt(v3, 4000, "a,4", "b,2")).as(fidelity.name()).containsExactly(
                    "a c=C1{count=3, name=null} n=3", "b c=C1{count=1, name=v1} n=1");
        }
    }

    @Test
    void a_value_kept_with_its_writer_reads_alike_in_state_views_snapshots_and_restores() throws Exception {
        TwsSimulator<String, String, String> v2 = ranV1("C1/long", StateEncoding.AVRO, Fidelity.FULL)
                .restartWith(query("C3/long", StateEncoding.AVRO));

        assertThat(v2.state().<Counters.C3>value("c", "b")).contains(new Counters.C3(1));
        java.nio.file.Path file = java.nio.file.Files.createTempFile("written", ".snapshot");
        v2.snapshot().save(file);
        TwsSimulator<String, String, String> copy = new TwsSimulator<>(query("C3/long", StateEncoding.AVRO));
        copy.restore(StateSnapshot.load(file));
        java.nio.file.Files.delete(file);
        assertThat(dev.twstester.RunComparison.simulatorVsSpark().stateDifferences(v2.snapshot(), copy.snapshot())).isEmpty();
        assertThat(copy.restartWith(query("C1/long", StateEncoding.AVRO)).state().<Counters.C1>value("c", "b"))
                .contains(new Counters.C1(1, "v1"));
    }

    @Test
    void avro_reads_a_primitive_field_the_old_value_lacks_as_zero_or_false() {
        for (Fidelity fidelity : Fidelity.values()) {
            TwsSimulator<String, String, String> v2 = ranV1("C1/long", StateEncoding.AVRO, fidelity)
                    .restartWith(query("C8/long", StateEncoding.AVRO));

            assertThat(outputsAt(v2, 3000, "a,3")).as(fidelity.name()).containsExactly(
                    "a c=C8{count=2, name=v1, hits=0, total=0, flag=false, ratio=0.0} n=2");
            assertThat(v2.state().<Counters.C8>value("c", "a")).contains(new Counters.C8(3, "v1", 1, 10L, true, 1.0));
        }
    }

    @Test
    void avro_reads_a_nested_bean_the_old_value_lacks_as_null_and_a_primitive_added_inside_one_as_zero() {
        for (Fidelity fidelity : Fidelity.values()) {
            TwsSimulator<String, String, String> fromC1 = ranV1("C1/long", StateEncoding.AVRO, fidelity)
                    .restartWith(query("C10/long", StateEncoding.AVRO));
            TwsSimulator<String, String, String> fromC9 = ranV1("C9/long", StateEncoding.AVRO, fidelity)
                    .restartWith(query("C10/long", StateEncoding.AVRO));

            assertThat(outputsAt(fromC1, 3000, "a,3")).as(fidelity.name()).containsExactly(
                    "a c=C10{count=2, name=v1, inner=null, f=0.0} n=2");
            assertThat(outputsAt(fromC9, 3000, "a,3")).as(fidelity.name()).containsExactly(
                    "a c=C10{count=2, name=v9, inner={x=0, y=in9}, f=0.0} n=2");
        }
    }

    @Test
    void a_renamed_field_reads_by_position_with_unsaferow_and_as_null_with_avro() {
        for (Fidelity fidelity : Fidelity.values()) {
            TwsSimulator<String, String, String> unsafe = ranV1("C1/long", StateEncoding.UNSAFE_ROW, fidelity)
                    .restartWith(query("C5/long", StateEncoding.UNSAFE_ROW));
            TwsSimulator<String, String, String> avro = ranV1("C1/long", StateEncoding.AVRO, fidelity)
                    .restartWith(query("C5/long", StateEncoding.AVRO));

            assertThat(outputsAt(unsafe, 3000, "a,3")).as(fidelity.name()).containsExactly("a c=C5{cnt=2, name=v1} n=2");
            assertThat(outputsAt(avro, 3000, "a,3")).as(fidelity.name()).containsExactly("a c=C5{cnt=null, name=v1} n=2");
        }
    }

    @Test
    void a_kind_change_of_a_kept_variable_fails_with_the_variable_type_change() {
        TwsSimulator<String, String, String> v1 = ranV1("C1/long", StateEncoding.UNSAFE_ROW, Fidelity.FULL);

        Throwable refused = refusedAtFirstBatch(v1, query("C1/list", StateEncoding.UNSAFE_ROW));

        assertThat(((SparkThrowable) refused).getCondition()).isEqualTo("STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE");
        assertThat(((SparkThrowable) refused).getMessageParameters()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "stateVarName", "n", "oldType", "ValueState", "newType", "ListState"));
    }

    @Test
    void a_time_mode_or_output_mode_change_fails_with_the_invalid_config() {
        TwsSimulator<String, String, String> v1 = ranV1("C1/long", StateEncoding.UNSAFE_ROW, Fidelity.FULL);

        Throwable time = refusedAtFirstBatch(v1,
                query("C1/long", StateEncoding.UNSAFE_ROW, TimeMode.ProcessingTime(), OutputMode.Update()));
        Throwable output = refusedAtFirstBatch(v1,
                query("C1/long", StateEncoding.UNSAFE_ROW, TimeMode.None(), OutputMode.Append()));

        assertThat(((SparkThrowable) time).getCondition()).isEqualTo("STATE_STORE_INVALID_CONFIG_AFTER_RESTART");
        assertThat(((SparkThrowable) time).getMessageParameters()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "configName", "timeMode", "oldConfig", "NoTime", "newConfig", "ProcessingTime"));
        assertThat(((SparkThrowable) output).getMessageParameters()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "configName", "outputMode", "oldConfig", "Update", "newConfig", "Append"));
    }

    @Test
    void a_ttl_change_applies_to_new_writes_and_stored_values_keep_their_expiration() {
        TwsQuery<String, String, String> v1q = query("none/long-ttl:10000", StateEncoding.UNSAFE_ROW,
                TimeMode.ProcessingTime(), OutputMode.Update());
        TwsSimulator<String, String, String> v1 = new TwsSimulator<>(v1q);
        v1.runBatchAt(t(1000), List.of("a,1")); // a's n expires at 11000

        TwsSimulator<String, String, String> v2 = v1.restartWith(query("none/long-ttl:100000", StateEncoding.UNSAFE_ROW,
                TimeMode.ProcessingTime(), OutputMode.Update()));

        assertThat(outputsAt(v2, 5000, "b,1")).containsExactly("b n=-");
        // at 12000 a's old value has expired; b's, written by v2 at 5000, lives until 105000
        assertThat(outputsAt(v2, 12000, "a,2", "b,2")).containsExactly("a n=-", "b n=1");
    }
}
