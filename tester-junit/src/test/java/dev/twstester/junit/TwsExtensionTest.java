package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

import dev.twstester.ProcessorException;

/** The {@code @TwsTest} extension, run on the example classes of {@link TwsExtensionExamples} through EngineTestKit. */
class TwsExtensionTest {
    static final String FAILING_TIMELINE = """
            timeline of simulator 'sim' (TallyProcessor, EventTime mode, Update output, watermark on ts delayed PT5S): \
            3 calls, 4 batches; times in UTC
            #1 runBatch(2 rows)
              batch 0 (data), processing time 1970-01-01T00:00:00Z
                input: 2 rows, dropped late: none
                watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
                outputs: 2
                  a=1
                  b=1
                timers fired: none
              batch 1 (no data), processing time 1970-01-01T00:00:00Z
                input: 0 rows, dropped late: none
                watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:06Z
                outputs: none
                timers fired: none
              state changes:
                key a, value state count: (none) -> 1
                key a, list state kinds: (none) -> [0]
                key a, map state perKind: (none) -> {0=1}
                key b, value state count: (none) -> 1
                key b, list state kinds: (none) -> [1]
                key b, map state perKind: (none) -> {1=1}
                key b, timers: (none) -> [1970-01-01T00:00:13Z]
            #2 state().setValue("count", a, 41)
              no batch ran
              state changes:
                key a, value state count: 1 -> 41
            #3 runBatch(2 rows)
              batch 2 (data), processing time 1970-01-01T00:00:00Z
                input: 2 rows, dropped late: 1
                  b@1970-01-01T00:00:03Z#0
                watermark: late 1970-01-01T00:00:06Z, eviction 1970-01-01T00:00:06Z
                outputs: 1
                  a=42
                timers fired: none
              batch 3 (no data), processing time 1970-01-01T00:00:00Z
                input: 0 rows, dropped late: none
                watermark: late 1970-01-01T00:00:06Z, eviction 1970-01-01T00:00:15Z
                outputs: 1
                  b timer 1970-01-01T00:00:13Z
                timers fired: [b@1970-01-01T00:00:13Z]
              state changes:
                key a, value state count: 41 -> 42
                key a, list state kinds: [0] -> [0, 0]
                key a, map state perKind: {0=1} -> {0=2}
                key b, value state count: 1 -> (none)
                key b, list state kinds: [1] -> (none)
                key b, map state perKind: {1=1} -> (none)
                key b, timers: [1970-01-01T00:00:13Z] -> (none)
            now: watermark 1970-01-01T00:00:15Z, processing time 1970-01-01T00:00:00Z, next batch 4""";

    @TempDir
    Path traces;

    @Test
    void simulators_are_injected_into_fields_and_parameters_fresh_per_test_and_shared_when_static() {
        // WHEN
        EngineExecutionResults results = Kit.run(TwsExtensionExamples.Passing.class, traces);

        // THEN
        results.testEvents().assertStatistics(s -> s.started(3).succeeded(3).failed(0));
        assertThat(traces).isEmptyDirectory();
    }

    @Test
    void simulator_faults_reach_the_simulators_the_extension_makes_for_the_class_and_no_other() {
        // WHEN
        EngineExecutionResults results = Kit.run(TwsExtensionExamples.WithAFaultySimulator.class, traces);

        // THEN
        Kit.assertPassed(results, 1);
    }

    @Test
    void a_failing_test_carries_the_timeline_of_each_simulator_and_keeps_its_trace_files() throws Exception {
        // WHEN
        EngineExecutionResults results = Kit.run(TwsExtensionExamples.Failing.class, traces);

        // THEN
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        Throwable failure = Kit.failure(results);
        assertThat(failure).hasMessage("""
                [value state 'count' of key "a" after batch 3]\s
                Expecting actual:
                  Optional[42]
                to contain:
                  41L
                but did not.""");
        Path files = traces.resolve("dev.twstester.junit.TwsExtensionExamples$Failing").resolve("fails").resolve("sim");
        assertThat(failure.getSuppressed()).hasSize(1);
        SimulatorTrace trace = (SimulatorTrace) failure.getSuppressed()[0];
        assertThat(trace).hasMessage(FAILING_TIMELINE + "\ntrace files: " + files);
        assertThat(trace.files()).contains(files);
    }

    @Test
    void the_trace_files_replay_the_input_batch_by_batch() throws Exception {
        // WHEN
        Kit.run(TwsExtensionExamples.Failing.class, traces);

        // THEN
        Path files = traces.resolve("dev.twstester.junit.TwsExtensionExamples$Failing").resolve("fails").resolve("sim");
        try (var listing = Files.list(files)) {
            assertThat(listing.map(p -> p.getFileName().toString()).sorted())
                    .containsExactly("001.jsonl", "002.jsonl", "_timeline.html", "_timeline.jsonl", "scenario.txt");
        }
        assertThat(files.resolve("001.jsonl")).hasContent("""
                {"kind":0,"sensor":"a","ts":"1970-01-01T00:00:10Z"}
                {"kind":1,"sensor":"b","ts":"1970-01-01T00:00:11Z"}""");
        assertThat(files.resolve("002.jsonl")).hasContent("""
                {"kind":0,"sensor":"a","ts":"1970-01-01T00:00:20Z"}
                {"kind":0,"sensor":"b","ts":"1970-01-01T00:00:03Z"}""");
        assertThat(Files.readString(files.resolve("scenario.txt"))).isEqualTo("""
                # replay plan: one line per step, in order; input files hold one JSON row per line
                input 001.jsonl at=current
                # call 2, state().setValue("count", a, 41): no replay step (a streaming query's state starts empty \
                (or from the query's initial state); write it through input rows or TwsQuery.Builder.initialState instead)
                input 002.jsonl at=current

                """ + FAILING_TIMELINE + "\n");
        List<String> timeline = Files.readAllLines(files.resolve("_timeline.jsonl"));
        assertThat(timeline).hasSize(24);
        assertThat(timeline.get(0)).isEqualTo("{\"format\":\"twstester-timeline\",\"version\":1,"
                + "\"test\":\"dev.twstester.junit.TwsExtensionExamples$Failing#fails()\",\"simulator\":\"sim\","
                + "\"processor\":\"dev.twstester.junit.TallyProcessor\",\"timeMode\":\"EventTime\",\"outputMode\":\"Update\","
                + "\"watermarkDelay\":\"PT5S\",\"eventTimeColumn\":\"ts\",\"failure\":\"org.opentest4j.AssertionFailedError: "
                + "[value state 'count' of key \\\"a\\\" after batch 3] \\nExpecting actual:\\n  Optional[42]\\nto contain:"
                + "\\n  41L\\nbut did not.\"}");
        assertThat(timeline.subList(1, 4)).containsExactly(
                "{\"call\":1,\"description\":\"runBatch(2 rows)\",\"steps\":[{\"step\":\"input\",\"file\":\"001.jsonl\","
                        + "\"rows\":2,\"at\":null}]}",
                "{\"call\":1,\"batch\":{\"batchId\":0,\"hadInput\":true,\"batchTimestamp\":\"1970-01-01T00:00:00Z\","
                        + "\"lateWatermark\":\"1970-01-01T00:00:00Z\",\"evictionWatermark\":\"1970-01-01T00:00:00Z\","
                        + "\"input\":[{\"kind\":0,\"sensor\":\"a\",\"ts\":\"1970-01-01T00:00:10Z\"},{\"kind\":1,"
                        + "\"sensor\":\"b\",\"ts\":\"1970-01-01T00:00:11Z\"}],\"droppedLate\":[],\"outputs\":[\"a=1\","
                        + "\"b=1\"],\"outputPartitions\":[0,0],\"firedTimers\":[],\"metrics\":{" + metrics(1, 6) + "}}}",
                "{\"call\":1,\"batch\":{\"batchId\":1,\"hadInput\":false,\"batchTimestamp\":\"1970-01-01T00:00:00Z\","
                        + "\"lateWatermark\":\"1970-01-01T00:00:00Z\",\"evictionWatermark\":\"1970-01-01T00:00:06Z\","
                        + "\"input\":[],\"droppedLate\":[],\"outputs\":[],\"firedTimers\":[],\"metrics\":{"
                        + metrics(0, 0) + "}}}");
        assertThat(timeline.get(4)).isEqualTo("{\"call\":1,\"stateChange\":{\"key\":\"a\",\"kind\":\"value\","
                + "\"variable\":\"count\",\"before\":null,\"after\":\"1\"}}");
        assertThat(timeline.get(23)).isEqualTo("{\"end\":true,\"watermark\":\"1970-01-01T00:00:15Z\","
                + "\"processingTime\":\"1970-01-01T00:00:00Z\",\"nextBatchId\":4}");
    }

    @Test
    void trace_files_are_written_for_passing_tests_too_when_asked() {
        // WHEN
        Kit.run(TwsExtensionExamples.Passing.class, traces, TwsTest.TRACE_MODE_PROPERTY, "always");

        // THEN
        Path passing = traces.resolve("dev.twstester.junit.TwsExtensionExamples$Passing");
        assertThat(passing.resolve("a_field_and_a_parameter_get_simulators").resolve("sim").resolve("001.jsonl"))
                .hasContent("{\"kind\":0,\"sensor\":\"a\",\"ts\":\"1970-01-01T00:00:10Z\"}");
        assertThat(passing.resolve("a_field_and_a_parameter_get_simulators").resolve("shared").resolve("001.jsonl"))
                .exists();
    }

    @Test
    void no_trace_files_are_written_when_switched_off_but_the_timeline_is_still_attached() {
        // WHEN
        EngineExecutionResults results = Kit.run(TwsExtensionExamples.Failing.class, traces,
                TwsTest.TRACE_MODE_PROPERTY, "never");

        // THEN
        SimulatorTrace trace = (SimulatorTrace) Kit.failure(results).getSuppressed()[0];
        assertThat(trace).hasMessage(FAILING_TIMELINE);
        assertThat(trace.files()).isEmpty();
        assertThat(traces).isEmptyDirectory();
    }

    @Test
    void an_unknown_trace_mode_is_a_configuration_error() {
        // WHEN
        EngineExecutionResults results = Kit.run(TwsExtensionExamples.Failing.class, traces,
                TwsTest.TRACE_MODE_PROPERTY, "sometimes");

        // THEN
        assertThat(Kit.containerFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("configuration parameter twstester.trace is 'sometimes'; use on_failure, always or never");
    }

    @Test
    void a_processor_error_shows_the_failed_call_and_simulators_made_in_the_test_join_in() {
        // WHEN
        EngineExecutionResults results = Kit.run(TwsExtensionExamples.ThrowingProcessor.class, traces);

        // THEN
        Throwable failure = Kit.failure(results);
        assertThat(failure).isInstanceOf(ProcessorException.class);
        assertThat(failure.getSuppressed()).hasSize(2);
        assertThat(failure.getSuppressed()[0].getMessage()).contains("""
                #2 runBatch(1 row) threw ProcessorException: [TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR] An error occurred \
                in the user-defined function handleInputRows of the StatefulProcessor. Reason: kind 7 is not allowed \
                (sensor a). SQLSTATE: 39000 [twstester: function=handleInputRows, key=a, batch=2]
                  (the failing batch committed nothing)
                  no batch ran
                  state: unchanged
                now: watermark 1970-01-01T00:00:05Z, processing time 1970-01-01T00:00:00Z, next batch 2""");
        assertThat(failure.getSuppressed()[0].getMessage()).startsWith("timeline of simulator 'query' (");
        assertThat(failure.getSuppressed()[1].getMessage()).startsWith("timeline of simulator 'mine' (TallyProcessor, "
                + "EventTime mode, Update output, watermark on ts delayed PT5S): 1 call, 1 batch; times in UTC\n#1 runBatch(1 row)");
    }

    @Test
    void a_simulator_is_closed_when_its_test_ends() {
        // WHEN
        EngineExecutionResults results = Kit.run(TwsExtensionExamples.UsedAfterClose.class, traces);

        // THEN
        results.testEvents().assertStatistics(s -> s.started(2).succeeded(1).failed(1));
        assertThat(Kit.failure(results)).isInstanceOf(IllegalStateException.class).hasMessage("simulator 'sim' was "
                + "closed when test keeps_it() ended; a simulator belongs to one test (a static @Simulator field "
                + "shares one across a class)");
    }

    @Test
    void a_query_source_can_be_a_static_member_of_another_class() {
        Kit.run(TwsExtensionExamples.ExternalQuery.class, traces)
                .testEvents().assertStatistics(s -> s.started(1).succeeded(1));
    }

    /** The trace's metrics of TallyProcessor's batches: one variable of each kind, timers registered, rows updated. */
    private static String metrics(int registered, int updated) {
        return "\"numDeletedStateVars\":0,\"numDeletedTimers\":0,\"numExpiredTimers\":0,\"numListStateVars\":1,"
                + "\"numListStateWithTTLVars\":0,\"numMapStateVars\":1,\"numMapStateWithTTLVars\":0,"
                + "\"numRegisteredTimers\":" + registered + ",\"numRemovedStateRows\":0,\"numRowsDroppedByWatermark\":0,"
                + "\"numUpdatedStateRows\":" + updated + ",\"numValueStateVars\":1,\"numValueStateWithTTLVars\":0,"
                + "\"numValuesRemovedDueToTTLExpiry\":0";
    }
}
