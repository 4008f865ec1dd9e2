package dev.twstester.junit.assertj;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.junit.assertj.TwsAssertions.catchThrowable;

import java.time.Instant;

import org.assertj.core.error.AssertJMultipleFailuresError;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.junit.Reading;
import dev.twstester.junit.TallyProcessor;
import dev.twstester.junit.TestSimulator;

/** Soft assertions collect every failure, navigation included, and report them together. */
class TwsSoftAssertionsTest {

    @Test
    void collects_failures_of_simulator_run_and_batch_assertions_and_of_their_navigation() {
        // GIVEN
        TestSimulator<String, Reading, String> sim = TestSimulator.of("sim", TallyProcessor.query());
        RunResult<String, Reading, String> run = sim.runBatch(reading("a", 10, 1));
        TwsSoftAssertions softly = new TwsSoftAssertions();

        // WHEN
        softly.assertThat(sim).valueState("count", "a").contains(2L);
        softly.assertThat(sim).hasWatermark(Instant.EPOCH).timers("a").isEmpty();
        softly.assertThat(run).hasBatchIds(0, 1).outputs().containsExactly("a=1");
        softly.assertThat(run.lastBatch()).isDataBatch().firedTimers().isEmpty();
        softly.assertThat(sim).lastBatch().outputs().hasSize(3);
        softly.assertThat(1).isEqualTo(1);
        Throwable error = catchThrowable(softly::assertAll);

        // THEN
        assertThat(error).isInstanceOf(AssertJMultipleFailuresError.class);
        assertThat(((AssertJMultipleFailuresError) error).getFailures())
                .extracting(TwsSoftAssertionsTest::withoutLocation).containsExactly(
                "[value state 'count' of key \"a\" after batch 1] \nExpecting actual:\n  Optional[1]\nto contain:\n  2L\n"
                        + "but did not.",
                "\nExpecting watermark of simulator 'sim' after batch 1:\n  1970-01-01T00:00:05Z\nto be:\n"
                        + "  1970-01-01T00:00:00Z",
                "[timers of key \"a\" after batch 1] \nExpecting empty but was: [1970-01-01T00:00:12Z]",
                "\nExpecting batch 1 to be a data batch, but it is a no-data batch (run after the watermark moved or on "
                        + "a clock tick)",
                "[outputs of batch 1] \nExpected size: 3 but was: 0 in:\n[]");
    }

    /** A soft failure's message ends with the line of the assertion: "\nat TwsSoftAssertionsTest.x(...)". */
    private static String withoutLocation(Throwable failure) {
        String message = failure.getMessage();
        return message.substring(0, message.lastIndexOf("\nat TwsSoftAssertionsTest."));
    }
}
