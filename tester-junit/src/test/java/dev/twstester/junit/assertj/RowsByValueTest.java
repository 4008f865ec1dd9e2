package dev.twstester.junit.assertj;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.junit.assertj.TwsAssertions.catchThrowable;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.junit.Alert;
import dev.twstester.junit.AlertProcessor;
import dev.twstester.junit.Reading;
import dev.twstester.sim.TwsSimulator;

/**
 * Rows of a class without equals() ({@link Alert}) are compared by their encoded value, as Spark
 * compares rows, and a failure shows them by their fields.
 */
class RowsByValueTest {
    static final String BY_VALUE = "when comparing values using their encoded value: Alert has no equals(), so its rows"
            + " were compared by value, as Spark compares rows (the bytes of Alert's encoder); add equals() and"
            + " hashCode() to Alert to compare with them instead";

    TwsSimulator<String, Reading, Alert> sim;
    RunResult<String, Reading, Alert> run;

    @BeforeEach
    void run() {
        sim = new TwsSimulator<>(AlertProcessor.query());
        run = sim.runBatch(reading("a", 10, 0), reading("a", 11, 0), reading("b", 12, 0));
    }

    @Test
    void equal_rows_pass_in_every_assertion_of_outputs_and_state() {
        assertThat(sim).outputs().containsExactly(Alert.of("a", 1), Alert.of("a", 2), Alert.of("b", 1));
        assertThat(run).outputs().contains(Alert.of("a", 2)).doesNotContain(Alert.of("a", 3));
        assertThat(run).lastBatch().outputs().containsExactlyInAnyOrder(Alert.of("b", 1), Alert.of("a", 1),
                Alert.of("a", 2));
        assertThat(sim).valueState("last", "a").contains(Alert.of("a", 2));
    }

    @Test
    void different_rows_fail_saying_they_were_compared_by_value_and_showing_their_fields() {
        Throwable failure = catchThrowable(() -> assertThat(sim).outputs()
                .containsExactly(Alert.of("a", 1), Alert.of("a", 3), Alert.of("b", 1)));

        assertThat(failure).isInstanceOf(AssertionError.class).hasMessageContaining(BY_VALUE)
                .hasMessageContaining("Alert{\"count\":2,\"sensor\":\"a\"}")
                .hasMessageContaining("Alert{\"count\":3,\"sensor\":\"a\"}")
                .hasMessageNotContaining("Alert@");
    }

    @Test
    void a_state_value_that_differs_fails_the_same_way() {
        Throwable failure = catchThrowable(() -> assertThat(sim).valueState("last", "b").contains(Alert.of("b", 2)));

        assertThat(failure).isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("[value state 'last' of key \"b\" after batch 0; rows compared by their encoded"
                        + " value: Alert has no equals(), so its rows were compared by value")
                .hasMessageContaining("Optional[Alert{\"count\":1,\"sensor\":\"b\"}]")
                .hasMessageContaining("Alert{\"count\":2,\"sensor\":\"b\"}");
    }

    @Test
    void rows_of_a_class_with_equals_are_compared_with_it() {
        TwsSimulator<String, Reading, String> strings = new TwsSimulator<>(dev.twstester.junit.TallyProcessor.query());
        RunResult<String, Reading, String> tally = strings.runBatch(reading("a", 10, 0));

        Throwable failure = catchThrowable(() -> assertThat(tally).outputs().containsExactly("a=2"));
        assertThat(failure).hasMessageNotContaining("encoded value");
        assertThat(tally.droppedLate()).isEqualTo(List.of());
    }
}
