package dev.twstester.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import dev.twstester.io.ScenarioPlan;

/**
 * The steps of a replay, each a {@link ScenarioPlan.Step} with its event file (for input and add
 * steps): from a plan file ({@code scenario.txt}, read by {@link ScenarioPlan}, as the property
 * engine and the JUnit extension's trace files write it) or from the options {@code --at},
 * {@code --tick} and {@code --batch-interval} (which give input steps and ticks).
 *
 * @param steps  the steps in order
 * @param source the plan file as given, or {@code options}
 */
record ReplayPlan(List<Entry> steps, String source) {
    ReplayPlan {
        steps = List.copyOf(steps);
    }

    /**
     * One step and its event file.
     *
     * @param step the step
     * @param file the event file of an input or add step, else null
     */
    record Entry(ScenarioPlan.Step step, EventFile file) {
        ScenarioPlan.Kind kind() {
            return step.kind();
        }
    }

    /** Number of input and add steps. */
    int inputCount() {
        return (int) steps.stream().filter(e -> e.file() != null).count();
    }

    /** Where {@code entry} comes from in messages: {@code plan:line}, or {@code options}. */
    String where(Entry entry) {
        return entry.step().line() > 0 ? source + ":" + entry.step().line() : source;
    }

    /**
     * Reads a plan file ({@link ScenarioPlan#read}); files are named relative to the plan's folder,
     * and every event file given to the replay must appear in it.
     */
    static ReplayPlan read(Path planFile, String display, List<EventFile> given) {
        ScenarioPlan plan;
        try {
            plan = ScenarioPlan.read(planFile);
        } catch (IOException e) {
            throw CliException.invalidInput(display + ": cannot read the replay plan: " + e, e);
        } catch (IllegalArgumentException e) {
            throw CliException.invalidInput(e.getMessage(), e);
        }
        Map<Path, EventFile> byPath = new HashMap<>();
        given.forEach(f -> byPath.put(f.path().toAbsolutePath().normalize(), f));
        List<Entry> steps = new ArrayList<>();
        TreeSet<String> used = new TreeSet<>();
        for (ScenarioPlan.Step step : plan.steps()) {
            EventFile event = null;
            if (step.hasRows()) {
                Path file = plan.resolve(step);
                event = byPath.get(file);
                if (event == null) {
                    throw CliException.invalidInput(display + ":" + step.line() + ": " + (Files.isRegularFile(file)
                            ? step.file() + " is not one of the event files replayed (the files and folders given, without"
                                    + " names starting with _ or .)"
                            : "no file " + step.file() + " next to the plan"), null);
                }
                used.add(event.display());
            }
            steps.add(new Entry(step, event));
        }
        for (EventFile f : given) {
            if (!used.contains(f.display())) {
                throw CliException.invalidInput(display + ": " + f.display() + " is not in the plan; add a line "
                        + "\"input " + f.label() + " at=current\" or move the file away", null);
            }
        }
        if (steps.isEmpty()) {
            throw CliException.invalidInput(display + ": the plan has no step; write lines like "
                    + "\"input 001.jsonl at=current\", \"tick to=2024-05-01T10:05:00Z\" and \"restart\"", null);
        }
        return new ReplayPlan(steps, display);
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
        List<Entry> inputs = new ArrayList<>();
        for (int k = 0; k < files.size(); k++) {
            EventFile f = files.get(k);
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
            if (time == null && interval != null) {
                time = start.plus(interval.multipliedBy(k + 1L));
            }
            inputs.add(new Entry(ScenarioPlan.Step.input(f.label(), time), f));
        }
        if (!times.isEmpty()) {
            throw CliException.usage("--at " + times.keySet().iterator().next() + "=...: no such input file; the files are "
                    + files.stream().map(EventFile::label).toList());
        }
        List<Instant> pending = new ArrayList<>(ticks);
        pending.sort(null);
        List<Entry> steps = new ArrayList<>();
        for (Entry e : inputs) {
            Instant time = e.step().time();
            while (time != null && !pending.isEmpty() && pending.get(0).isBefore(time)) {
                steps.add(new Entry(ScenarioPlan.Step.tick(pending.remove(0)), null));
            }
            if (time != null && !pending.isEmpty() && pending.get(0).equals(time)) {
                throw CliException.usage("--tick " + time + " is also the time of " + e.file().label()
                        + "'s batch; one trigger runs one batch, move the tick or the file");
            }
            steps.add(e);
        }
        pending.forEach(t -> steps.add(new Entry(ScenarioPlan.Step.tick(t), null)));
        return new ReplayPlan(steps, "options");
    }

    /**
     * Checks that processing time never moves backwards and, in ProcessingTime mode with a zero
     * trigger interval, that every input has its own, strictly later time (live Spark runs a batch
     * there only on a clock move). With an interval, an input without a time runs at the next
     * trigger.
     */
    void validate(boolean processingTime, long triggerIntervalMs, String hint) {
        boolean strict = processingTime && triggerIntervalMs == 0;
        Instant now = Instant.EPOCH;
        String previous = "the start (" + Instant.EPOCH + ")";
        for (Entry e : steps) {
            ScenarioPlan.Step s = e.step();
            if (s.kind() != ScenarioPlan.Kind.INPUT && s.kind() != ScenarioPlan.Kind.TICK) {
                continue;   // the clock carries over
            }
            Instant time = s.time();
            String what = s.kind() == ScenarioPlan.Kind.INPUT ? e.file().label() : "tick to " + s.time();
            String from = where(e);
            if (time == null) {
                if (strict) {
                    throw CliException.usage(what + " has no processing time (" + from + "); in ProcessingTime mode"
                            + " every file needs one, " + hint);
                }
                continue;
            }
            boolean input = s.kind() == ScenarioPlan.Kind.INPUT;
            String whatAt = input ? what + " at " + time : what;
            if (time.isBefore(now)) {
                throw CliException.usage(whatAt + " is before " + previous + " (" + from
                        + "); processing time never moves backwards");
            }
            if (strict && !time.isAfter(now)) {
                throw CliException.usage(whatAt + " is not after " + previous + " (" + from
                        + "); in ProcessingTime mode each step needs a strictly later time (one trigger, one batch)");
            }
            now = time;
            previous = input ? what + " (" + time + ")" : what;
        }
    }
}
