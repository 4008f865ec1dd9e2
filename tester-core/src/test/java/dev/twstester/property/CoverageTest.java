package dev.twstester.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

/** Coverage per try (CoverageRecorder), labels, the table, cover, target and the feedback generation. */
class CoverageTest {
    private static final Duration DELAY = Duration.ofSeconds(10);
    private static final TwsQuery<String, ProbeEvent, String> QUERY = ProbeProcessor.query(TimeMode.EventTime(), DELAY);
    private static final ScenarioGenerator GEN = ScenarioGenerator.create().keys("x", "y", "z").variants("add", "checkout")
            .timeMode(TimeMode.EventTime()).watermarkDelay(DELAY).batches(2, 6);
    private static final long T0 = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private Property isolated(Property property) {
        return property.environment(Map.<String, String>of()::get, new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    @Test
    void the_recorder_names_what_a_run_exercised() {
        CoverageRecorder<String, ProbeEvent, String> coverage = CoverageRecorder.of(QUERY)
                .labelWhenState("two counted", state -> state.<Long>value("count", "x").orElse(0L) >= 2);
        TwsSimulator<String, ProbeEvent, String> sim = TwsSimulator.builder(QUERY).listener(coverage).build();
        sim.run(Scenario.<ProbeEvent>builder()
                .batch(List.of(new ProbeEvent("x", T0 + 60_000, "add"), new ProbeEvent("y", T0 + 60_000, "add")))
                .stop().start()
                .batch(List.of(new ProbeEvent("x", T0, "add"), new ProbeEvent("x", T0 + 61_000, "add")))
                .build());

        assertThat(coverage.features()).containsExactlyInAnyOrder("restart", "handler: handleInputRows",
                "state created: count", "outputs in a batch: 2+", "no-data batch", "outputs in a batch: 0",
                "late rows dropped", "state updated: count", "outputs in a batch: 1", "keys: 2", "batches: 4-7");
        assertThat(coverage.labels()).containsExactly("two counted");
        assertThat(coverage.signals()).contains("sequence: II");
        assertThat(coverage.run().outputs()).containsExactly("x:add:1", "y:add:1", "x:add:2");
    }

    @Test
    void labels_come_first_in_the_table_and_are_counted_per_try() {
        PropertyResult r = isolated(Property.forAll(GEN).tries(30).seed(7)).runs(QUERY, ProbeEvent::of)
                .classify("has output", run -> !run.outputs().isEmpty())
                .classifyOutput("a checkout", o -> o.contains(":checkout:"))
                .classify("never", run -> false)
                .check(run -> Optional.empty());

        CoverageTable table = r.coverage();
        assertThat(table.tries()).isEqualTo(30);
        assertThat(table.rows().subList(0, 3)).extracting(CoverageTable.Row::label)
                .containsExactly("has output", "a checkout", "never");
        assertThat(table.reached("never")).isZero();
        assertThat(table.reached("handler: handleInputRows")).isEqualTo(table.reached("has output"));
        assertThat(table.share("state created: count")).isGreaterThan(0.5);
        assertThat(r.report()).startsWith("Property passed: 30 tries (base seed 7)").contains("Coverage of 30 tries (feedback):");
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("Coverage of 30 tries (feedback):", "never");
    }

    @Test
    void cover_fails_a_property_whose_tries_miss_the_label_and_says_how_many_reached_it() {
        PropertyResult r = isolated(Property.forAll(GEN).tries(20).seed(3)).runs(QUERY, ProbeEvent::of)
                .classify("many outputs", run -> run.outputs().size() > 12)
                .cover("many outputs", 50).cover("state created: count", 10)
                .check(run -> Optional.empty());

        assertThat(r.passed()).isFalse();
        assertThat(r.coverProblem()).get().asString().startsWith("cover(\"many outputs\", 50.0): only "
                + r.coverage().reached("many outputs") + " of 20 tries");
        assertThatThrownBy(r::assertPassed).hasMessageContaining("Property failed its coverage: cover(\"many outputs\"");
        assertThatThrownBy(() -> Property.forAll(GEN).cover("x", 101)).hasMessageContaining("from 0 to 100");
    }

    @Test
    void a_hand_written_check_attaches_the_try_recorder_through_the_try() {
        List<Integer> indexes = new ArrayList<>();
        PropertyResult r = isolated(Property.forAll(GEN).tries(10).seed(5).uniform().target("two keys")).checkTries(t -> {
            indexes.add(t.index());
            RunResult<String, ProbeEvent, String> run = t.simulator(QUERY).run(t.scenario().toScenario(ProbeEvent::of));
            if (run.outputs().stream().map(o -> o.split(":")[0]).distinct().count() >= 2) {
                t.label("two keys");
            }
            return Optional.empty();
        });
        assertThat(indexes).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(r.coverage().rows().get(0).label()).isEqualTo("two keys");
        assertThat(r.coverage().reached("handler: handleInputRows")).isPositive();
        // a plain check records nothing: no table
        assertThat(isolated(Property.forAll(GEN).tries(3)).check(s -> Optional.empty()).coverage().isEmpty()).isTrue();
    }

    @Test
    void feedback_is_reproducible_from_the_base_seed_and_a_derived_failure_says_how_to_rerun_it() {
        QueryProperty<String, ProbeEvent, String> p = isolated(Property.forAll(GEN).tries(60).seed(11))
                .runs(QUERY, ProbeEvent::of).feedback();
        List<List<String>> first = new ArrayList<>();
        List<List<String>> second = new ArrayList<>();
        p.check(run -> { first.add(run.outputs()); return Optional.empty(); });
        p.check(run -> { second.add(run.outputs()); return Optional.empty(); });
        assertThat(first).hasSize(60).isEqualTo(second);

        // a long count for one key needs scenarios the corpus grew: the first such failure derived from it
        PropertyResult derived = null;
        for (int n = 9; n <= 20 && derived == null; n++) {
            String ending = ":" + n;
            PropertyResult r = p.check(run -> run.outputs().stream().anyMatch(o -> o.endsWith(ending))
                    ? Optional.of("a row" + ending) : Optional.empty());
            derived = r.failure().isPresent() && r.derivedFailure() ? r : null;
        }
        assertThat(derived).as("a failure found by a derived try").isNotNull();
        PropertyResult.Failure f = derived.failure().get();
        String message = f.message();
        assertThat(derived.report()).contains("Rerun this case: -Dtwstester.baseSeed=11 -Dtwstester.tries=" + (f.tryIndex() + 1));
        PropertyResult again = isolated(Property.forAll(GEN).seed(11).tries(f.tryIndex() + 1)).runs(QUERY, ProbeEvent::of)
                .check(run -> run.outputs().stream().anyMatch(o -> o.endsWith(message.substring(5)))
                        ? Optional.of(message) : Optional.empty());
        assertThat(again.failure().get().original()).isEqualTo(f.original());
        // the shrinker shrinks what feedback found: one key's events, no more than the count
        assertThat(f.shrunk().eventCount()).isLessThan(f.original().eventCount())
                .isEqualTo(Integer.parseInt(message.substring(6)));
    }

    @Test
    void weights_draw_the_variants() {
        Property weighted = Property.forAll(GEN).weights(0, 1);
        for (long seed = 0; seed < 5; seed++) {
            assertThat(Mutations.events(weighted.scenario(seed))).allMatch(e -> e.variant() == 1);
        }
        assertThatThrownBy(() -> Property.forAll(GEN).weights(0, 0)).hasMessageContaining("not all zero");
    }
}
