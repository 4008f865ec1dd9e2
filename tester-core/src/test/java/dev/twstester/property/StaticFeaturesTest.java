package dev.twstester.property;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.Scenario;

/** The static features of a generated scenario, and how the feedback generation's plain tries use them. */
class StaticFeaturesTest {
    private static final long T0 = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();
    private static final long MIN5 = Duration.ofMinutes(5).toMillis();

    @Test
    void a_scenario_has_its_step_orders_variant_sequences_counts_gaps_late_rows_and_keys() {
        GenScenario s = GenScenario.of(TimeMode.EventTime(), Scenario.<GenEvent>builder()
                .batch(List.of(new GenEvent("a", T0, 0), new GenEvent("a", T0 + MIN5, 1)))
                .batch(List.of())
                .stop().start()
                .batch(List.of(new GenEvent("b", T0, 0), new GenEvent("a", T0 + 2 * MIN5, 1)))
                .build().steps()).withWatermarkDelay(Duration.ofMinutes(1));

        int input = StepParts.Kind.INPUT.ordinal();
        int stop = StepParts.Kind.STOP.ordinal();
        int start = StepParts.Kind.START.ordinal();
        assertThat(StaticFeatures.of(s, new long[] {MIN5})).containsExactlyInAnyOrder(
                f("step", -1, input), f("step", input, input), f("step", input, stop), f("step", stop, start),
                f("step", start, input), f("empty", 0, 0),
                f("sequence", -1, 0), f("sequence", 0, 1), f("sequence", 1, 1), f("count", 1, 0), f("count", 2, 0),
                f("count", 3, 0), f("gap", MIN5, 0), f("gap", MIN5, 1), f("late", 0, 0), f("keys", 2, 0));
        // names and times are not features
        GenScenario renamed = Mutations.mapEvents(s, e -> e.withKey(e.key() + "!").withEventTimeMs(e.eventTimeMs() + 7));
        assertThat(StaticFeatures.of(renamed, new long[] {MIN5})).isEqualTo(StaticFeatures.of(s, new long[] {MIN5}));
    }

    @Test
    void mapEvent_changes_one_event_counted_over_all_steps() {
        GenScenario s = GenScenario.of(TimeMode.None(), Scenario.<GenEvent>builder()
                .batch(List.of(new GenEvent("a", T0, 0))).batch(List.of(new GenEvent("b", T0, 0), new GenEvent("c", T0, 0)))
                .build().steps());
        assertThat(Mutations.events(Mutations.mapEvent(s, 2, e -> e.withVariant(1)))).extracting(GenEvent::variant)
                .containsExactly(0, 0, 1);
        assertThat(Mutations.mapEvent(s, 2, e -> e.withVariant(1)).steps()).hasSize(2);
    }

    @Test
    void feedbacks_first_try_has_at_least_the_static_features_of_uniforms_and_a_replaced_one_reruns_by_base_seed() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("x", "y").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(Duration.ofSeconds(10))
                .interestingDurations(Duration.ofSeconds(30)).batches(1, 6);
        int richer = 0;
        for (long seed = 1; seed <= 20; seed++) {
            GenScenario uniform = firstTry(Property.forAll(gen).seed(seed).uniform());
            PropertyResult failed = Property.forAll(gen).seed(seed).tries(1).feedback()
                    .checkTries(t -> Optional.of("the first try"));
            GenScenario feedback = failed.failure().orElseThrow().original();
            int u = StaticFeatures.of(uniform, gen.interestingMs()).size();
            int f = StaticFeatures.of(feedback, gen.interestingMs()).size();
            assertThat(f).as("seed %d", seed).isGreaterThanOrEqualTo(u);
            // the uniform try is the first candidate: kept unless another has more, and then the try is not its seed's alone
            assertThat(failed.derivedFailure()).as("seed %d", seed).isEqualTo(!feedback.equals(uniform));
            richer += f > u ? 1 : 0;
        }
        assertThat(richer).isPositive();
    }

    private static StaticFeatures.Feature f(String kind, long a, long b) {
        return new StaticFeatures.Feature(kind, a, b);
    }

    private static GenScenario firstTry(Property property) {
        List<GenScenario> seen = new ArrayList<>();
        property.tries(1).checkTries(t -> {
            seen.add(t.scenario());
            return Optional.empty();
        });
        return seen.get(0);
    }
}
