package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.twstester.BatchResult;
import dev.twstester.ProcessorException;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.SharedNameProcessor;
import dev.twstester.sim.SparkLine;
import dev.twstester.sim.TwsSimulator;

/**
 * A value or list variable and then a map variable of one name (docs/semantics.md 2.5), which
 * Spark's {@code getMapState} accepts: both engines keep each variable's entries apart for point
 * operations, across a restart, with and without TTL, and fail the batch of the first map
 * operation that scans a key's entries with {@code TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR}
 * ("requirement failed: Prefix scan requires setting prefix key!"), even with nothing stored.
 */
@Tag("live")
class LiveSharedNameTest {

    /** Batch 0, a restart, batch 1, batch 2: each batch one row of '+'-joined operations for key "a". */
    private static Scenario<String> scenario(String b0, String b1, String b2) {
        return Scenario.<String>builder().batchAt(Instant.ofEpochMilli(1000), List.of("a:" + b0)).stop().start()
                .batchAt(Instant.ofEpochMilli(2000), List.of("a:" + b1))
                .batchAt(Instant.ofEpochMilli(3000), List.of("a:" + b2)).build();
    }

    /** {@code expected}: the outputs of the batches that ran, then "fails at N" when batch N fails. */
    @ParameterizedTest(name = "{0} ttl={1}: {2} / {3} / {4}")
    @CsvSource(delimiter = '|', value = {
        "value|false|value-update+map-update+value-get+map-get|map-contains+value-clear+map-get+value-get|map-remove+map-get+value-get"
            + "|a:value-update=ok;map-update=ok;value-get=5;map-get=7, a:map-contains=true;value-clear=ok;map-get=7;value-get=null,"
            + " a:map-remove=ok;map-get=null;value-get=null",
        "list|false|list-append+map-update+list-get|list-clear+map-get+list-get|map-remove+list-get"
            + "|a:list-append=ok;map-update=ok;list-get=some, a:list-clear=ok;map-get=7;list-get=none, a:map-remove=ok;list-get=none",
        "value|true|value-update+map-update|map-get+value-get|value-clear+map-get"
            + "|a:value-update=ok;map-update=ok, a:map-get=7;value-get=5, a:value-clear=ok;map-get=7",
        "value|false|value-update+map-update|map-exists|value-get|a:value-update=ok;map-update=ok, fails at 1",
        "value|false|map-keys|value-get|value-get|fails at 0",
        "value|false|map-values|value-get|value-get|fails at 0",
        "value|false|value-update|map-iterator|value-get|a:value-update=ok, fails at 1",
        "list|false|map-update|map-clear|value-get|a:map-update=ok, fails at 1",
        "list|true|map-keys|value-get|value-get|fails at 0",
    })
    void a_map_sharing_a_name_keeps_its_entries_and_fails_its_first_scan_on_both_engines(String first, boolean ttl,
            String b0, String b1, String b2, String expected) {
        TwsQuery<String, String, String> query = SharedNameProcessor.query(first, ttl);
        Scenario<String> scenario = scenario(b0, b1, b2);
        RunResult<String, String, String> live = null;
        LiveRunException liveError = null;
        try {
            live = LiveRunner.of(query).run(scenario);
        } catch (LiveRunException e) {
            liveError = e;
        }
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query);
        Throwable simError = catchThrowable(() -> sim.run(scenario));

        List<? extends BatchResult<?, ?, ?>> liveBatches = live != null ? live.batches() : liveError.completed();
        assertThat(describe(liveBatches, liveError)).as("live Spark").isEqualTo(expected);
        assertThat(describe(sim.history().batches(), simError)).as("the simulator").isEqualTo(expected);
        if (liveError == null) {
            assertThat(simError).as("the simulator").isNull();
            RunComparison.simulatorVsSpark().assertSame(sim.history(), live);
            return;
        }
        // Spark 4.0 wraps no user exception: the stage fails with it, without an error class
        assertThat(liveError.errorClass()).isEqualTo(SparkLine.onClassPath() == SparkLine.V4_0 ? Optional.empty()
                : Optional.of("TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR"));
        assertThat(simError).isInstanceOf(ProcessorException.class);
        assertThat(Optional.ofNullable(((ProcessorException) simError).getCondition())).isEqualTo(liveError.errorClass());
        for (Throwable error : List.of(liveError, simError)) {
            assertThat(rootMessage(error)).isEqualTo("requirement failed: Prefix scan requires setting prefix key!");
        }
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    private static String describe(List<? extends BatchResult<?, ?, ?>> batches, Throwable failure) {
        List<String> parts = new ArrayList<>();
        batches.forEach(b -> parts.add(b.outputs().stream().map(String::valueOf).collect(Collectors.joining(" | "))));
        if (failure != null) {
            parts.add("fails at " + batches.size());
        }
        return String.join(", ", parts);
    }
}
