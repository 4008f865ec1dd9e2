package dev.twstester.junit;

import static dev.twstester.junit.TallyProcessor.reading;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.sim.Fidelity;

/**
 * {@link Simulator @Simulator}'s options reach the injected simulator: real-time mode (one
 * {@code handleInputRows} call per row: the tally emits after each row) and the fidelity
 * ({@code test(key, rows)} checks every row's key at FULL, the first and last at FAST).
 */
@TwsTest
class SimulatorOptionsTest {
    static TwsQuery<String, Reading, String> query() {
        return TallyProcessor.query();
    }

    @Simulator(realTimeMode = true) TestSimulator<String, Reading, String> perRow;
    @Simulator TestSimulator<String, Reading, String> perKey;
    @Simulator(fidelity = Fidelity.FAST) TestSimulator<String, Reading, String> fast;

    @Test
    void real_time_mode_calls_the_processor_once_per_row() {
        assertThat(perRow.runBatch(reading("a", 10, 0), reading("a", 11, 0)).outputs()).containsExactly("a=1", "a=2");
        assertThat(perKey.runBatch(reading("a", 10, 0), reading("a", 11, 0)).outputs()).containsExactly("a=2");
    }

    @Test
    void the_fidelity_decides_how_many_rows_of_a_one_key_batch_are_checked() {
        List<Reading> rows = List.of(reading("a", 10, 0), reading("b", 11, 0), reading("a", 12, 0));

        assertThatThrownBy(() -> perKey.test("a", rows)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has key b, not a");
        assertThat(fast.test("a", rows).batches()).hasSize(2);
    }

    @Test
    void a_parameter_takes_the_options_too(@Simulator(realTimeMode = true) TestSimulator<String, Reading, String> sim) {
        assertThat(sim.runBatch(reading("c", 10, 0), reading("c", 11, 0)).outputs()).containsExactly("c=1", "c=2");
    }
}
