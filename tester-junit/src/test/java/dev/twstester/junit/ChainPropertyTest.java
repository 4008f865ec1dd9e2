package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.property.PropertyResult;
import dev.twstester.property.ScenarioGenerator;

/**
 * {@link DifferentialProperty} on a query of two operators ({@link ZoneRelay#chain()}), both versions
 * on the simulator: the generator takes the chain's time mode and watermark, equal versions agree,
 * and a first operator that passes on what it should hold back is caught and shrunk.
 */
class ChainPropertyTest {
    static ScenarioGenerator generator() {
        // kinds 0 to 5: 1 registers a timer in the tally, 5 is held back by the relay
        return ScenarioGenerator.create().keys("a1", "a2", "b1").variants(6).batches(2, 5).eventsPerBatch(0, 4)
                .eventTimeBase(Instant.parse("2024-05-01T10:00:00Z")).eventTimeSpread(Duration.ofSeconds(30));
    }

    @Test
    void equal_versions_of_a_chain_agree_on_every_try(@TempDir Path failures) {
        DifferentialProperty<String, Reading, String> check = DifferentialProperty.migration(ZoneRelay.chain(),
                ZoneRelay.chain(), generator(), Reading::new).saveFailuresTo(failures);
        for (long seed = 1; seed <= 15; seed++) {
            PropertyResult result = check.checkSeed(seed);
            assertThat(result.passed()).as("seed %d: %s", seed, result.report()).isTrue();
        }
    }

    @Test
    void a_first_operator_that_passes_on_kind_5_is_caught_and_shrunk_to_that_event(@TempDir Path failures) {
        DifferentialProperty<String, Reading, String> check = DifferentialProperty.migration(ZoneRelay.chain(),
                ZoneRelay.chain(false), generator(), Reading::new).saveFailuresTo(failures).shrinkAttempts(80);
        PropertyResult result = null;
        for (long seed = 1; seed <= 20 && (result == null || result.passed()); seed++) {
            result = check.checkSeed(seed);
        }

        assertThat(result.passed()).as("one of 20 seeds has a kind 5 event").isFalse();
        assertThat(result.failure().orElseThrow().message()).containsPattern("batch \\d+ \\(data batch\\)")
                .contains("outputs differ");
        assertThat(result.failure().orElseThrow().shrunk().eventCount()).isEqualTo(1);
        assertThat(result.failure().orElseThrow().shrunk().describe()).contains(" v5");
    }
}
