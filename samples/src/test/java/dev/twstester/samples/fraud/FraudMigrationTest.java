package dev.twstester.samples.fraud;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.TwsQuery;
import dev.twstester.junit.DifferentialProperty;
import dev.twstester.property.PropertyResult;
import dev.twstester.property.ScenarioGenerator;

/**
 * The migration check between the fraud state machine ({@code mapGroupsWithState}) and its
 * {@code transformWithState} port: the same generated payments and clock moves, the same answers
 * batch by batch; and a port that gets the timeout boundary wrong is caught.
 */
class FraudMigrationTest {

    static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("c1", "c2").variants("small", "high")
                .timeMode(TimeMode.ProcessingTime())
                .processingTimeSteps(Duration.ofMinutes(5), Duration.ofMinutes(20))
                .interestingDurations(CardRules.DEFAULT.suspiciousFor())
                .batches(2, 8).eventsPerBatch(0, 3).restartChance(0.1)
                .triggerIntervals(Duration.ZERO, Duration.ofMinutes(1));
    }

    static Payment payment(String card, long ms, int variant) {
        return new Payment(card, "shop", variant == 0 ? 20_00 : 1_200_00);
    }

    private static DifferentialProperty<String, Payment, CardStatus> check(TwsQuery<String, Payment, CardStatus> port) {
        return DifferentialProperty.migration(FraudStateMachine.query(), port, generator(), FraudMigrationTest::payment);
    }

    @TestFactory
    Stream<DynamicTest> the_port_answers_as_the_state_machine_on_the_simulator() {
        return check(FraudStateProcessor.query()).tries(40).dynamicTests();
    }

    @Tag("live")
    @TestFactory
    Stream<DynamicTest> the_port_answers_as_the_state_machine_on_live_spark() {
        return check(FraudStateProcessor.query()).onSpark().tries(3).dynamicTests();
    }

    @Test
    void a_port_whose_timer_fires_at_the_legacy_timeout_instead_of_after_it_is_caught(@TempDir Path failures) {
        DifferentialProperty<String, Payment, CardStatus> check = check(naivePort()).saveFailuresTo(failures);
        PropertyResult result = null;
        for (long seed = 1; seed <= 40 && (result == null || result.passed()); seed++) {
            result = check.checkSeed(seed);
        }
        assertThat(result.passed()).as("one of 40 seeds puts a trigger exactly on a timeout").isFalse();
        String message = result.failure().orElseThrow().message();
        // the naive port answers TIMED_OUT one batch early: only the new version has it there
        assertThat(message).contains("outputs differ").containsPattern("only in new: \\[.*TIMED_OUT");
    }

    /** The port with a timer at the legacy timeout itself: Spark fires it one trigger too early. */
    private static TwsQuery<String, Payment, CardStatus> naivePort() {
        return FraudStateProcessor.query(NaivePort::new);
    }

    static final class NaivePort extends FraudStateProcessor {
        private static final long serialVersionUID = 1L;

        @Override
        protected long expiryFor(long batchTimeMs, long durationMs) {
            return batchTimeMs + durationMs;
        }
    }
}
