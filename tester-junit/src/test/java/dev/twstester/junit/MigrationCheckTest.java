package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.TwsQuery;
import dev.twstester.property.PropertyResult;
import dev.twstester.property.ScenarioGenerator;

import scala.jdk.javaapi.CollectionConverters;

/** DifferentialProperty.migration on the simulator: a faithful port passes, a port one millisecond off is caught. */
class MigrationCheckTest {

    private static TwsQuery<String, Reading, String> query(java.util.function.Supplier<StatefulProcessor<String, Reading, String>> processor) {
        return Reading.eventTimeQuery(processor, OutputMode.Update());
    }

    private static DifferentialProperty<String, Reading, String> check(long timerSlackMs, Path failures) {
        ScenarioGenerator generator = ScenarioGenerator.create().keys("a", "b").variants(2).batches(2, 5)
                .eventsPerBatch(0, 4).eventTimeBase(Instant.parse("2024-05-01T10:00:00Z"))
                .eventTimeSpread(Duration.ofSeconds(30));
        return DifferentialProperty.migration(query(EchoProcessor::new), query(() -> new EchoPort(timerSlackMs)),
                generator, Reading::new).saveFailuresTo(failures).shrinkAttempts(40);
    }

    @Test
    void a_port_that_keeps_its_state_in_other_variables_agrees(@TempDir Path failures) {
        DifferentialProperty<String, Reading, String> check = check(0, failures);
        for (long seed = 1; seed <= 20; seed++) {
            PropertyResult result = check.checkSeed(seed);
            assertThat(result.passed()).as("seed %d: %s", seed, result.report()).isTrue();
        }
    }

    @Test
    void a_port_whose_timers_fire_a_millisecond_late_is_caught_and_shown_batch_by_batch(@TempDir Path failures) {
        DifferentialProperty<String, Reading, String> check = check(1, failures);
        PropertyResult result = null;
        for (long seed = 1; seed <= 20 && (result == null || result.passed()); seed++) {
            result = check.checkSeed(seed);
        }
        assertThat(result.passed()).as("one of 20 seeds fires a timer").isFalse();
        String message = result.failure().orElseThrow().message();
        assertThat(message).containsPattern("batch \\d+ \\((no-)?data batch\\)(, key \\w)?: outputs differ")
                .containsPattern("\\n  old: .*:timer:\\d+000\\b").containsPattern("\\n  new: .*:timer:\\d+001\\b");
    }

    @Test
    void on_spark_is_for_migration_checks_only() {
        assertThatThrownBy(() -> DifferentialProperty.of(query(EchoProcessor::new), ScenarioGenerator.create(),
                Reading::new).onSpark())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("onSpark() is for a migration check");
    }

    /** EchoProcessor ported: the count in a map state, timers {@code slackMs} after the original's. */
    static final class EchoPort extends StatefulProcessor<String, Reading, String> {
        private final long slackMs;
        private transient MapState<String, Long> counts;

        EchoPort(long slackMs) {
            this.slackMs = slackMs;
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            counts = getHandle().getMapState("counts", Encoders.STRING(), Encoders.LONG(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Reading> rows,
                TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            long n = counts.containsKey("n") ? counts.getValue("n") : 0;
            while (rows.hasNext()) {
                Reading r = rows.next();
                n++;
                out.add(key + ":" + r.getTs().getTime() + ":" + n);
                if (r.getKind() == 1) {
                    getHandle().registerTimer(r.getTs().getTime() + 2000 + slackMs);
                }
            }
            counts.updateValue("n", n);
            return CollectionConverters.asScala(out.iterator());
        }

        @Override
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo info) {
            return CollectionConverters.asScala(List.of(key + ":timer:" + info.getExpiryTimeInMs()).iterator());
        }
    }
}
