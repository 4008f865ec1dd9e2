package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** Strict mode, run on {@link TwsExtensionExamples.Strict} through EngineTestKit. */
class TwsExtensionStrictTest {
    @TempDir
    Path traces;

    EngineExecutionResults results;

    @BeforeEach
    void run() {
        results = Kit.run(TwsExtensionExamples.Strict.class, traces);
    }

    @Test
    void outputs_read_through_the_output_handle_or_asserted_with_twsassertions_count_as_read() {
        results.testEvents().assertStatistics(s -> s.started(5).succeeded(2).failed(3));
        assertThat(results.testEvents().succeeded().list()).extracting(e -> e.getTestDescriptor().getDisplayName())
                .containsExactlyInAnyOrder("reads_them_all()", "asserts_them()");
    }

    @Test
    void a_passing_test_that_left_outputs_unread_fails() {
        Throwable failure = failure("leaves_outputs_unread()");

        assertThat(failure).isExactlyInstanceOf(AssertionError.class).hasMessage("""
                strict mode (@TwsTest(strict = true)): simulator 'sim' left 2 output rows unread:
                  batch 0: b=1
                  batch 2: a=2
                read them with sim.output().readAll() or assert them with TwsAssertions.assertThat(...).outputs()""");
        assertThat(failure.getSuppressed()).singleElement().isInstanceOf(SimulatorTrace.class);
    }

    @Test
    void a_passing_test_that_left_a_due_timer_unfired_fails() {
        Throwable failure = failure("leaves_a_due_timer()");

        assertThat(failure).hasMessage("""
                strict mode (@TwsTest(strict = true)): simulator 'sim' has 1 due timer that did not fire (at or before \
                the watermark 1970-01-01T00:00:05Z):
                  key a at 1970-01-01T00:00:04Z
                run another batch so they fire, e.g. sim.runBatch()""");
    }

    @Test
    void a_failing_test_reports_its_own_failure_only() {
        Throwable failure = failure("fails_on_its_own()");

        assertThat(failure.getMessage()).startsWith("[value state 'count' of key \"a\" after batch 1]");
        assertThat(failure.getSuppressed()).singleElement().isInstanceOf(SimulatorTrace.class);
    }

    private Throwable failure(String test) {
        return Kit.failure(results, test);
    }
}
