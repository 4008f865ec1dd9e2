package dev.twstester.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The order of a replay: input steps (one file = one micro-batch, optionally picked up at a given
 * processing time), clock ticks and restarts from the checkpoint. Comes from a plan file
 * ({@code scenario.txt}, as {@code GenScenario.writeBatchFiles} and the JUnit extension's trace
 * files write it) or from the options {@code --at}, {@code --tick} and {@code --batch-interval}
 * (which give no restarts).
 */
record ReplayPlan(List<Step> steps, String source) {
    ReplayPlan {
        steps = List.copyOf(steps);
    }

    /** One step of a replay. */
    sealed interface Step permits Input, Tick, Restart {}

    /** One file, one micro-batch, at processing time {@code at} or, when null, at the clock's current time. */
    record Input(EventFile file, Instant at) implements Step {}

    /** The processing-time clock moves to {@code to}: in ProcessingTime mode a (no-data) batch. */
    record Tick(Instant to) implements Step {}

    /**
     * The query stops and starts again from its checkpoint: state, timers, watermark, clock and
     * batch ids carry over, a fresh processor runs the driver-side init/close pass, and no batch
     * runs until the next input.
     */
    record Restart() implements Step {}

    int inputCount() {
        return (int) steps.stream().filter(s -> s instanceof Input).count();
    }

    /**
     * Reads a plan: one step per line, {@code input FILE [at=current|<ISO instant>]},
     * {@code tick to=<ISO instant>} or {@code restart}; {@code #} comments and blank lines are
     * skipped, and the first blank line after a step ends the plan (what follows is notes, like the
     * scenario description {@code writeBatchFiles} appends). Files are named relative to the plan's
     * folder; every event file given to the replay must appear in it.
     */
    static ReplayPlan read(Path planFile, String display, List<EventFile> given) {
        List<String> lines;
        try {
            lines = Files.readAllLines(planFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw CliException.invalidInput(display + ": cannot read the replay plan: " + e, e);
        }
        Path folder = planFile.toAbsolutePath().normalize().getParent();
        Map<Path, EventFile> byPath = new HashMap<>();
        given.forEach(f -> byPath.put(f.path().toAbsolutePath().normalize(), f));
        List<Step> steps = new ArrayList<>();
        TreeSet<String> used = new TreeSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            String at = display + ":" + (i + 1) + ": ";
            if (line.isEmpty()) {
                if (!steps.isEmpty()) {
                    break;
                }
                continue;
            }
            if (line.startsWith("#")) {
                continue;
            }
            String[] words = line.split("\\s+");
            if (words[0].equals("input") && (words.length == 2 || words.length == 3)) {
                Path file = folder.resolve(words[1]).normalize();
                EventFile event = byPath.get(file);
                if (event == null) {
                    throw CliException.invalidInput(at + (Files.isRegularFile(file) ? words[1]
                            + " is not one of the event files replayed (*.jsonl, *.json, given in the arguments)"
                            : "no file " + words[1] + " next to the plan"), null);
                }
                used.add(event.display());
                Instant time = null;
                if (words.length == 3) {
                    String value = option(words[2], "at", at, line);
                    time = value.equals("current") ? null : instant(value, at);
                }
                steps.add(new Input(event, time));
            } else if (words[0].equals("tick") && words.length == 2) {
                steps.add(new Tick(instant(option(words[1], "to", at, line), at)));
            } else if (words[0].equals("restart")) {
                if (words.length > 1) {
                    throw CliException.invalidInput(at + "\"" + shorten(line) + "\": restart takes nothing after it;"
                            + " write \"restart\" alone on its line (the query restarts from its checkpoint there)",
                            null);
                }
                steps.add(new Restart());
            } else {
                throw CliException.invalidInput(at + "cannot read \"" + shorten(line) + "\"; a step is "
                        + "\"input 001.jsonl at=current\", \"input 002.jsonl at=2024-05-01T10:00:00Z\", "
                        + "\"tick to=2024-05-01T10:05:00Z\" or \"restart\"", null);
            }
        }
        for (EventFile f : given) {
            if (!used.contains(f.display())) {
                throw CliException.invalidInput(display + ": " + f.display() + " is not in the plan; add a line "
                        + "\"input " + f.name() + " at=current\" or move the file away", null);
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
     * time, else {@code start + k * interval} when an interval is given, else at the clock's time;
     * each {@code --tick} placed before the first input with a later time (after the last input
     * when none is later).
     */
    static ReplayPlan fromOptions(List<EventFile> files, Map<String, Instant> at, List<Instant> ticks,
            Duration interval, Instant start) {
        Map<String, Instant> times = new LinkedHashMap<>(at);
        List<Step> inputs = new ArrayList<>();
        for (int k = 0; k < files.size(); k++) {
            EventFile f = files.get(k);
            Instant time = times.remove(f.display());
            Instant byName = times.remove(f.name());
            if (time != null && byName != null && !time.equals(byName)) {
                throw CliException.usage("--at gives " + f.display() + " two times: " + time + " and " + byName);
            }
            time = time != null ? time : byName;
            if (time == null && interval != null) {
                time = start.plus(interval.multipliedBy(k + 1L));
            }
            inputs.add(new Input(f, time));
        }
        if (!times.isEmpty()) {
            throw CliException.usage("--at " + times.keySet().iterator().next() + "=...: no such input file; the files are "
                    + files.stream().map(EventFile::name).toList());
        }
        List<Instant> pending = new ArrayList<>(ticks);
        pending.sort(null);
        List<Step> steps = new ArrayList<>();
        for (Step s : inputs) {
            Instant time = ((Input) s).at();
            while (time != null && !pending.isEmpty() && pending.get(0).isBefore(time)) {
                steps.add(new Tick(pending.remove(0)));
            }
            if (time != null && !pending.isEmpty() && pending.get(0).equals(time)) {
                throw CliException.usage("--tick " + time + " is also the time of " + ((Input) s).file().name()
                        + "'s batch; one trigger runs one batch, move the tick or the file");
            }
            steps.add(s);
        }
        pending.forEach(t -> steps.add(new Tick(t)));
        return new ReplayPlan(steps, "options");
    }

    /**
     * Checks that processing time never moves backwards and, in ProcessingTime mode, that every
     * step has its own, strictly later time (one trigger tick per batch, as live Spark needs).
     */
    void validate(boolean processingTime, String hint) {
        Instant now = Instant.EPOCH;
        String previous = "the start (" + Instant.EPOCH + ")";
        for (Step s : steps) {
            if (s instanceof Restart) {
                continue;   // the clock carries over
            }
            Instant time = s instanceof Input in ? in.at() : ((Tick) s).to();
            String what = s instanceof Input in ? in.file().name() : "tick to " + ((Tick) s).to();
            if (time == null) {
                if (processingTime) {
                    throw CliException.usage(what + " has no processing time (" + source + "); in ProcessingTime mode"
                            + " every file needs one, " + hint);
                }
                continue;
            }
            if (time.isBefore(now)) {
                throw CliException.usage(what + " at " + time + " is before " + previous + " (" + source
                        + "); processing time never moves backwards");
            }
            if (processingTime && !time.isAfter(now)) {
                throw CliException.usage(what + " at " + time + " is not after " + previous + " (" + source
                        + "); in ProcessingTime mode each step needs a strictly later time (one trigger, one batch)");
            }
            now = time;
            previous = what + " (" + time + ")";
        }
    }

    private static String option(String word, String name, String at, String line) {
        if (!word.startsWith(name + "=")) {
            throw CliException.invalidInput(at + "expected " + name + "=... in \"" + shorten(line) + "\"", null);
        }
        return word.substring(name.length() + 1);
    }

    private static Instant instant(String text, String at) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw CliException.invalidInput(at + "cannot parse \"" + shorten(text) + "\" as an instant; write ISO-8601"
                    + " UTC like 2024-05-01T10:00:00Z", e);
        }
    }

    private static String shorten(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "...";
    }
}
