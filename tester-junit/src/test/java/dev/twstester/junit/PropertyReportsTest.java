package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.property.Property;
import dev.twstester.property.PropertyResult;
import dev.twstester.property.ScenarioGenerator;

/** The coverage table in the JUnit report and on the failure timeline page. */
class PropertyReportsTest {
    private static final TwsQuery<String, Reading, Alert> QUERY = AlertProcessor.query();

    @Test
    void the_table_is_a_report_entry_and_the_failure_page_shows_it() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("s1", "s2").timeMode(TimeMode.None());
        PropertyResult result = Property.forAll(gen).seed(1).tries(20).runs(QUERY, Reading::new)
                .classify("has output", run -> !run.outputs().isEmpty())
                .check(run -> run.outputs().size() > 2 ? Optional.of("more than two alerts") : Optional.empty());

        Map<String, String> entries = new LinkedHashMap<>();
        PropertyReports.publish(entries::putAll, result);
        assertThat(entries).containsOnlyKeys(PropertyReports.COVERAGE_ENTRY);
        assertThat(entries.get(PropertyReports.COVERAGE_ENTRY)).startsWith("Coverage of " + result.triesRun() + " tries")
                .contains("has output", "handler: handleInputRows");

        String html = PropertyReports.failureTimeline(QUERY, Reading::new, result).html();
        assertThat(html).contains("<details class=\"coverage\" open><summary>Coverage of " + result.triesRun() + " tries",
                "<b>has output</b>");
        assertThat(result.failure()).isPresent();
        assertThat(html).contains("shrunk failure of try", "more than two alerts");
    }
}
