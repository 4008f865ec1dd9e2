package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.TwsQuery;
import dev.twstester.property.PropertyResult;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.sim.Fault;
import dev.twstester.sim.TwsSimulator;

/** The differential property against live Spark: it passes on the real simulator and catches a broken one. */
@Tag("live")
class DifferentialPropertyTest {

    private static TwsQuery<String, Reading, String> query(OutputMode outputMode) {
        return Reading.eventTimeQuery(EchoProcessor::new, outputMode);
    }

    private static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("a", "b").variants(2).timeMode(TimeMode.EventTime())
                .batches(2, 5).eventsPerBatch(0, 4)
                .eventTimeBase(Instant.parse("2024-05-01T10:00:00Z")).eventTimeSpread(Duration.ofSeconds(30))
                .watermarkDelay(Duration.ofSeconds(5));
    }

    private static DifferentialProperty<String, Reading, String> property(OutputMode mode) {
        return DifferentialProperty.of(query(mode), generator(), Reading::new);
    }

    @Test
    void shuffle_partitions_need_a_valid_range() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> property(OutputMode.Update()).shufflePartitions(0, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shufflePartitions(0, 2): need 1 <= min <= max");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> property(OutputMode.Update()).shufflePartitions(3, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shufflePartitions(3, 2): need 1 <= min <= max");
    }

    @TestFactory
    Stream<DynamicTest> the_simulator_agrees_with_spark_on_generated_scenarios() {
        return property(OutputMode.Update()).tries(5).dynamicTests();
    }

    /**
     * As {@link EchoProcessor}, but it stores its count times 1000 (and divides when reading):
     * the same outputs, timers and metrics, another state.
     */
    public static class ScaledCount extends EchoProcessor {
        private transient org.apache.spark.sql.streaming.ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Encoders.LONG(),
                    org.apache.spark.sql.streaming.TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Reading> rows,
                TimerValues timerValues) {
            java.util.List<String> out = new java.util.ArrayList<>();
            long n = count.exists() ? count.get() / 1000 : 0;
            while (rows.hasNext()) {
                Reading r = rows.next();
                n++;
                out.add(key + ":" + r.getTs().getTime() + ":" + n);
                if (r.getKind() == 1) {
                    getHandle().registerTimer(r.getTs().getTime() + 2000);
                }
            }
            count.update(n * 1000);
            return scala.jdk.javaapi.CollectionConverters.asScala(out.iterator());
        }
    }

    @Test
    void a_simulator_that_ends_with_other_state_is_caught_by_the_end_state_comparison(@TempDir Path failures) {
        // the simulators run ScaledCount, Spark EchoProcessor: batches agree, the stored counts do not
        DifferentialProperty<String, Reading, String> property = property(OutputMode.Update()).shrinkAttempts(20)
                .saveFailuresTo(failures)
                .simulators(q -> new TwsSimulator<>(TwsQuery.builder(ScaledCount::new)
                        .keyBy(Reading::getSensor, Encoders.STRING()).input(Encoders.bean(Reading.class))
                        .output(Encoders.STRING()).timeMode(TimeMode.EventTime()).outputMode(OutputMode.Update())
                        .watermark("ts", Duration.ofSeconds(5)).build()
                        .withShufflePartitions(q.shufflePartitions()).withTrigger(q.trigger())));
        PropertyResult result = null;
        for (long seed = 1; seed <= 5 && (result == null || result.passed()); seed++) {
            result = property.checkSeed(seed);
        }
        assertThat(result.passed()).as("a scenario with a row exposes the state").isFalse();
        PropertyResult.Failure failure = result.failure().orElseThrow();
        assertThat(failure.shrunk().eventCount()).isEqualTo(1);
        assertThat(failure.message()).containsPattern("end state after batch \\d+, key [ab]: state variable 'count'"
                + " differs\n  simulator: 1000\n  spark:     1");
    }

    @Test
    void a_simulator_with_the_late_filter_on_the_wrong_watermark_is_caught_and_shrunk(@TempDir Path failures) throws Exception {
        // Complete output mode: no no-data batches, so a data batch's late and eviction watermarks differ
        // only this property's simulators have the fault
        DifferentialProperty<String, Reading, String> property = property(OutputMode.Complete())
                .shrinkAttempts(40).saveFailuresTo(failures)
                .simulators(q -> Fault.inject(TwsSimulator.builder(q), Fault.LATE_FILTER_USES_CURRENT_WATERMARK).build());
        PropertyResult result = null;
        for (long seed = 1; seed <= 12 && (result == null || result.passed()); seed++) {
            result = property.checkSeed(seed);
        }
        assertThat(result.passed()).as("one of 12 seeds exposes the fault").isFalse();
        PropertyResult.Failure failure = result.failure().orElseThrow();
        assertThat(failure.shrunk().eventCount()).isLessThanOrEqualTo(3);
        assertThat(failure.message()).contains("batch");
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> property.assertAgreement(failure.seed()));
        assertThat(thrown).isInstanceOf(AssertionError.class).hasMessageContaining("-Dtwstester.seed=" + failure.seed());
        try (Stream<Path> saved = Files.list(failures.resolve("EchoProcessor-seed" + failure.seed()))) {
            assertThat(saved.map(p -> p.getFileName().toString())).contains("001.jsonl", "scenario.txt");
        }
        // the same seed on a property with the simulators Spark's rules give passes
        assertThat(property(OutputMode.Complete()).checkSeed(failure.seed()).passed()).isTrue();
    }
}
