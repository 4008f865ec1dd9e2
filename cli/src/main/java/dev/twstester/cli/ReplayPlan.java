package dev.twstester.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.io.ScenarioPlan;

/**
 * The steps of a replay: a {@link ScenarioPlan} (its steps are {@link Scenario} steps, each with its
 * rows file and plan line) read from a plan file ({@code scenario.txt}, as the property engine and
 * the JUnit extension's trace files write it) or made from the options {@code --at}, {@code --tick}
 * and {@code --batch-interval} (which give input steps and ticks), and the event file of each input
 * and add step.
 *
 * @param plan  the steps in order; its source is the plan file as given, or {@code options}
 * @param files the event file of each rows file, by {@link ScenarioPlan#resolve}
 */
record ReplayPlan(ScenarioPlan plan, Map<Path, EventFile> files) {
    ReplayPlan {
        files = Map.copyOf(files);
    }

    /** The steps in order. */
    List<ScenarioPlan.Step> steps() {
        return plan.steps();
    }

    /** The plan file as given, or {@code options}. */
    String source() {
        return plan.source();
    }

    /** The event file of an input or add step; null for a step without rows. */
    EventFile file(ScenarioPlan.Step step) {
        return step.hasRows() ? files.get(plan.resolve(step)) : null;
    }

    /** The version names of the plan's deploy steps, in plan order, each once. */
    List<String> deployedVersions() {
        List<String> versions = new ArrayList<>();
        for (ScenarioPlan.Step step : plan.steps()) {
            String version = step.step().applyTo(new StartsQuery()).version;
            if (version != null && !versions.contains(version)) {
                versions.add(version);
            }
        }
        return versions;
    }

    /** Whether a step after the {@code index}th starts the query: a start or a deploy (which run a failed batch again). */
    boolean startsAfter(int index) {
        for (ScenarioPlan.Step step : plan.steps().subList(index + 1, plan.steps().size())) {
            if (step.step().applyTo(new StartsQuery()).starts) {
                return true;
            }
        }
        return false;
    }

    /** Whether a step starts the query, and the version a deploy step names. */
    private static final class StartsQuery implements Scenario.StepTarget<Object, StartsQuery> {
        private boolean starts;
        private String version;

        @Override
        public StartsQuery batch(List<Object> rows, Instant at) {
            return this;
        }

        @Override
        public StartsQuery addData(List<Object> rows) {
            return this;
        }

        @Override
        public StartsQuery tick(Instant to) {
            return this;
        }

        @Override
        public StartsQuery stop() {
            return this;
        }

        @Override
        public StartsQuery start() {
            starts = true;
            return this;
        }

        @Override
        public StartsQuery deploy(String version, TwsQuery<?, Object, ?> query) {
            starts = true;
            this.version = version;
            return this;
        }
    }

    /** Number of input and add steps. */
    int inputCount() {
        return (int) plan.steps().stream().filter(ScenarioPlan.Step::hasRows).count();
    }

    /** Where {@code step} comes from in messages: {@code plan:line}, or {@code options}. */
    String where(ScenarioPlan.Step step) {
        return plan.where(step);
    }

    /**
     * Reads a plan file ({@link ScenarioPlan#read}); files are named relative to the plan's folder,
     * and every event file given to the replay must appear in it.
     */
    static ReplayPlan read(Path planFile, List<EventFile> given) {
        ScenarioPlan plan;
        try {
            plan = ScenarioPlan.read(planFile);
        } catch (IOException e) {
            throw CliException.invalidInput(planFile + ": cannot read the replay plan: " + e, e);
        } catch (IllegalArgumentException e) {
            throw CliException.invalidInput(e.getMessage(), e);
        }
        Map<Path, EventFile> byPath = new HashMap<>();
        given.forEach(f -> byPath.put(f.path().toAbsolutePath().normalize(), f));
        Map<Path, EventFile> used = new HashMap<>();
        for (ScenarioPlan.Step step : plan.steps()) {
            if (step.hasRows()) {
                Path file = plan.resolve(step);
                EventFile event = byPath.get(file);
                if (event == null) {
                    throw CliException.invalidInput(plan.where(step) + ": " + (Files.isRegularFile(file)
                            ? step.file() + " is not one of the event files replayed (the files and folders given, without"
                                    + " names starting with _ or .)"
                            : "no file " + step.file() + " next to the plan"), null);
                }
                used.put(file, event);
            }
        }
        Set<EventFile> inPlan = new HashSet<>(used.values());
        for (EventFile f : given) {
            if (!inPlan.contains(f)) {
                throw CliException.invalidInput(planFile + ": " + f.display() + " is not in the plan; add a line "
                        + "\"input " + f.label() + " at=current\" or move the file away", null);
            }
        }
        if (plan.steps().isEmpty()) {
            throw CliException.invalidInput(planFile + ": the plan has no step; write lines like "
                    + "\"input 001.jsonl at=current\", \"tick to=2024-05-01T10:05:00Z\" and \"restart\"", null);
        }
        return new ReplayPlan(plan, used);
    }

    /**
     * The plan the options give: the files in name order; file k (1, 2, ...) at its {@code --at}
     * time, else {@code start + k * interval} when an interval is given, else at the next trigger;
     * each {@code --tick} placed before the first input with a later time (after the last input
     * when none is later).
     */
    static ReplayPlan fromOptions(List<EventFile> files, Map<String, Instant> at, List<Instant> ticks,
            Duration interval, Instant start) {
        Map<String, List<EventFile>> byName = new LinkedHashMap<>();
        files.forEach(f -> byName.computeIfAbsent(f.name(), n -> new ArrayList<>()).add(f));
        Map<String, Instant> times = new LinkedHashMap<>(at);
        List<Instant> inputTimes = new ArrayList<>();
        for (int k = 0; k < files.size(); k++) {
            Instant time = atTime(files.get(k), byName, times);
            inputTimes.add(time == null && interval != null ? start.plus(interval.multipliedBy(k + 1L)) : time);
        }
        if (!times.isEmpty()) {
            throw CliException.usage("--at " + times.keySet().iterator().next() + "=...: no such input file; the files are "
                    + files.stream().map(EventFile::label).toList());
        }
        List<Instant> pending = new ArrayList<>(ticks);
        pending.sort(null);
        List<ScenarioPlan.Step> steps = new ArrayList<>();
        Map<Path, EventFile> byLabel = new HashMap<>();
        for (int k = 0; k < files.size(); k++) {
            EventFile f = files.get(k);
            Instant time = inputTimes.get(k);
            while (time != null && !pending.isEmpty() && pending.get(0).isBefore(time)) {
                steps.add(ScenarioPlan.Step.tick(pending.remove(0)));
            }
            if (time != null && !pending.isEmpty() && pending.get(0).equals(time)) {
                throw CliException.usage("--tick " + time + " is also the time of " + f.label()
                        + "'s batch; one trigger runs one batch, move the tick or the file");
            }
            steps.add(ScenarioPlan.Step.input(f.label(), time));
            byLabel.put(Path.of(f.label()), f);
        }
        pending.forEach(t -> steps.add(ScenarioPlan.Step.tick(t)));
        return new ReplayPlan(ScenarioPlan.of("options", steps), byLabel);
    }

    /**
     * The {@code --at} time of {@code f}, taken out of {@code times}: given by its path, label or
     * (when no other file has it) name; null when none is given.
     */
    private static Instant atTime(EventFile f, Map<String, List<EventFile>> byName, Map<String, Instant> times) {
        Instant time = null;
        String timeFrom = null;
        List<String> names = new ArrayList<>(List.of(f.display(), f.label()));
        if (byName.get(f.name()).size() == 1) {
            names.add(f.name());
        } else if (times.containsKey(f.name()) && !names.contains(f.name())) {
            throw CliException.usage("--at " + f.name() + "=...: " + byName.get(f.name()).size() + " files have this"
                    + " name (" + String.join(", ", byName.get(f.name()).stream().map(EventFile::label).toList())
                    + "); name one with its folder, like --at " + f.label() + "=...");
        }
        for (String name : names) {
            Instant given = times.remove(name);
            if (given != null && time != null && !given.equals(time)) {
                throw CliException.usage("--at gives " + f.label() + " two times: " + timeFrom + "=" + time
                        + " and " + name + "=" + given);
            }
            if (given != null) {
                time = given;
                timeFrom = name;
            }
        }
        return time;
    }

    /**
     * Checks that processing time never moves backwards and, in ProcessingTime mode with a zero
     * trigger interval, that every input has its own, strictly later time (live Spark runs a batch
     * there only on a clock move). With an interval, an input without a time runs at the next
     * trigger.
     */
    void validate(boolean processingTime, long triggerIntervalMs, String hint) {
        ClockCheck check = new ClockCheck(processingTime && triggerIntervalMs == 0, hint);
        for (ScenarioPlan.Step step : plan.steps()) {
            check.step = step;
            step.step().applyTo(check);
        }
    }

    /** The times of input steps and ticks, in plan order; the clock carries over the other steps. */
    private final class ClockCheck implements Scenario.StepTarget<Object, Void> {
        private final boolean strict;
        private final String hint;
        private Instant now = Instant.EPOCH;
        private String previous = "the start (" + Instant.EPOCH + ")";
        private ScenarioPlan.Step step;

        ClockCheck(boolean strict, String hint) {
            this.strict = strict;
            this.hint = hint;
        }

        @Override
        public Void batch(List<Object> rows, Instant at) {
            String what = file(step).label();
            if (at == null) {
                if (strict) {
                    throw CliException.usage(what + " has no processing time (" + where(step) + "); in ProcessingTime"
                            + " mode every file needs one, " + hint);
                }
                return null;
            }
            moveTo(at, what + " at " + at, what + " (" + at + ")");
            return null;
        }

        @Override
        public Void tick(Instant to) {
            String what = "tick to " + to;
            moveTo(to, what, what);
            return null;
        }

        private void moveTo(Instant time, String what, String next) {
            if (time.isBefore(now)) {
                throw CliException.usage(what + " is before " + previous + " (" + where(step)
                        + "); processing time never moves backwards");
            }
            if (strict && !time.isAfter(now)) {
                throw CliException.usage(what + " is not after " + previous + " (" + where(step)
                        + "); in ProcessingTime mode each step needs a strictly later time (one trigger, one batch)");
            }
            now = time;
            previous = next;
        }

        @Override
        public Void addData(List<Object> rows) {
            return null;
        }

        @Override
        public Void stop() {
            return null;
        }

        @Override
        public Void start() {
            return null;
        }

        @Override
        public Void deploy(String version, TwsQuery<?, Object, ?> query) {
            return null;
        }
    }
}
