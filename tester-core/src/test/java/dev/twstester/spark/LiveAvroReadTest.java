package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.twstester.BatchResult;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

/**
 * How a new version reads values an older one stored (docs/semantics.md 15.5), on live Spark and on
 * the simulator: with {@code avro} each value is read with the schema it was written with, so a
 * field a middle version dropped comes back for the values it never rewrote, and a primitive field
 * the stored value lacks reads 0 or false; with {@code unsaferow} the bytes are read by position.
 */
@Tag("live")
class LiveAvroReadTest {

    private static final Scenario<String> THIRD = Scenario.<String>builder()
            .batchAt(Instant.ofEpochMilli(5000), List.of("a,5", "b,3")).build();

    private static TwsQuery<String, String, String> query(String spec, StateEncoding encoding) {
        return LiveEvolutionTest.query(spec, encoding, TimeMode.None(), OutputMode.Update());
    }

    /**
     * v1 runs BEFORE (a and b), v2 runs AFTER (a and b, or only a), v1 again runs THIRD; {@code read}
     * is what v1 reads again in the last batch, per key.
     */
    @ParameterizedTest(name = "{0} -> {1} -> {0} ({2}), v2 sees {3}")
    @CsvSource(delimiter = '|', value = {
        "C1/long|C3/long|AVRO|a|a c=C1{count=3, name=null} n=3;b c=C1{count=1, name=v1} n=1",
        "C1/long|C3/long|AVRO|a and b|a c=C1{count=3, name=null} n=3;b c=C1{count=2, name=null} n=2",
        "C1/long|C7/long|AVRO|a|a c=C1{count=3, name=v1} n=3;b c=C1{count=1, name=v1} n=1",
        "C1/long|C5/long|UNSAFE_ROW|a|a c=C1{count=3, name=v1} n=3;b c=C1{count=1, name=v1} n=1",
        "C1/long|C5/long|AVRO|a|a c=C1{count=null, name=v1} n=3;b c=C1{count=1, name=v1} n=1",
    })
    void a_version_returning_reads_each_value_as_it_was_written(String v1spec, String v2spec, StateEncoding encoding,
            String v2keys, String read) {
        TwsQuery<String, String, String> v1 = query(v1spec, encoding);
        TwsQuery<String, String, String> v2 = query(v2spec, encoding);
        Scenario<String> middle = Scenario.<String>builder().batchAt(Instant.ofEpochMilli(3000),
                v2keys.equals("a") ? List.of("a,3") : List.of("a,3", "b,2")).build();

        RunResult<String, String, String> live = LiveRunner.of(v1)
                .runVersions(List.of(v1, v2, v1), List.of(LiveEvolutionTest.BEFORE, middle, THIRD));

        TwsSimulator<String, String, String> sim = new TwsSimulator<>(v1);
        sim.run(LiveEvolutionTest.BEFORE);
        TwsSimulator<String, String, String> second = sim.restartWith(v2);
        second.run(middle);
        TwsSimulator<String, String, String> third = second.restartWith(v1);
        third.run(THIRD);
        RunComparison.simulatorVsSpark().assertSame(third.history(), live);
        List<BatchResult<String, String, String>> batches = live.batches();
        assertThat(batches.get(batches.size() - 1).outputs()).containsExactly(read.split(";"));
    }

    /** {@code expected} is "ok" or the error both engines fail with; {@code read} what a reads first in the new version. */
    @ParameterizedTest(name = "{0} ({3}): {4}")
    @CsvSource(delimiter = '|', value = {
        "primitive fields added|C1/long|C8/long|AVRO|ok|a c=C8{count=2, name=v1, hits=0, total=0, flag=false, ratio=0.0} n=2",
        "primitive fields added|C1/long|C8/long|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
        "primitive fields removed|C8/long|C1/long|AVRO|ok|a c=C1{count=2, name=v8} n=2",
        "nested bean and float added|C1/long|C10/long|AVRO|ok|a c=C10{count=2, name=v1, inner=null, f=0.0} n=2",
        "primitive added in a nested bean|C9/long|C10/long|AVRO|ok|a c=C10{count=2, name=v9, inner={x=0, y=in9}, f=0.0} n=2",
        "primitive added in a nested bean|C9/long|C10/long|UNSAFE_ROW|STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE|",
    })
    void a_primitive_field_the_stored_value_lacks_reads_zero_with_avro(String change, String v1, String v2,
            StateEncoding encoding, String expected, String read) {
        LiveEvolutionTest.check(query(v1, encoding), LiveEvolutionTest.BEFORE, query(v2, encoding),
                LiveEvolutionTest.AFTER, expected, read);
    }
}
