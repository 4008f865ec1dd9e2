package dev.twstester.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.function.Function;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;

class PropertyTest {
    private static final ScenarioGenerator GEN = ScenarioGenerator.create().keys("x", "y", "z").variants("add", "checkout")
            .timeMode(TimeMode.EventTime()).watermarkDelay(Duration.ofSeconds(10)).batches(3, 8);

    /** The property "no x event is ever dropped as late", checked on the simulator: it does not hold. */
    private static final Function<GenScenario, Optional<String>> NO_LATE_X = s -> {
        RunResult<String, ProbeEvent, String> run = ProbeProcessor.run(s);
        return run.droppedLate().stream().filter(e -> e.getKey().equals("x")).findFirst()
                .map(e -> "x event dropped as late: " + e);
    };

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    /** {@code property} reading {@code settings} instead of system properties, printing into {@link #printed}. */
    private Property isolated(Property property, Map<String, String> settings) {
        return property.environment(settings::get, new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void a_passing_property_runs_every_try_with_its_own_seed_and_prints_the_base_seed() {
        PropertyResult r = isolated(Property.forAll(GEN).tries(12).seed(99), Map.of())
                .check(s -> Optional.empty());

        assertThat(r.passed()).isTrue();
        assertThat(r.triesRun()).isEqualTo(12);
        assertThat(r.seeds()).hasSize(12).doesNotHaveDuplicates();
        assertThat(r.baseSeed()).isEqualTo(99);
        assertThat(r.assertPassed()).isSameAs(r);
        assertThat(r.report()).isEqualTo("Property passed: 12 tries (base seed 99)");
        assertThat(printed()).contains("base seed 99, 12 tries");
        // the same base seed gives the same tries
        assertThat(isolated(Property.forAll(GEN).tries(12).seed(99), Map.of()).check(s -> Optional.empty()).seeds())
                .isEqualTo(r.seeds());
    }

    @Test
    void tries_default_to_the_system_property_then_to_25() {
        assertThat(isolated(Property.forAll(GEN).seed(1), Map.of()).check(s -> Optional.empty()).triesRun())
                .isEqualTo(Property.DEFAULT_TRIES);
        assertThat(isolated(Property.forAll(GEN).seed(1), Map.of(Property.TRIES_PROPERTY, "7"))
                .check(s -> Optional.empty()).triesRun()).isEqualTo(7);
        assertThatThrownBy(() -> isolated(Property.forAll(GEN), Map.of(Property.TRIES_PROPERTY, "many"))
                .check(s -> Optional.empty())).hasMessageContaining("-Dtwstester.tries=many");
    }

    @Test
    void a_failing_property_reports_the_seed_the_rerun_hint_and_the_shrunk_scenario() {
        PropertyResult r = isolated(Property.forAll(GEN).tries(200).seed(7), Map.of()).check(NO_LATE_X);

        assertThat(r.passed()).isFalse();
        PropertyResult.Failure f = r.failure().orElseThrow();
        assertThat(r.triesRun()).isEqualTo(f.tryIndex() + 1);
        assertThat(f.seed()).isEqualTo(r.seeds().get(f.tryIndex()));
        assertThat(f.original()).isEqualTo(GEN.generate(f.seed()));
        assertThat(f.shrunk().eventCount()).isLessThanOrEqualTo(3).isLessThanOrEqualTo(f.original().eventCount());
        assertThat(f.message()).startsWith("x event dropped as late: x@");
        assertThat(NO_LATE_X.apply(f.shrunk())).contains(f.message());
        assertThat(f.shrinkAttempts()).isPositive();

        assertThatThrownBy(r::assertPassed).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Property failed on try " + (f.tryIndex() + 1) + " (seed " + f.seed() + "; base seed 7)")
                .hasMessageContaining("Rerun only this case: -Dtwstester.seed=" + f.seed())
                .hasMessageContaining("Failure: " + f.message())
                .hasMessageContaining(f.shrunk().describe())
                .hasMessageContaining("Shrink steps:\n  - ")
                .hasMessageContaining("Original scenario (failure: " + f.originalMessage() + "):\n" + f.original().describe());
    }

    @Test
    void the_seed_system_property_reruns_only_that_try() {
        PropertyResult first = isolated(Property.forAll(GEN).tries(200).seed(7), Map.of()).check(NO_LATE_X);
        long seed = first.failure().orElseThrow().seed();

        PropertyResult rerun = isolated(Property.forAll(GEN).tries(200).seed(12345),
                Map.of(Property.SEED_PROPERTY, Long.toString(seed))).check(NO_LATE_X);

        assertThat(rerun.triesRun()).isEqualTo(1);
        assertThat(rerun.seeds()).containsExactly(seed);
        PropertyResult.Failure f = rerun.failure().orElseThrow();
        assertThat(f.original()).isEqualTo(first.failure().orElseThrow().original());
        assertThat(f.shrunk()).isEqualTo(first.failure().orElseThrow().shrunk());
        assertThat(rerun.report()).contains("seed " + seed + " from -Dtwstester.seed");
        assertThat(printed()).contains("running only seed " + seed);
    }

    @Test
    void a_check_that_throws_fails_with_the_exception_and_still_shrinks() {
        PropertyResult r = isolated(Property.forAll(GEN).tries(5).seed(3), Map.of()).check(s -> {
            if (s.eventCount() > 0) {
                throw new IllegalStateException("boom");
            }
            return Optional.empty();
        });

        PropertyResult.Failure f = r.failure().orElseThrow();
        assertThat(f.message()).isEqualTo("the check threw java.lang.IllegalStateException: boom");
        assertThat(f.shrunk().eventCount()).isEqualTo(1);
        assertThat(f.shrunk().steps()).hasSize(1);
    }

    @Test
    void a_custom_shrinker_budget_is_used() {
        PropertyResult r = isolated(Property.forAll(GEN).tries(200).seed(7).shrinker(Shrinker.create().maxAttempts(2)),
                Map.of()).check(NO_LATE_X);

        assertThat(r.failure().orElseThrow().shrinkAttempts()).isLessThanOrEqualTo(2);
        assertThat(r.report()).contains("(2 attempts, budget exhausted)");
    }

    @Test
    void scenarios_carry_no_partition_count_unless_asked() {
        Property property = Property.forAll(GEN);
        assertThat(property.scenario(5)).isEqualTo(GEN.generate(5));
        List<GenScenario> checked = new ArrayList<>();
        isolated(property.tries(10).seed(4), Map.of()).check(s -> {
            checked.add(s);
            return Optional.empty();
        });
        assertThat(checked).hasSize(10).allSatisfy(s -> assertThat(s.shufflePartitions()).isEmpty());
    }

    @Test
    void shuffle_partitions_are_chosen_per_try_seed_and_leave_the_steps_as_generated() {
        Property property = Property.forAll(GEN).shufflePartitions(1, 3);
        Set<Integer> counts = new HashSet<>();
        for (long seed = 0; seed < 60; seed++) {
            GenScenario s = property.scenario(seed);
            counts.add(s.shufflePartitions().orElseThrow());
            assertThat(s.steps()).isEqualTo(GEN.generate(seed).steps());
            assertThat(property.scenario(seed)).isEqualTo(s);
        }
        assertThat(counts).containsExactlyInAnyOrder(1, 2, 3);
        assertThatThrownBy(() -> Property.forAll(GEN).shufflePartitions(0, 2)).hasMessageContaining("1 <= min <= max");
    }

    @Test
    void a_failure_that_needs_several_partitions_reports_the_count_and_keeps_it() {
        // GIVEN a property that fails for any event when the query runs with 2 or more partitions
        PropertyResult r = isolated(Property.forAll(GEN).shufflePartitions(2, 3).tries(5).seed(11), Map.of())
                .check(s -> s.shufflePartitions().orElse(1) >= 2 && s.eventCount() > 0
                        ? Optional.of("failed with " + s.shufflePartitions().getAsInt() + " partitions")
                        : Optional.empty());

        PropertyResult.Failure f = r.failure().orElseThrow();
        assertThat(f.shrunk().shufflePartitions()).hasValue(2);
        assertThat(f.message()).isEqualTo("failed with 2 partitions");
        assertThat(r.report()).contains("GenScenario: EventTime mode, watermark delay 10s, 2 shuffle partitions, ");
    }

    @Test
    void the_simulator_runs_generated_scenarios_at_their_partition_count_with_the_same_rows_per_key() {
        // outputs are "key:kind:count" per row: key isolation means the partition count only reorders them
        ScenarioGenerator withRestarts = ScenarioGenerator.create().keys("x", "y", "z").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(Duration.ofSeconds(10)).batches(3, 8).restartChance(0.2)
                .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(5));
        PropertyResult r = isolated(Property.forAll(withRestarts).shufflePartitions(1, 3).tries(20).seed(5),
                Map.of()).check(s -> {
                    List<String> partitioned = new ArrayList<>(ProbeProcessor.run(s).outputs());
                    List<String> single = new ArrayList<>(ProbeProcessor.run(s.withShufflePartitions(1)).outputs());
                    partitioned.sort(null);
                    single.sort(null);
                    return partitioned.equals(single) ? Optional.empty()
                            : Optional.of(partitioned + " with " + s.shufflePartitions() + ", " + single + " with 1");
                });

        assertThat(r.passed()).as(r.report()).isTrue();
    }
}
