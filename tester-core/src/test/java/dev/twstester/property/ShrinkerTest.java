package dev.twstester.property;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.property.GenScenario.Input;
import dev.twstester.property.GenScenario.Restart;
import dev.twstester.property.GenScenario.Step;
import dev.twstester.property.GenScenario.Tick;

class ShrinkerTest {
    private static final long T0 = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();

    private static final ScenarioGenerator GEN = ScenarioGenerator.create().keys("x", "y", "z").variants("add", "checkout")
            .timeMode(TimeMode.EventTime()).watermarkDelay(Duration.ofSeconds(10)).batches(4, 8).eventsPerBatch(0, 6);

    /** Fails iff the simulator drops an event of key x as late. */
    private static final Predicate<GenScenario> X_DROPPED_LATE =
            s -> ProbeProcessor.run(s).droppedLate().stream().anyMatch(e -> e.getKey().equals("x"));

    private static GenScenario firstFailing(ScenarioGenerator gen, Predicate<GenScenario> fails, int minEvents) {
        for (long seed = 0; seed < 1000; seed++) {
            GenScenario s = gen.generate(seed);
            if (s.eventCount() >= minEvents && fails.test(s)) {
                return s;
            }
        }
        throw new AssertionError("no failing scenario in 1000 seeds");
    }

    @Test
    void shrinks_a_late_x_event_to_at_most_three_events() {
        // GIVEN a big generated scenario in which the simulator drops some x event as late
        GenScenario failing = firstFailing(GEN, X_DROPPED_LATE, 15);

        // WHEN shrinking
        ShrinkResult r = Shrinker.create().shrink(failing, X_DROPPED_LATE);

        // THEN a tiny scenario still drops an x event, and the model says which one
        GenScenario small = r.shrunk();
        assertThat(small.eventCount()).as(small.describe()).isLessThanOrEqualTo(3);
        assertThat(X_DROPPED_LATE.test(small)).isTrue();
        assertThat(r.attempts()).isBetween(1, Shrinker.DEFAULT_MAX_ATTEMPTS);
        assertThat(r.steps()).isNotEmpty();
        boolean modelSaysLate = false;
        for (int i = 0; i < small.steps().size(); i++) {
            for (GenEvent e : small.inputEvents(i)) {
                modelSaysLate |= e.key().equals("x") && small.isDroppedLate(i, e);
            }
        }
        assertThat(modelSaysLate).isTrue();
        assertThat(small.describe()).contains("dropped late");
    }

    @Test
    void every_processing_time_candidate_keeps_strictly_increasing_step_times() {
        ScenarioGenerator gen = ScenarioGenerator.create().timeMode(TimeMode.ProcessingTime()).keys("a", "b")
                .batches(4, 8).eventsPerBatch(1, 4).interestingDurations(Duration.ofSeconds(3));
        Predicate<GenScenario> twoAs = s -> s.steps().stream()
                .anyMatch(st -> st instanceof Input in && in.events().stream().filter(e -> e.key().equals("a")).count() >= 2);
        GenScenario failing = firstFailing(gen, twoAs, 10);
        List<GenScenario> seen = new ArrayList<>();

        ShrinkResult r = Shrinker.create().shrink(failing, s -> {
            seen.add(s);
            return twoAs.test(s);
        });

        assertThat(seen).hasSize(r.attempts()).allSatisfy(ShrinkerTest::assertStrictlyIncreasing);
        assertThat(r.shrunk().steps()).hasSize(1);
        assertThat(r.shrunk().eventCount()).isEqualTo(2);
        // the one step left moved to the earliest valid time
        assertThat(((Input) r.shrunk().steps().get(0)).atMs()).isEqualTo(1L);
    }

    private static void assertStrictlyIncreasing(GenScenario s) {
        long now = 0;
        for (Step step : s.steps()) {
            if (step instanceof Restart) {
                continue;
            }
            long t = step instanceof Input in ? in.atMs() : ((Tick) step).toMs();
            assertThat(t).isGreaterThan(now);
            now = t;
        }
    }

    @Test
    void pulls_times_to_the_base_lowers_variants_and_drops_ticks() {
        // GIVEN three steps with events far from the base, high variants and a tick
        GenScenario failing = GenScenario.of(TimeMode.None(), List.of(
                        new Input(List.of(new GenEvent("b", T0 + 40_000, 2), new GenEvent("a", T0 + 41_500, 3)), null),
                        new Tick(7_000),
                        new Input(List.of(new GenEvent("c", T0 + 90_000, 3)), 9_000L)))
                .withEventTimeBase(Instant.ofEpochMilli(T0));
        // fails while some event has a variant of at least 2
        Predicate<GenScenario> highVariant = s -> s.steps().stream()
                .anyMatch(st -> st instanceof Input in && in.events().stream().anyMatch(e -> e.variant() >= 2));

        ShrinkResult r = Shrinker.create().shrink(failing, highVariant);

        assertThat(r.shrunk().steps()).containsExactly(new Input(List.of(new GenEvent("c", T0, 2)), null));
        assertThat(r.budgetExhausted()).isFalse();
    }

    @Test
    void merges_adjacent_inputs_when_the_failure_needs_events_together() {
        GenScenario failing = GenScenario.of(TimeMode.EventTime(), List.of(
                new Input(List.of(new GenEvent("a", 5_000, 0)), null),
                new Input(List.of(new GenEvent("a", 6_000, 0)), null)));
        // fails while the scenario has two events of a at all
        ShrinkResult r = Shrinker.create().shrink(failing, s -> s.eventCount() >= 2);

        assertThat(r.steps()).contains("merged input steps 1 and 2");
        assertThat(r.shrunk().steps()).containsExactly(
                new Input(List.of(new GenEvent("a", 0, 0), new GenEvent("a", 0, 0)), null));
    }

    @Test
    void stops_at_the_attempt_budget() {
        GenScenario failing = GEN.generate(3);
        int[] calls = {0};

        ShrinkResult r = Shrinker.create().maxAttempts(5).shrink(failing, s -> {
            calls[0]++;
            return false;
        });

        assertThat(r.attempts()).isEqualTo(5).isEqualTo(calls[0]);
        assertThat(r.budgetExhausted()).isTrue();
        assertThat(r.shrunk()).isSameAs(failing);
    }

    @Test
    void reaches_a_fixpoint_without_retrying_candidates_and_reports_each_kept_step() {
        GenScenario failing = firstFailing(GEN, X_DROPPED_LATE, 10);
        List<String> heard = new ArrayList<>();
        List<GenScenario> seen = new ArrayList<>();

        ShrinkResult r = Shrinker.create().maxAttempts(10_000).onStep(heard::add).shrink(failing, s -> {
            seen.add(s);
            return X_DROPPED_LATE.test(s);
        });

        assertThat(r.budgetExhausted()).isFalse();
        assertThat(heard).isEqualTo(r.steps());
        assertThat(seen).doesNotHaveDuplicates().doesNotContain(failing);
        assertThat(r.shrunk().eventCount()).isBetween(1, 2);
    }

    @Test
    void drops_the_restarts_a_failure_does_not_need() {
        // GIVEN a failing scenario with restarts that have nothing to do with the failure
        ScenarioGenerator gen = ScenarioGenerator.create().keys("x", "y", "z").timeMode(TimeMode.EventTime())
                .watermarkDelay(Duration.ofSeconds(10)).batches(4, 8).eventsPerBatch(0, 6).restartChance(0.4);
        GenScenario failing = firstFailing(gen, s -> s.restartCount() >= 2 && X_DROPPED_LATE.test(s), 10);

        ShrinkResult r = Shrinker.create().shrink(failing, X_DROPPED_LATE);

        assertThat(r.shrunk().restartCount()).as(r.shrunk().describe()).isZero();
        assertThat(r.shrunk().eventCount()).isLessThanOrEqualTo(3);
    }

    @Test
    void keeps_the_restart_a_processing_time_failure_needs() {
        // GIVEN the simulator's rule that a tick right after a restart runs no batch (spec 3), and a
        // property that fails when some step from the first input on runs nothing: only a restart does that
        ScenarioGenerator gen = ScenarioGenerator.create().timeMode(TimeMode.ProcessingTime()).keys("a", "b")
                .batches(3, 6).eventsPerBatch(1, 3).restartChance(0.3);
        Predicate<GenScenario> idleStep = s -> ProbeProcessor.run(s).batches().size() < stepsFromFirstInput(s);
        GenScenario failing = firstFailing(gen, idleStep, 8);
        List<GenScenario> seen = new ArrayList<>();

        ShrinkResult r = Shrinker.create().maxAttempts(10_000).shrink(failing, s -> {
            seen.add(s);
            return idleStep.test(s);
        });

        // THEN the smallest such scenario is a batch, the restart, and the tick that runs nothing
        List<Step> steps = r.shrunk().steps();
        assertThat(steps).as(r.shrunk().describe()).hasSize(3);
        assertThat(steps.get(0)).isInstanceOf(Input.class);
        assertThat(steps.get(1)).isInstanceOf(Restart.class);
        assertThat(steps.get(2)).isInstanceOf(Tick.class);
        assertThat(r.shrunk().eventCount()).isZero();
        assertThat(seen).contains(r.shrunk().withSteps(steps.stream().filter(st -> !(st instanceof Restart)).toList()));
        // no candidate starts with a restart or has two in a row
        assertThat(seen).allSatisfy(ShrinkerTest::assertNoIdleRestart);
    }

    /** Inputs and ticks from the first input on: in ProcessingTime mode each runs one batch, unless a restart intervenes. */
    private static long stepsFromFirstInput(GenScenario s) {
        List<Step> steps = s.steps();
        int first = 0;
        while (first < steps.size() && !(steps.get(first) instanceof Input)) {
            first++;
        }
        return steps.subList(first, steps.size()).stream().filter(st -> !(st instanceof Restart)).count();
    }

    private static void assertNoIdleRestart(GenScenario s) {
        List<Step> steps = s.steps();
        assertThat(steps.get(0)).isNotInstanceOf(Restart.class);
        for (int i = 1; i < steps.size(); i++) {
            assertThat(steps.get(i - 1) instanceof Restart && steps.get(i) instanceof Restart).as(s.describe()).isFalse();
        }
    }

    @Test
    void keeps_a_restart_between_the_events_that_need_it() {
        GenScenario failing = GenScenario.of(TimeMode.None(), List.of(
                new Input(List.of(new GenEvent("x", 5_000, 1), new GenEvent("y", 1_000, 0)), null),
                new Restart(),
                new Input(List.of(new GenEvent("y", 2_000, 0)), null),
                new Restart(),
                new Tick(3_000),
                new Input(List.of(new GenEvent("x", 9_000, 0)), null)));
        // fails while some x event comes after a restart that comes after an x event
        Predicate<GenScenario> xAcrossRestart = s -> {
            boolean sawX = false;
            boolean restartAfterX = false;
            for (Step st : s.steps()) {
                if (st instanceof Restart) {
                    restartAfterX |= sawX;
                } else if (st instanceof Input in && in.events().stream().anyMatch(e -> e.key().equals("x"))) {
                    if (restartAfterX) {
                        return true;
                    }
                    sawX = true;
                }
            }
            return false;
        };

        ShrinkResult r = Shrinker.create().shrink(failing, xAcrossRestart);

        assertThat(r.shrunk().steps()).containsExactly(
                new Input(List.of(new GenEvent("x", 0, 0)), null),
                new Restart(),
                new Input(List.of(new GenEvent("x", 0, 0)), null));
        assertThat(r.shrunk().describe()).contains("1 restart").contains("2. restart from the checkpoint");
    }

    @Test
    void lowers_the_shuffle_partitions_as_far_as_the_failure_allows() {
        GenScenario failing = GenScenario.of(TimeMode.None(), List.of(
                new Input(List.of(new GenEvent("a", 0, 0), new GenEvent("b", 0, 0)), null))).withShufflePartitions(3);

        ShrinkResult anyCount = Shrinker.create().shrink(failing, s -> s.eventCount() >= 1);
        ShrinkResult twoOrMore = Shrinker.create().shrink(failing, s -> s.shufflePartitions().orElse(1) >= 2);

        assertThat(anyCount.shrunk().shufflePartitions()).hasValue(1);
        assertThat(anyCount.steps()).contains("shuffle partitions 3 -> 1");
        assertThat(twoOrMore.shrunk().shufflePartitions()).hasValue(2);
        assertThat(twoOrMore.steps()).contains("shuffle partitions 3 -> 2");
    }
}
