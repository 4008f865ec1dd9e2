package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Optional;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.twstester.ProcessorException;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;
import dev.twstester.sim.SparkLine;
import dev.twstester.sim.TwsSimulator;

/**
 * {@code short} and {@code byte} state values with the Avro state encoding (docs/semantics.md
 * 15.5): Avro stores them as {@code int}, and Spark's Avro reader, built by the executor's
 * {@code init}, refuses to read {@code int} as {@code SMALLINT} or {@code TINYINT}, so the first
 * batch that runs such a version fails (batch 0 of a new query, the first batch after a deploy),
 * on both engines, with Spark's {@code IncompatibleSchemaException}; the same values run with
 * {@code unsaferow}.
 */
@Tag("live")
class LiveAvroSmallIntegersTest {

    /** {@code v2} empty: v1 alone runs BEFORE; else v1 runs BEFORE and v2 AFTER on its checkpoint. {@code failsAt}: -1 when it runs. */
    @ParameterizedTest(name = "{0} -> {1} {2}: fails at {3}")
    @CsvSource({
        "none/short,,AVRO,0,SMALLINT",
        "none/byte,,AVRO,0,TINYINT",
        "none/int,none/short,AVRO,2,SMALLINT",
        "none/short,,UNSAFE_ROW,-1,",
        "none/int,,AVRO,-1,",
    })
    void a_short_or_byte_value_fails_its_first_batch_with_avro_on_both_engines(String v1, String v2,
            StateEncoding encoding, int failsAt, String sqlType) {
        TwsQuery<String, String, String> first = query(v1, encoding);
        TwsQuery<String, String, String> next = v2 == null ? null : query(v2, encoding);
        RunResult<String, String, String> live = null;
        LiveRunException liveError = null;
        try {
            live = next == null ? LiveRunner.of(first).run(LiveEvolutionTest.BEFORE)
                    : LiveRunner.of(first).runThenRestartWith(LiveEvolutionTest.BEFORE, next, LiveEvolutionTest.AFTER);
        } catch (LiveRunException e) {
            liveError = e;
        }
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(first);
        Throwable simError = catchThrowable(() -> {
            sim.run(LiveEvolutionTest.BEFORE);
            if (next != null) {
                sim.restartWith(next).run(LiveEvolutionTest.AFTER);
            }
        });
        if (failsAt < 0) {
            assertThat(liveError).as("live Spark").isNull();
            assertThat(simError).as("the simulator").isNull();
            RunComparison.simulatorVsSpark().assertSame(sim.history(), live);
            return;
        }
        assertThat(liveError).as("live Spark").isNotNull();
        assertThat(liveError.completed()).as("live batches before the failure").hasSize(failsAt);
        String expected = "Cannot convert Avro type {\"type\":\"record\",\"name\":\"topLevelRecord\",\"fields\":[{\"name\":"
                + "\"value\",\"type\":[\"null\",\"int\"],\"default\":null}]} to SQL type STRUCT<value: " + sqlType + ">.";
        assertThat(incompatibleSchema(liveError)).as("live Spark").isEqualTo(expected);
        assertThat(incompatibleSchema(simError)).as("the simulator").isEqualTo(expected);
        // Spark 4.0 wraps no user exception: the stage fails with it, without an error class
        assertThat(liveError.errorClass()).isEqualTo(SparkLine.onClassPath() == SparkLine.V4_0 ? Optional.empty()
                : Optional.of("TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR"));
        assertThat(simError).isInstanceOf(ProcessorException.class);
        assertThat(Optional.ofNullable(((ProcessorException) simError).getCondition())).isEqualTo(liveError.errorClass());
        if (liveError.errorClass().isPresent()) {
            String reason = "An error occurred in the user-defined function init of the StatefulProcessor. Reason: "
                    + "org.apache.spark.sql.avro.IncompatibleSchemaException: " + expected;
            assertThat(liveError.getCause().getMessage()).contains(reason);
            assertThat(simError.getMessage()).contains(reason);
        }
    }

    private static TwsQuery<String, String, String> query(String spec, StateEncoding encoding) {
        return LiveEvolutionTest.query(spec, encoding, TimeMode.None(), OutputMode.Update());
    }

    /** The message of Spark's {@code IncompatibleSchemaException} in {@code t}'s causes, or null. */
    private static String incompatibleSchema(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c.getClass().getName().equals("org.apache.spark.sql.avro.IncompatibleSchemaException")) {
                return c.getMessage();
            }
        }
        return null;
    }
}
