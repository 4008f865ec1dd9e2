package dev.twstester.junit;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;

import dev.twstester.TwsQuery;

/** {@code @TwsTest(strict = true)} warns once per JVM about a row class without equals(). */
class StrictRowEqualityTest {
    @TempDir
    Path traces;

    @Test
    void strict_mode_warns_once_about_a_row_class_without_equals() {
        EngineExecutionResults results = Kit.run(StrictWithABean.class, traces);

        Kit.assertPassed(results, 2);
        List<String> warnings = results.allEvents().reportingEntryPublished().stream()
                .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs().get("twstester.warning"))
                .filter(java.util.Objects::nonNull).toList();
        assertThat(warnings).containsExactly("twstester: warning: dev.twstester.junit.Alert has no equals(); "
                + "TwsAssertions compare its rows by their encoded value, as Spark does, but assertEquals, List.contains "
                + "and AssertJ assertions not made through TwsAssertions compare identity, and the simulator's rows "
                + "are copies made through the encoder; add equals() and hashCode() to Alert");
    }

    @ExampleOnly
    @TwsTest(strict = true)
    static class StrictWithABean {
        static TwsQuery<String, Reading, Alert> query() {
            return AlertProcessor.query();
        }

        @Simulator TestSimulator<String, Reading, Alert> sim;

        @Test
        void one() {
            assertThat(sim.runBatch(reading("a", 10, 0))).outputs().containsExactly(Alert.of("a", 1));
        }

        @Test
        void two() {
            assertThat(sim.runBatch(reading("b", 10, 0))).outputs().containsExactly(Alert.of("b", 1));
        }
    }
}
