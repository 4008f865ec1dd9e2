package dev.twstester.property;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

import scala.jdk.javaapi.CollectionConverters;

/**
 * A derived try whose scenario only adds steps to its parent's goes on from the parent's simulator
 * ({@link LiveRun}): every try's run and the coverage must be what running each whole scenario on
 * a new simulator gives.
 */
class ContinuedRunTest {
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    /** {@link ProbeProcessor}'s count per key; a checkout also arms a timer 5 s on, which emits the count and clears it. */
    public static class Armed extends ProbeProcessor {
        private transient boolean eventTime;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            super.init(outputMode, timeMode);
            eventTime = timeMode.equals(TimeMode.EventTime());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<ProbeEvent> rows,
                TimerValues timers) {
            List<ProbeEvent> all = new ArrayList<>();
            while (rows.hasNext()) {
                all.add(rows.next());
            }
            for (ProbeEvent e : all) {
                if (e.getKind().equals("checkout")) {
                    getHandle().registerTimer((eventTime ? e.getTs().getTime() : timers.getCurrentProcessingTimeInMs())
                            + 5_000);
                }
            }
            return super.handleInputRows(key, CollectionConverters.asScala(all.iterator()), timers);
        }

        @Override
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timers,
                ExpiredTimerInfo expired) {
            String out = key + ":timer:" + (count.exists() ? count.get() : 0L);
            count.clear();
            return CollectionConverters.asScala(List.of(out).iterator());
        }
    }

    private static TwsQuery<String, ProbeEvent, String> query(TimeMode mode, Duration delay) {
        TwsQuery.Builder<String, ProbeEvent, String> b = TwsQuery.builder(Armed::new)
                .keyBy(ProbeEvent::getKey, Encoders.STRING()).input(Encoders.bean(ProbeEvent.class))
                .output(Encoders.STRING()).timeMode(mode).outputMode(OutputMode.Update());
        return delay == null ? b.build() : b.watermark("ts", delay).build();
    }

    @Test
    void event_time_tries_with_restarts_and_late_rows_run_as_their_whole_scenarios_do() {
        Duration delay = Duration.ofSeconds(10);
        ScenarioGenerator gen = ScenarioGenerator.create().keys("x", "y", "z").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(delay).batches(2, 6).restartChance(0.2)
                .interestingDurations(Duration.ofSeconds(5));
        assertSameRuns(gen, query(TimeMode.EventTime(), delay));
    }

    @Test
    void processing_time_tries_with_trigger_intervals_run_as_their_whole_scenarios_do() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("x", "y").variants("add", "checkout")
                .timeMode(TimeMode.ProcessingTime()).batches(2, 6).restartChance(0.2)
                .triggerIntervals(Duration.ZERO, Duration.ofSeconds(2)).interestingDurations(Duration.ofSeconds(5));
        assertSameRuns(gen, query(TimeMode.ProcessingTime(), null));
    }

    /** Feedback tries with and without going on from a parent's run: the same runs, the same table; some went on. */
    private void assertSameRuns(ScenarioGenerator gen, TwsQuery<String, ProbeEvent, String> query) {
        List<RunResult<String, ProbeEvent, String>> continued = new ArrayList<>();
        List<RunResult<String, ProbeEvent, String>> whole = new ArrayList<>();
        PropertyResult a = property(gen, query, true).check(run -> record(continued, run));
        PropertyResult b = property(gen, query, false).check(run -> record(whole, run));

        assertThat(continued).hasSize(150).isEqualTo(whole);
        assertThat(a.coverage().format()).isEqualTo(b.coverage().format());
        assertThat(a.coverage().share("timer fired: EventTime") + a.coverage().share("timer fired: ProcessingTime"))
                .isGreaterThan(0);
        assertThat(sharedPrefixes(continued)).isGreaterThan(5);     // tries that went on from a parent's run
        assertThat(sharedPrefixes(whole)).isZero();
    }

    private QueryProperty<String, ProbeEvent, String> property(ScenarioGenerator gen,
            TwsQuery<String, ProbeEvent, String> query, boolean continueRuns) {
        return Property.forAll(gen).tries(150).seed(5)
                .environment(Map.<String, String>of()::get, new PrintStream(printed, true, StandardCharsets.UTF_8))
                .runs(query, ProbeEvent::of).feedback().classifyOutput("timer", o -> o.contains(":timer:"))
                .target("timer").continueRuns(continueRuns);
    }

    private static Optional<String> record(List<RunResult<String, ProbeEvent, String>> runs,
            RunResult<String, ProbeEvent, String> run) {
        runs.add(run);
        return Optional.empty();
    }

    /** Runs whose first batch is the very object an earlier run's first batch is: they share their parent's batches. */
    private static long sharedPrefixes(List<RunResult<String, ProbeEvent, String>> runs) {
        long n = 0;
        for (int i = 1; i < runs.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (!runs.get(i).batches().isEmpty() && !runs.get(j).batches().isEmpty()
                        && runs.get(i).batches().get(0) == runs.get(j).batches().get(0)) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }
}
