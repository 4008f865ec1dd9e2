package com.example.doors;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.junit.assertj.TwsAssertions.catchThrowable;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

/**
 * DoorEvent is a bean without equals(): the simulator's rows are copies made through its encoder,
 * as Spark's are, and TwsAssertions compare them by their encoded value, as Spark compares rows.
 */
@TwsTest(strict = true)
class DoorEventRowsTest {
    static Instant at(int second) {
        return Instant.parse("2024-05-01T10:00:00Z").plusSeconds(second);
    }

    static TwsQuery<String, DoorEvent, String> query() {
        return DoorWatchTest.query();
    }

    @Simulator TestSimulator<String, DoorEvent, String> sim;

    /** Opens front, moves the watermark past it with back, then closes front too late. */
    private RunResult<String, DoorEvent, String> aLateClose() {
        sim.runBatch(DoorEvent.opened("front", at(0)));
        assertThat(sim.runBatch(DoorEvent.opened("back", at(100)))).outputs()
                .containsExactly("front open since 2024-05-01T10:00:00Z");
        return sim.runBatch(DoorEvent.closed("front", at(30)));
    }

    @Test
    void equal_rows_of_a_bean_without_equals_pass() {
        RunResult<String, DoorEvent, String> late = aLateClose();

        assertThat(late).droppedLate().containsExactly(DoorEvent.closed("front", at(30)));
        assertThat(late).lastBatch().input().containsExactly(DoorEvent.closed("front", at(30)));
        assertThat(late).outputs().isEmpty();
    }

    @Test
    void different_rows_fail_with_the_rows_fields_and_why_they_were_compared_by_value() {
        RunResult<String, DoorEvent, String> late = aLateClose();

        Throwable failure = catchThrowable(() -> assertThat(late).droppedLate()
                .containsExactly(DoorEvent.closed("back", at(30))));

        assertThat(failure).isInstanceOf(AssertionError.class)
                .hasMessageContaining("DoorEvent{\"door\":\"front\",\"open\":false,\"ts\":\"2024-05-01T10:00:30Z\"}")
                .hasMessageContaining("DoorEvent{\"door\":\"back\",\"open\":false,\"ts\":\"2024-05-01T10:00:30Z\"}")
                .hasMessageContaining("DoorEvent has no equals(), so its rows were compared by value, as Spark"
                        + " compares rows")
                .hasMessageNotContaining("DoorEvent@");
        assertThat(late).outputs().isEmpty();
    }
}
