package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.util.List;

import org.apache.spark.SparkException;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;

/**
 * A null grouping key (docs/semantics.md 1.6): its handler call runs, and its first state or timer
 * access fails the batch with Spark's {@code INTERNAL_ERROR_TWS}. Pinned live by {@code LiveNullKeyTest}.
 */
class NullKeyTest {

    private static TwsQuery<String, String, String> query(String access) {
        return TwsQuery.builder(() -> new NullKeyProcessor(access))
                .keyBy(s -> s.startsWith("null,") ? null : s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING()).output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime()).outputMode(OutputMode.Update())
                .trigger(Trigger.ProcessingTime(1000))
                .build();
    }

    @Test
    void a_null_key_without_state_access_runs_and_comes_first() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query("none"));

        assertThat(sim.runBatchAt(Instant.ofEpochMilli(1000), List.of("x,1", "null,1")).outputs())
                .containsExactly("null:none=- rows=1", "x:none=- rows=1");
    }

    @Test
    void the_first_state_access_of_a_null_key_fails_the_batch_naming_the_variable() {
        for (String[] c : new String[][] {{"value-exists", "v"}, {"list-get", "l"}, {"map-keys", "m"},
                {"ttl-map-update", "m"}, {"timer-list", "$procTimers_keyToTimestamp"}}) {
            TwsSimulator<String, String, String> sim = new TwsSimulator<>(query(c[0]));
            sim.runBatchAt(Instant.ofEpochMilli(1000), List.of("x,1"));

            Throwable failed = catchThrowable(() -> sim.runBatchAt(Instant.ofEpochMilli(2000), List.of("x,2", "null,1")));

            SparkThrowable spark = sparkError(failed);
            assertThat(spark).as(c[0] + ": " + failed).isInstanceOf(SparkException.class);
            assertThat(spark.getCondition()).isEqualTo("INTERNAL_ERROR_TWS");
            assertThat(((Throwable) spark).getMessage()).as(c[0]).isEqualTo(
                    "[INTERNAL_ERROR_TWS] Implicit key not found in state store for stateName=" + c[1] + " SQLSTATE: XX000");
        }
    }

    private static SparkThrowable sparkError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SparkThrowable st && st.getCondition() != null) {
                return st;
            }
        }
        return null;
    }
}
