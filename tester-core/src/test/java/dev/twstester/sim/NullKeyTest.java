package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.util.List;

import org.apache.spark.SparkException;
import org.apache.spark.SparkThrowable;
import org.junit.jupiter.api.Test;


/**
 * A null grouping key (docs/semantics.md 1.6): its handler call runs, and its first state or timer
 * access fails the batch with Spark's {@code INTERNAL_ERROR_TWS}. Pinned live by {@code LiveNullKeyTest}.
 */
class NullKeyTest {

    @Test
    void a_null_key_without_state_access_runs_and_comes_first() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(NullKeyProcessor.query("none"));

        assertThat(sim.runBatchAt(Instant.ofEpochMilli(1000), List.of("x,1", "null,1")).outputs())
                .containsExactly("null:none=- rows=1", "x:none=- rows=1");
    }

    @Test
    void the_first_state_access_of_a_null_key_fails_the_batch_naming_the_variable() {
        for (String[] c : new String[][] {{"value-exists", "v"}, {"list-get", "l"}, {"map-keys", "m"},
                {"ttl-map-update", "m"}, {"timer-list", "$procTimers_keyToTimestamp"}}) {
            TwsSimulator<String, String, String> sim = new TwsSimulator<>(NullKeyProcessor.query(c[0]));
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
