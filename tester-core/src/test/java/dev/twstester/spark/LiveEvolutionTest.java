package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;
import dev.twstester.sim.EvolvingProcessor;
import dev.twstester.sim.TwsSimulator;

/**
 * A new processor version on the state of the old one (docs/semantics.md, section 15), on live
 * Spark and on the simulator: {@link LiveRunner#runThenRestartWith} against
 * {@link TwsSimulator#restartWith}. Each change is run with both state encodings; Spark either
 * refuses it when the new run plans its first batch, with the error the simulator raises at the
 * restart (same error class, same message), or runs it, and then both engines run the same batches
 * and the new version reads the old values alike.
 */
@Tag("live")
class LiveEvolutionTest {

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
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

    static final Scenario<String> BEFORE = Scenario.<String>builder()
            .batchAt(t(1000), List.of("a,1", "b,1")).batchAt(t(2000), List.of("a,2")).build();
    static final Scenario<String> AFTER = Scenario.<String>builder()
            .batchAt(t(3000), List.of("a,3", "b,2")).batchAt(t(4000), List.of("a,4")).build();

    /** The simulator's run of the same deploy: v1 runs {@code before}, v2 restarts on its state and runs {@code after}. */
    static RunResult<String, String, String> simulate(TwsQuery<String, String, String> v1, Scenario<String> before,
            TwsQuery<String, String, String> v2, Scenario<String> after) {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(v1);
        sim.run(before);
        TwsSimulator<String, String, String> next = sim.restartWith(v2);
        next.run(after);
        return next.history();
    }

    /** The first Spark error in the chain (below STREAM_FAILED), or null. */
    static SparkThrowable sparkError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SparkThrowable st && st.getCondition() != null && !"STREAM_FAILED".equals(st.getCondition())) {
                return st;
            }
        }
        return null;
    }

    /**
     * {@code expected} is "ok" or the error class both engines fail with; {@code read} is what key a
     * reads in the first batch of the new version ("a c=... n=..."), when it runs.
     */
    @ParameterizedTest(name = "{0} ({3}): {4}")
    @CsvSource(delimiter = '|', value = {
        "variable added|C1/long|C1/long+log|UNSAFE_ROW|ok|a c=C1{count=2, name=v1} n=2 log=[]",
        "variable added|C1/long|C1/long+log|AVRO|ok|a c=C1{count=2, name=v1} n=2 log=[]",
        "variable dropped|C1/long+log|C1/long|UNSAFE_ROW|ok|a c=C1{count=2, name=v1} n=2",
        "variable dropped|C1/long+log|C1/long|AVRO|ok|a c=C1{count=2, name=v1} n=2",
        "field added, count widened|C1/long|C2/long|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
        "field added, count widened|C1/long|C2/long|AVRO|ok|a c=C2{count=2, name=v1, note=null} n=2",
        "field added|C1/long|C7/long|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
        "field added|C1/long|C7/long|AVRO|ok|a c=C7{count=2, name=v1, note=null} n=2",
        "field removed|C1/long|C3/long|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
        "field removed|C1/long|C3/long|AVRO|ok|a c=C3{count=2} n=2",
        "field type changed|C1/long|C4/long|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
        "field type changed|C1/long|C4/long|AVRO|STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION|",
        "field renamed|C1/long|C5/long|UNSAFE_ROW|ok|a c=C5{cnt=2, name=v1} n=2",
        "field renamed|C1/long|C5/long|AVRO|ok|a c=C5{cnt=null, name=v1} n=2",
        "field made not nullable|C1/long|C6/long|UNSAFE_ROW|ok|a c=C6{count=2, name=v1} n=2",
        "field made not nullable|C1/long|C6/long|AVRO|ok|a c=C6{count=2, name=v1} n=2",
        "field made nullable|C6/long|C1/long|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
        "field made nullable|C6/long|C1/long|AVRO|ok|a c=C1{count=2, name=v6} n=2",
        "value narrowed|C1/long|C1/int|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
        "value narrowed|C1/long|C1/int|AVRO|STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION|",
        "value widened|C1/int|C1/long|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
        "value widened|C1/int|C1/long|AVRO|ok|a c=C1{count=2, name=v1} n=2",
        "value state to list state|C1/long|C1/list|UNSAFE_ROW|STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE|",
        "value state to list state|C1/long|C1/list|AVRO|STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE|",
        "list state to value state|C1/list|C1/long|UNSAFE_ROW|STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE|",
        "value state to map state|C1/long|C1/map|UNSAFE_ROW|STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE|",
        "value state to map state|C1/long|C1/map|AVRO|STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE|",
        "list state to map state|C1/list|C1/map|UNSAFE_ROW|STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE|",
    })
    void a_change_runs_or_fails_alike_on_both_engines(String change, String v1, String v2, StateEncoding encoding,
            String expected, String read) {
        check(query(v1, encoding, TimeMode.None(), OutputMode.Update()), BEFORE,
                query(v2, encoding, TimeMode.None(), OutputMode.Update()), AFTER, expected, read);
    }

    @ParameterizedTest(name = "TTL {0} ({3}): {4}")
    @CsvSource(delimiter = '|', value = {
        "added|none/long|none/long-ttl:10000|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
        "added|none/long|none/long-ttl:10000|AVRO|STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION|",
        "removed|none/long-ttl:10000|none/long|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
        "removed|none/long-ttl:10000|none/long|AVRO|STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION|",
        "changed|none/long-ttl:10000|none/long-ttl:100000|UNSAFE_ROW|ok|a n=2",
        "changed|none/long-ttl:10000|none/long-ttl:100000|AVRO|ok|a n=2",
    })
    void a_ttl_change_runs_or_fails_alike_on_both_engines(String change, String v1, String v2, StateEncoding encoding,
            String expected, String read) {
        check(query(v1, encoding, TimeMode.ProcessingTime(), OutputMode.Update()), BEFORE,
                query(v2, encoding, TimeMode.ProcessingTime(), OutputMode.Update()), AFTER, expected, read);
    }

    @Test
    void a_new_ttl_applies_to_new_writes_while_stored_values_keep_their_expiration() {
        TwsQuery<String, String, String> v1 = query("none/long-ttl:10000", StateEncoding.UNSAFE_ROW,
                TimeMode.ProcessingTime(), OutputMode.Update());
        TwsQuery<String, String, String> v2 = query("none/long-ttl:100000", StateEncoding.UNSAFE_ROW,
                TimeMode.ProcessingTime(), OutputMode.Update());
        Scenario<String> before = Scenario.<String>builder().batchAt(t(1000), List.of("a,1")).build();
        Scenario<String> after = Scenario.<String>builder()
                .batchAt(t(5000), List.of("b,1")).batchAt(t(12000), List.of("a,2", "b,2")).build();

        RunResult<String, String, String> live = LiveRunner.of(v1).runThenRestartWith(before, v2, after);

        RunComparison.simulatorVsSpark().assertSame(simulate(v1, before, v2, after), live);
        // a's value, written by v1 at 1000, expired at 11000; b's, written by v2 at 5000, lives until 105000
        assertThat(live.batches().get(live.batches().size() - 1).outputs()).containsExactly("a n=-", "b n=1");
    }

    @Test
    void a_variable_dropped_by_one_version_and_asked_for_by_the_next_reads_its_old_rows() {
        TwsQuery<String, String, String> withN = query("C1/long", StateEncoding.UNSAFE_ROW, TimeMode.None(), OutputMode.Update());
        TwsQuery<String, String, String> withoutN = query("C1/none", StateEncoding.UNSAFE_ROW, TimeMode.None(), OutputMode.Update());
        Scenario<String> third = Scenario.<String>builder().batchAt(t(5000), List.of("a,5")).build();

        RunResult<String, String, String> live = LiveRunner.of(withN)
                .runVersions(List.of(withN, withoutN, withN), List.of(BEFORE, AFTER, third));

        TwsSimulator<String, String, String> sim = new TwsSimulator<>(withN);
        sim.run(BEFORE);
        TwsSimulator<String, String, String> v2 = sim.restartWith(withoutN);
        v2.run(AFTER);
        TwsSimulator<String, String, String> v3 = v2.restartWith(withN);
        v3.run(third);
        RunComparison.simulatorVsSpark().assertSame(v3.history(), live);
        // n was last written at batch 1 (a: 2); v2 did not touch it
        assertThat(live.batches().get(4).outputs()).containsExactly("a c=C1{count=4, name=v1} n=2");
    }

    @Test
    void a_time_mode_or_output_mode_change_fails_alike_on_both_engines() {
        TwsQuery<String, String, String> v1 = query("C1/long", StateEncoding.UNSAFE_ROW, TimeMode.None(), OutputMode.Update());
        check(v1, BEFORE, query("C1/long", StateEncoding.UNSAFE_ROW, TimeMode.ProcessingTime(), OutputMode.Update()),
                AFTER, "STATE_STORE_INVALID_CONFIG_AFTER_RESTART", "");
        check(v1, BEFORE, query("C1/long", StateEncoding.UNSAFE_ROW, TimeMode.None(), OutputMode.Append()),
                AFTER, "STATE_STORE_INVALID_CONFIG_AFTER_RESTART", "");
    }

    @Test
    void the_state_encoding_stays_the_checkpoints() {
        // the new version asks for avro; the checkpoint's unsaferow stays, so avro's evolution is refused
        check(query("C1/long", StateEncoding.UNSAFE_ROW, TimeMode.None(), OutputMode.Update()), BEFORE,
                query("C2/long", StateEncoding.AVRO, TimeMode.None(), OutputMode.Update()), AFTER,
                "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE", "");
        // the new version asks for unsaferow; the checkpoint's avro stays, so the field may be widened
        check(query("C1/long", StateEncoding.AVRO, TimeMode.None(), OutputMode.Update()), BEFORE,
                query("C2/long", StateEncoding.UNSAFE_ROW, TimeMode.None(), OutputMode.Update()), AFTER,
                "ok", "a c=C2{count=2, name=v1, note=null} n=2");
    }

    /**
     * The deploy a user tries on production state: v1's live checkpoint read with
     * {@link CheckpointState}, restored into a simulator of v1, and v2 deployed on it with
     * {@code restartWith}; it runs the next batches as Spark runs them after the same restart, or
     * fails with Spark's error.
     */
    @ParameterizedTest(name = "{0} on a real checkpoint ({3}): {4}")
    @CsvSource(delimiter = '|', value = {
        "field added|C1/long|C7/long|AVRO|ok",
        "field added|C1/long|C7/long|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
        "variable added|C1/long|C1/long+log|UNSAFE_ROW|ok",
    })
    void a_new_version_on_the_state_read_from_a_real_checkpoint(String change, String v1spec, String v2spec,
            StateEncoding encoding, String expected, @TempDir Path dir) {
        TwsQuery<String, String, String> v1 = query(v1spec, encoding, TimeMode.None(), OutputMode.Update());
        TwsQuery<String, String, String> v2 = query(v2spec, encoding, TimeMode.None(), OutputMode.Update());
        Path checkpoint = dir.resolve("checkpoint");
        LiveRunner.of(v1).keepCheckpointIn(checkpoint).run(BEFORE);

        TwsSimulator<String, String, String> deployed = new TwsSimulator<>(v1);
        deployed.restore(CheckpointState.of(v1).read(checkpoint));
        TwsSimulator<String, String, String> next = deployed.restartWith(v2); // accepted, as Spark accepts the restart
        if (!expected.equals("ok")) {
            assertThatThrownBy(() -> next.run(AFTER)) // the first batch is refused
                    .satisfies(e -> assertThat(sparkError(e).getCondition()).isEqualTo(expected));
            assertThat(next.history().failures()).extracting(f -> f.batchId()).containsExactly(2L);
            return;
        }
        RunResult<String, String, String> simulated = next.run(AFTER);
        RunResult<String, String, String> live = LiveRunner.of(v1).runThenRestartWith(BEFORE, v2, AFTER);
        RunComparison.simulatorVsSpark().assertSame(simulated,
                new RunResult<>(live.batches().subList(live.batches().size() - simulated.batches().size(),
                        live.batches().size())));
    }

    static void check(TwsQuery<String, String, String> v1, Scenario<String> before,
            TwsQuery<String, String, String> v2, Scenario<String> after, String expected, String read) {
        Throwable liveError = null;
        RunResult<String, String, String> live = null;
        try {
            live = LiveRunner.of(v1).runThenRestartWith(before, v2, after);
        } catch (LiveRunException e) {
            liveError = e;
            assertThat(e.completed()).as("the batches of the old version").hasSize(before.steps().size());
        }
        RunResult<String, String, String> sim = null;
        Throwable simError = catchThrowable(() -> simulate(v1, before, v2, after));
        if (expected.equals("ok")) {
            assertThat(liveError).as("live Spark").isNull();
            assertThat(simError).as("the simulator").isNull();
            sim = simulate(v1, before, v2, after);
            RunComparison.simulatorVsSpark().assertSame(sim, live);
            assertThat(live.batches().get(before.steps().size()).outputs()).first().isEqualTo(read);
            return;
        }
        SparkThrowable liveSpark = sparkError(liveError);
        SparkThrowable simSpark = sparkError(simError);
        assertThat(liveSpark).as("live Spark's error: " + liveError).isNotNull();
        assertThat(liveSpark.getCondition()).as("live Spark").isEqualTo(expected);
        assertThat(simSpark).as("the simulator's error: " + simError).isNotNull();
        assertThat(simSpark.getCondition()).as("the simulator").isEqualTo(expected);
        assertThat(((Throwable) simSpark).getMessage()).isEqualTo(((Throwable) liveSpark).getMessage());
        assertThat(simSpark.getClass()).isEqualTo(liveSpark.getClass());
    }
}
