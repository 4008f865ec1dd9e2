package dev.twstester.property;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

import dev.twstester.Scenario;
import dev.twstester.Scenario.Step;

/**
 * The edits the feedback-directed generation makes to a corpus scenario. Each returns a valid
 * scenario, or the one it was given when the edit would not be valid (see {@link GenScenario}).
 */
final class Mutations {
    private Mutations() {}

    /** {@code scenario} with every event mapped by {@code f}. */
    static GenScenario mapEvents(GenScenario scenario, UnaryOperator<GenEvent> f) {
        List<Step<GenEvent>> steps = new ArrayList<>();
        for (Step<GenEvent> step : scenario.steps()) {
            StepParts<GenEvent> parts = StepParts.of(step);
            steps.add(parts.rows().isEmpty() ? step : parts.withRows(parts.rows().stream().map(f).toList()));
        }
        return scenario.withSteps(steps);
    }

    /** {@code scenario} with its {@code nth} event (counted over all steps, from 0) mapped by {@code f}. */
    static GenScenario mapEvent(GenScenario scenario, int nth, UnaryOperator<GenEvent> f) {
        List<Step<GenEvent>> steps = new ArrayList<>(scenario.steps());
        int before = 0;
        for (int s = 0; s < steps.size(); s++) {
            StepParts<GenEvent> parts = StepParts.of(steps.get(s));
            int n = parts.rows().size();
            if (nth < before + n) {
                List<GenEvent> rows = new ArrayList<>(parts.rows());
                rows.set(nth - before, f.apply(rows.get(nth - before)));
                steps.set(s, parts.withRows(rows));
                break;                                  // only the step that holds the event changes
            }
            before += n;
        }
        return scenario.withSteps(steps);
    }

    /** The processing time after the last step (the epoch when no step moved it). */
    static long now(List<Step<GenEvent>> steps) {
        long now = 0;
        for (Step<GenEvent> step : steps) {
            Instant t = StepParts.timeOf(step);
            now = t == null ? now : Math.max(now, t.toEpochMilli());
        }
        return now;
    }

    /** The latest event time of the steps, or {@code base} when they have no events. */
    static long maxEventTime(List<Step<GenEvent>> steps, long base) {
        long max = base;
        for (Step<GenEvent> step : steps) {
            for (GenEvent e : GenScenario.events(step)) {
                max = Math.max(max, e.eventTimeMs());
            }
        }
        return max;
    }

    /** Every event of the steps, in order. */
    static List<GenEvent> events(GenScenario scenario) {
        List<GenEvent> all = new ArrayList<>();
        scenario.steps().forEach(step -> all.addAll(GenScenario.events(step)));
        return all;
    }

    /**
     * {@code scenario} with one more batch of {@code events} at the end: an input (at a later
     * processing time in ProcessingTime mode), or with a trigger interval rows added and a tick to
     * the next trigger time.
     */
    static GenScenario append(GenScenario scenario, List<GenEvent> events, long step) {
        List<Step<GenEvent>> steps = new ArrayList<>(scenario.steps());
        long now = now(steps);
        long interval = scenario.triggerInterval().map(d -> d.toMillis()).orElse(0L);
        if (interval > 0) {
            steps.add(new Scenario.AddData<>(events));
            steps.add(new Scenario.Tick<>(Instant.ofEpochMilli(Math.floorDiv(now, interval) * interval + interval)));
        } else if (Times.isProcessingTime(scenario.timeMode())) {
            steps.add(new Scenario.Input<>(events, Instant.ofEpochMilli(now + Math.max(1, step))));
        } else {
            steps.add(new Scenario.Input<>(events, null));
        }
        return valid(scenario, steps);
    }

    /** {@code scenario} with a clock tick to {@code to} at the end (to the next millisecond when {@code to} is not later). */
    static GenScenario appendTick(GenScenario scenario, long to) {
        List<Step<GenEvent>> steps = new ArrayList<>(scenario.steps());
        steps.add(new Scenario.Tick<>(Instant.ofEpochMilli(Math.max(to, now(steps) + 1))));
        return valid(scenario, steps);
    }

    /** {@code scenario} without one of its steps (a stop with its start), when that leaves it valid. */
    static GenScenario dropSteps(GenScenario scenario, SplittableRandom random) {
        List<Step<GenEvent>> steps = new ArrayList<>(scenario.steps());
        if (steps.size() < 2) {
            return scenario;
        }
        int at = random.nextInt(steps.size());
        boolean stop = StepParts.is(steps.get(at), StepParts.Kind.STOP);
        steps.remove(at);
        if (stop) {
            for (int i = at; i < steps.size(); i++) {
                if (StepParts.is(steps.get(i), StepParts.Kind.START)) {
                    steps.remove(i);
                    break;
                }
            }
        }
        return valid(scenario, steps);
    }

    /** {@code scenario} with a stop and a start from the checkpoint between two of its steps. */
    static GenScenario insertRestart(GenScenario scenario, SplittableRandom random) {
        List<Step<GenEvent>> steps = new ArrayList<>(scenario.steps());
        if (steps.size() < 2) {
            return scenario;
        }
        int at = 1 + random.nextInt(steps.size() - 1);
        steps.add(at, new Scenario.Start<>());
        steps.add(at, new Scenario.Stop<>());
        return valid(scenario, steps);
    }

    /**
     * The first {@code cut} steps of {@code head}, then {@code tail}'s steps from {@code from} on,
     * moved to start at the head's clock (and, with {@code laterEvents}, after its latest event).
     */
    static GenScenario splice(GenScenario head, int cut, GenScenario tail, int from, boolean laterEvents) {
        List<Step<GenEvent>> steps = new ArrayList<>(head.steps().subList(0, cut));
        long now = now(steps);
        long base = head.eventTimeBase().toEpochMilli();
        long shift = laterEvents ? maxEventTime(steps, base) - base : 0;
        for (Step<GenEvent> step : tail.steps().subList(from, tail.steps().size())) {
            StepParts<GenEvent> parts = StepParts.of(step);
            Step<GenEvent> moved = parts.time() == null ? step : parts.atTime(parts.time().plusMillis(now));
            List<GenEvent> rows = StepParts.rowsOf(moved);
            steps.add(rows.isEmpty() || shift == 0 ? moved
                    : StepParts.of(moved).withRows(rows.stream().map(e -> e.withEventTimeMs(e.eventTimeMs() + shift)).toList()));
        }
        return valid(head, steps);
    }

    /** {@code steps} as a scenario like {@code scenario}, or {@code scenario} itself when they cannot run. */
    private static GenScenario valid(GenScenario scenario, List<Step<GenEvent>> steps) {
        return scenario.withStepsOrSame(steps);
    }
}
