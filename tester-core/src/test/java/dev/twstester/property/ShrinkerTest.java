package dev.twstester.property;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.Scenario.AddData;
import dev.twstester.Scenario.Input;
import dev.twstester.Scenario.Start;
import dev.twstester.Scenario.Step;
import dev.twstester.Scenario.Stop;
import dev.twstester.Scenario.Tick;

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

        // THEN a tiny scenario still drops an x event: its last one, after an event that moved the watermark
        GenScenario small = r.shrunk();
        assertThat(small.eventCount()).as(small.describe()).isBetween(2, 3);
        assertThat(X_DROPPED_LATE.test(small)).isTrue();
        assertThat(r.attempts()).isBetween(1, Shrinker.DEFAULT_MAX_ATTEMPTS);
        assertThat(r.steps()).isNotEmpty();
        List<ProbeEvent> dropped = ProbeProcessor.run(small).droppedLate();
        List<GenEvent> events = new ArrayList<>();
        small.steps().forEach(st -> events.addAll(GenScenario.events(st)));
        GenEvent last = events.get(events.size() - 1);
        assertThat(dropped).containsExactly(ProbeEvent.of(last.key(), last.eventTimeMs(), last.variant()));
    }

    @Test
    void shrinks_triggered_scenarios_with_restarts_and_every_candidate_runs() {
        // GIVEN generated scenarios with 1 s and 5 s triggers, restarts, adds while stopped
        ScenarioGenerator gen = ScenarioGenerator.create().keys("x", "y", "z").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(Duration.ofSeconds(10)).batches(4, 8).eventsPerBatch(0, 6)
                .restartChance(0.3).triggerIntervals(Duration.ofSeconds(1), Duration.ofSeconds(5));
        GenScenario failing = firstFailing(gen, s -> s.restartCount() >= 1 && X_DROPPED_LATE.test(s), 12);
        List<GenScenario> seen = new ArrayList<>();

        ShrinkResult r = Shrinker.create().maxAttempts(10_000).shrink(failing, s -> {
            seen.add(s);
            return X_DROPPED_LATE.test(s);   // runs the candidate: an invalid one would throw here
        });

        // THEN the failure needs no restart, few events, and no trigger interval
        GenScenario small = r.shrunk();
        assertThat(small.restartCount()).as(small.describe()).isZero();
        assertThat(small.eventCount()).as(small.describe()).isBetween(2, 3);
        assertThat(small.triggerInterval()).hasValue(Duration.ZERO);
        assertThat(r.steps()).anyMatch(step -> step.matches("trigger interval \\d+s -> 0"));
        assertThat(seen).anyMatch(c -> c.triggerInterval().orElseThrow().toMillis() > 0 && c.restartCount() == 0);
    }

    @Test
    void drops_a_stop_with_its_start_and_keeps_the_steps_between() {
        GenScenario failing = GenScenario.of(TimeMode.EventTime(), List.of(
                        new AddData<>(List.of(new GenEvent("x", 30_000, 0))),
                        new Tick<>(Instant.ofEpochMilli(1_000)),
                        new Stop<>(),
                        new AddData<>(List.of(new GenEvent("x", 20_000, 0))),
                        new Tick<>(Instant.ofEpochMilli(3_000)),
                        new Start<>()))
                .withTriggerInterval(Duration.ofSeconds(1));
        // fails while a tick comes between two adds and the query runs at the end
        Predicate<GenScenario> tickBetweenAdds = s -> {
            int adds = 0;
            boolean tickAfterFirst = false;
            boolean running = true;
            boolean fails = false;
            for (Step<GenEvent> st : s.steps()) {
                if (st instanceof AddData<GenEvent>) {
                    fails |= adds > 0 && tickAfterFirst;
                    adds++;
                } else if (st instanceof Tick<GenEvent>) {
                    tickAfterFirst = adds > 0;
                } else {
                    running = st instanceof Start<GenEvent>;
                }
            }
            return fails && running;
        };

        ShrinkResult r = Shrinker.create().shrink(failing, tickBetweenAdds);

        assertThat(r.steps()).anyMatch(step -> step.startsWith("dropped the stop at step 3 and its start at step "));
        assertThat(r.shrunk().steps()).containsExactly(
                new AddData<>(List.of()), new Tick<>(Instant.ofEpochMilli(0)), new AddData<>(List.of()));
    }

    @Test
    void every_processing_time_candidate_keeps_strictly_increasing_step_times() {
        ScenarioGenerator gen = ScenarioGenerator.create().timeMode(TimeMode.ProcessingTime()).keys("a", "b")
                .batches(4, 8).eventsPerBatch(1, 4).interestingDurations(Duration.ofSeconds(3));
        Predicate<GenScenario> twoAs = s -> s.steps().stream()
                .anyMatch(st -> st instanceof Input<GenEvent> in && in.rows().stream().filter(e -> e.key().equals("a")).count() >= 2);
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
        assertThat(((Input<GenEvent>) r.shrunk().steps().get(0)).at()).isEqualTo(Instant.ofEpochMilli(1));
    }

    private static void assertStrictlyIncreasing(GenScenario s) {
        long now = 0;
        for (Step<GenEvent> step : s.steps()) {
            if (!(step instanceof Input<GenEvent>) && !(step instanceof Tick<GenEvent>)) {
                continue;
            }
            long t = (step instanceof Input<GenEvent> in ? in.at() : ((Tick<GenEvent>) step).to()).toEpochMilli();
            assertThat(t).isGreaterThan(now);
            now = t;
        }
    }

    @Test
    void pulls_times_to_the_base_lowers_variants_and_drops_ticks() {
        // GIVEN three steps with events far from the base, high variants and a tick
        GenScenario failing = GenScenario.of(TimeMode.None(), List.of(
                        new Input<>(List.of(new GenEvent("b", T0 + 40_000, 2), new GenEvent("a", T0 + 41_500, 3)), null),
                        new Tick<>(Instant.ofEpochMilli(7_000)),
                        new Input<>(List.of(new GenEvent("c", T0 + 90_000, 3)), Instant.ofEpochMilli(9_000))))
                .withEventTimeBase(Instant.ofEpochMilli(T0));
        // fails while some event has a variant of at least 2
        Predicate<GenScenario> highVariant = s -> s.steps().stream()
                .anyMatch(st -> GenScenario.events(st).stream().anyMatch(e -> e.variant() >= 2));

        ShrinkResult r = Shrinker.create().shrink(failing, highVariant);

        assertThat(r.shrunk().steps()).containsExactly(new Input<>(List.of(new GenEvent("c", T0, 2)), null));
        assertThat(r.budgetExhausted()).isFalse();
    }

    @Test
    void merges_adjacent_inputs_when_the_failure_needs_events_together() {
        GenScenario failing = GenScenario.of(TimeMode.EventTime(), List.of(
                new Input<>(List.of(new GenEvent("a", 5_000, 0)), null),
                new Input<>(List.of(new GenEvent("a", 6_000, 0)), null)));
        // fails while the scenario has two events of a at all
        ShrinkResult r = Shrinker.create().shrink(failing, s -> s.eventCount() >= 2);

        assertThat(r.steps()).contains("merged input steps 1 and 2");
        assertThat(r.shrunk().steps()).containsExactly(
                new Input<>(List.of(new GenEvent("a", 0, 0), new GenEvent("a", 0, 0)), null));

        // and adjacent adds, with a trigger interval
        GenScenario adds = GenScenario.of(TimeMode.EventTime(), List.of(
                new AddData<>(List.of(new GenEvent("a", 5_000, 0))),
                new AddData<>(List.of(new GenEvent("a", 6_000, 0))),
                new Tick<>(Instant.ofEpochMilli(1_000)))).withTriggerInterval(Duration.ofSeconds(1));
        ShrinkResult merged = Shrinker.create().shrink(adds, s -> s.eventCount() >= 2
                && s.steps().stream().anyMatch(st -> st instanceof Tick<GenEvent>) && !s.triggerInterval().orElseThrow().isZero());
        assertThat(merged.steps()).contains("merged add steps 1 and 2");
        assertThat(merged.shrunk().steps()).containsExactly(
                new AddData<>(List.of(new GenEvent("a", 0, 0), new GenEvent("a", 0, 0))),
                new Tick<>(Instant.ofEpochMilli(0)));
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

        // THEN the smallest such scenario is a batch, the stop (and start), and the tick that runs nothing
        List<Step<GenEvent>> steps = r.shrunk().steps();
        assertThat(steps.get(0)).as(r.shrunk().describe()).isInstanceOf(Input.class);
        assertThat(steps.get(1)).as(r.shrunk().describe()).isInstanceOf(Stop.class);
        assertThat(steps.get(steps.size() - 1)).as(r.shrunk().describe()).isInstanceOf(Tick.class);
        assertThat(steps).as(r.shrunk().describe()).hasSizeBetween(3, 4);
        assertThat(r.shrunk().eventCount()).isZero();
        assertThat(seen).contains(r.shrunk().withSteps(steps.stream()
                .filter(st -> !(st instanceof Stop<GenEvent>) && !(st instanceof Start<GenEvent>)).toList()));
        // no candidate starts with a stop or restarts twice with nothing between
        assertThat(seen).allSatisfy(ShrinkerTest::assertNoIdleRestart);
    }

    /** Inputs and ticks from the first input on: in ProcessingTime mode each runs one batch, unless a restart intervenes. */
    private static long stepsFromFirstInput(GenScenario s) {
        List<Step<GenEvent>> steps = s.steps();
        int first = 0;
        while (first < steps.size() && !(steps.get(first) instanceof Input<GenEvent>)) {
            first++;
        }
        return steps.subList(first, steps.size()).stream()
                .filter(st -> st instanceof Input<GenEvent> || st instanceof Tick<GenEvent>).count();
    }

    private static void assertNoIdleRestart(GenScenario s) {
        List<Step<GenEvent>> steps = s.steps();
        if (!steps.isEmpty()) {
            assertThat(steps.get(0)).as(s.describe()).isNotInstanceOf(Stop.class);
        }
        for (int i = 1; i < steps.size(); i++) {
            assertThat(steps.get(i - 1) instanceof Start<GenEvent> && steps.get(i) instanceof Stop<GenEvent>)
                    .as(s.describe()).isFalse();
        }
    }

    @Test
    void keeps_a_restart_between_the_events_that_need_it() {
        GenScenario failing = GenScenario.of(TimeMode.None(), List.of(
                new Input<>(List.of(new GenEvent("x", 5_000, 1), new GenEvent("y", 1_000, 0)), null),
                new Stop<>(), new Start<>(),
                new Input<>(List.of(new GenEvent("y", 2_000, 0)), null),
                new Stop<>(), new Start<>(),
                new Tick<>(Instant.ofEpochMilli(3_000)),
                new Input<>(List.of(new GenEvent("x", 9_000, 0)), null)));
        // fails while some x event comes after a restart that comes after an x event
        Predicate<GenScenario> xAcrossRestart = s -> {
            boolean sawX = false;
            boolean restartAfterX = false;
            for (Step<GenEvent> st : s.steps()) {
                if (st instanceof Start<GenEvent>) {
                    restartAfterX |= sawX;
                } else if (st instanceof Input<GenEvent> in && in.rows().stream().anyMatch(e -> e.key().equals("x"))) {
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
                new Input<>(List.of(new GenEvent("x", 0, 0)), null),
                new Stop<>(), new Start<>(),
                new Input<>(List.of(new GenEvent("x", 0, 0)), null));
        assertThat(r.shrunk().describe()).contains("1 restart").contains("2. stop").contains("3. start from the checkpoint");
    }

    @Test
    void lowers_the_shuffle_partitions_as_far_as_the_failure_allows() {
        GenScenario failing = GenScenario.of(TimeMode.None(), List.of(
                new Input<>(List.of(new GenEvent("a", 0, 0), new GenEvent("b", 0, 0)), null))).withShufflePartitions(3);

        ShrinkResult anyCount = Shrinker.create().shrink(failing, s -> s.eventCount() >= 1);
        ShrinkResult twoOrMore = Shrinker.create().shrink(failing, s -> s.shufflePartitions().orElse(1) >= 2);

        assertThat(anyCount.shrunk().shufflePartitions()).hasValue(1);
        assertThat(anyCount.steps()).contains("shuffle partitions 3 -> 1");
        assertThat(twoOrMore.shrunk().shufflePartitions()).hasValue(2);
        assertThat(twoOrMore.steps()).contains("shuffle partitions 3 -> 2");
    }
}
