package dev.twstester.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/**
 * A {@link Scenario} as files, the format {@code twstester replay} reads and the property engine
 * and the JUnit extension save: the rows of each input or add step in a numbered JSON-lines file
 * ({@code 001.jsonl}, {@code 002.jsonl}, ..., one JSON object per line, an empty file for no
 * rows) and {@code scenario.txt}, the plan, with one line per step in order:
 *
 * <pre>
 * # replay plan: one line per step, in order; input files hold one JSON row per line
 * input 001.jsonl at=current                  (Scenario.Input: a batch at the next trigger)
 * input 002.jsonl at=2024-05-01T10:05:00Z     (Scenario.Input: a batch at the trigger at that time)
 * add 003.jsonl                               (Scenario.AddData: rows wait for a trigger)
 * tick to=2024-05-01T10:06:00Z                (Scenario.Tick: the clock moves)
 * stop                                        (Scenario.Stop)
 * start                                       (Scenario.Start)
 * deploy com.acme.Carts#fixed                 (Scenario.Deploy: a new version of the query, by its query method)
 *
 * notes (anything after the first blank line is not read)
 * </pre>
 *
 * {@code #} starts a comment line; the older {@code restart} line reads as {@code stop} then
 * {@code start}. File names are relative to the plan's folder. Read back, a plan is the scenario's
 * steps without their rows, each with its rows file and its line ({@link Step}), which
 * {@link #toScenario} fills with the rows.
 *
 * <pre>{@code
 * // write: rows as JSON lines, then the plan and notes
 * ScenarioPlan.write(scenario, Path.of("target/story"), row -> toJson(row), "why this scenario matters");
 * // read back: the steps, then a Scenario with each file's rows
 * ScenarioPlan plan = ScenarioPlan.read(Path.of("target/story/scenario.txt"));
 * Scenario<CartEvent> again = plan.toScenario(file -> readRows(file));
 * }</pre>
 *
 * Reading fails with an {@link IllegalArgumentException} naming the plan file and line
 * ({@code target/story/scenario.txt:4: ...}) for a line that is not a step, a time that is not an
 * ISO-8601 instant, and steps in an impossible order ({@code start} while running, {@code stop}
 * while stopped, {@code input} while stopped). Immutable.
 */
public final class ScenarioPlan {
    /** The plan's file name in a scenario folder. */
    public static final String FILE_NAME = "scenario.txt";
    /** The first line of every written plan. */
    public static final String HEADER = "# replay plan: one line per step, in order; input files hold one JSON row per line";

    private static final String FORMS = "\"input 001.jsonl at=current\", \"input 002.jsonl at=2024-05-01T10:00:00Z\", "
            + "\"add 003.jsonl\", \"tick to=2024-05-01T10:05:00Z\", \"stop\", \"start\", \"restart\" or "
            + "\"deploy com.acme.Carts#fixed\"";

    private final String source;
    private final Path folder;
    private final List<Step> steps;

    private ScenarioPlan(String source, Path folder, List<Step> steps) {
        this.source = source;
        this.folder = folder;
        this.steps = List.copyOf(steps);
    }

    /**
     * One step of a plan: a {@link Scenario} step, with where its rows are (the rows file of an
     * input or add step) and where the plan gives it (its line). The step itself holds no rows:
     * {@link #withRows} gives the scenario step with the file's rows. Every use of the step's kind
     * goes through {@link Scenario.Step#applyTo}.
     *
     * <pre>{@code
     * ScenarioPlan.Step step = ScenarioPlan.Step.input("002.jsonl", Instant.parse("2024-05-01T10:05:00Z"));
     * step.planLine();                                  // input 002.jsonl at=2024-05-01T10:05:00Z
     * Scenario.Step<CartEvent> batch = step.withRows(rowsOf002);
     * }</pre>
     *
     * @param step the step; an input or add step's rows are in {@code file}, not here (given rows
     *             are dropped)
     * @param file the rows file of an input or add step, relative to the plan's folder; else null
     * @param line the plan line (1-based; 0 for a step not read from a file)
     */
    public record Step(Scenario.Step<Object> step, String file, int line) {
        public Step {
            Objects.requireNonNull(step, "step must not be null");
            boolean hasRows = rowsOf(step) != null;
            if (hasRows != (file != null)) {
                throw new IllegalArgumentException(hasRows ? "input and add steps need a rows file"
                        : "tick, stop, start and deploy steps have no rows file");
            }
            step = rebuild(step, List.of());
        }

        /** An input step of {@code file} at the trigger at {@code at} (null: the next trigger). */
        public static Step input(String file, Instant at) {
            return new Step(new Scenario.Input<>(List.of(), at), file, 0);
        }

        /** An add step of {@code file}. */
        public static Step add(String file) {
            return new Step(new Scenario.AddData<>(List.of()), file, 0);
        }

        /** A tick to {@code to}. */
        public static Step tick(Instant to) {
            return new Step(new Scenario.Tick<>(to), null, 0);
        }

        /** {@code step} (its rows, if any, dropped) with its rows file ({@code null} for a step without rows). */
        public static Step of(Scenario.Step<?> step, String file) {
            return new Step(rebuild(step, List.of()), file, 0);
        }

        /** Whether the step reads a rows file (an input or add step). */
        public boolean hasRows() {
            return file != null;
        }

        /** The scenario step, with {@code rows} (the file's rows; ignored by a step without a file). */
        public <I> Scenario.Step<I> withRows(List<I> rows) {
            return rebuild(step, rows);
        }

        /** The step as its plan line, e.g. {@code input 001.jsonl at=current}. */
        public String planLine() {
            return step.applyTo(new Scenario.StepTarget<Object, String>() {
                @Override
                public String batch(List<Object> rows, Instant at) {
                    return "input " + file + " at=" + (at == null ? "current" : at.toString());
                }

                @Override
                public String addData(List<Object> rows) {
                    return "add " + file;
                }

                @Override
                public String tick(Instant to) {
                    return "tick to=" + to;
                }

                @Override
                public String stop() {
                    return "stop";
                }

                @Override
                public String start() {
                    return "start";
                }

                @Override
                public String deploy(String version, TwsQuery<?, Object, ?> query) {
                    return "deploy " + version;
                }
            });
        }
    }

    /** The rows of an input or add step; null for a step without rows. */
    private static <I> List<I> rowsOf(Scenario.Step<I> step) {
        return step.applyTo(new Scenario.StepTarget<I, List<I>>() {
            @Override
            public List<I> batch(List<I> rows, Instant at) {
                return rows;
            }

            @Override
            public List<I> addData(List<I> rows) {
                return rows;
            }

            @Override
            public List<I> tick(Instant to) {
                return null;
            }

            @Override
            public List<I> stop() {
                return null;
            }

            @Override
            public List<I> start() {
                return null;
            }

            @Override
            public List<I> deploy(String version, TwsQuery<?, I, ?> query) {
                return null;
            }
        });
    }

    /** {@code step} with {@code rows} instead of its own (a step without rows stays as it is). */
    private static <X, I> Scenario.Step<I> rebuild(Scenario.Step<X> step, List<I> rows) {
        return step.applyTo(new Scenario.StepTarget<X, Scenario.Step<I>>() {
            @Override
            public Scenario.Step<I> batch(List<X> ignored, Instant at) {
                return new Scenario.Input<>(rows, at);
            }

            @Override
            public Scenario.Step<I> addData(List<X> ignored) {
                return new Scenario.AddData<>(rows);
            }

            @Override
            public Scenario.Step<I> tick(Instant to) {
                return new Scenario.Tick<>(to);
            }

            @Override
            public Scenario.Step<I> stop() {
                return new Scenario.Stop<>();
            }

            @Override
            public Scenario.Step<I> start() {
                return new Scenario.Start<>();
            }

            @Override
            public Scenario.Step<I> deploy(String version, TwsQuery<?, X, ?> query) {
                return new Scenario.Deploy<>(version, null); // a plan names the version; the replay loads its query
            }
        });
    }

    /** A plan of {@code steps} not read from a file ({@code source} names it in messages). */
    public static ScenarioPlan of(String source, List<Step> steps) {
        return new ScenarioPlan(Objects.requireNonNull(source, "source must not be null"), null, steps);
    }

    /**
     * Reads the plan file {@code planFile}; file names in it are relative to its folder.
     *
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException for a line that is not a step, naming the file and line
     */
    public static ScenarioPlan read(Path planFile) throws IOException {
        Objects.requireNonNull(planFile, "planFile must not be null");
        List<String> lines = new ArrayList<>();
        try (ByteLines in = ByteLines.open(planFile)) {
            for (ByteLines.Line line = in.next(); line != null; line = in.next()) {
                if (line.text() == null) {
                    throw new IllegalArgumentException(planFile + ":" + line.number() + ": byte " + (line.invalidAt() + 1)
                            + " is not UTF-8; save the plan as UTF-8");
                }
                lines.add(line.text());
            }
        }
        Path folder = planFile.toAbsolutePath().normalize().getParent();
        return new ScenarioPlan(planFile.toString(), folder, parseSteps(lines, planFile.toString()));
    }

    /** Parses plan lines; {@code source} names the plan in error messages ({@code source:line: ...}). */
    public static ScenarioPlan parse(List<String> lines, String source) {
        return new ScenarioPlan(Objects.requireNonNull(source, "source must not be null"), null, parseSteps(lines, source));
    }

    private static List<Step> parseSteps(List<String> lines, String source) {
        List<Step> steps = new ArrayList<>();
        boolean running = true;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                break;                           // what follows is notes
            }
            if (line.startsWith("#")) {
                continue;
            }
            int number = i + 1;
            String at = source + ":" + number + ": ";
            String[] words = line.split("\\s+");
            switch (words[0]) {
                case "input" -> {
                    if (words.length < 2 || words.length > 3) {
                        throw new IllegalArgumentException(at + "\"" + shorten(line) + "\": write \"input FILE\" or "
                                + "\"input FILE at=current|INSTANT\"");
                    }
                    if (!running) {
                        throw new IllegalArgumentException(at + "\"" + shorten(line) + "\": the query is stopped here;"
                                + " a batch needs a \"start\" line before it (use \"add FILE\" for rows that arrive"
                                + " while it is stopped)");
                    }
                    Instant time = null;
                    if (words.length == 3) {
                        String value = option(words[2], "at", at, line);
                        time = value.equals("current") ? null : instant(value, at);
                    }
                    steps.add(new Step(new Scenario.Input<>(List.of(), time), fileName(words[1], at, line), number));
                }
                case "add" -> {
                    if (words.length != 2) {
                        throw new IllegalArgumentException(at + "\"" + shorten(line) + "\": write \"add FILE\"");
                    }
                    steps.add(new Step(new Scenario.AddData<>(List.of()), fileName(words[1], at, line), number));
                }
                case "tick" -> {
                    if (words.length != 2) {
                        throw new IllegalArgumentException(at + "\"" + shorten(line) + "\": write \"tick to=INSTANT\"");
                    }
                    steps.add(new Step(new Scenario.Tick<>(instant(option(words[1], "to", at, line), at)), null, number));
                }
                case "stop", "start", "restart" -> {
                    if (words.length > 1) {
                        throw new IllegalArgumentException(at + "\"" + shorten(line) + "\": " + words[0]
                                + " takes nothing after it; write \"" + words[0] + "\" alone on its line"
                                + (words[0].equals("restart") ? " (the query restarts from its checkpoint there)" : ""));
                    }
                    boolean stops = !words[0].equals("start");
                    boolean starts = !words[0].equals("stop");
                    if (stops && !running) {
                        throw new IllegalArgumentException(at + words[0] + ": the query is already stopped here;"
                                + " a \"start\" line must come first");
                    }
                    if (starts && !stops && running) {
                        throw new IllegalArgumentException(at + "start: the query is running here; a \"stop\" line"
                                + " must come first (or write \"restart\" for both)");
                    }
                    if (stops) {
                        steps.add(new Step(new Scenario.Stop<>(), null, number));
                    }
                    if (starts) {
                        steps.add(new Step(new Scenario.Start<>(), null, number));
                    }
                    running = starts;
                }
                case "deploy" -> {
                    if (words.length != 2) {
                        throw new IllegalArgumentException(at + "\"" + shorten(line) + "\": write \"deploy QUERY\", the"
                                + " new version's query method, like \"deploy com.acme.Carts#fixed\"");
                    }
                    steps.add(new Step(new Scenario.Deploy<>(words[1], null), null, number));
                    running = true;
                }
                default -> throw new IllegalArgumentException(at + "cannot read \"" + shorten(line) + "\"; a step is "
                        + FORMS);
            }
        }
        return steps;
    }

    /** The steps in order. */
    public List<Step> steps() {
        return steps;
    }

    /** The plan file as given to {@link #read}, or the source given to {@link #parse} / {@link #of}. */
    public String source() {
        return source;
    }

    /** Where {@code step} comes from in messages: {@code plan:line}, or the source when not read from a file. */
    public String where(Step step) {
        return step.line() > 0 ? source + ":" + step.line() : source;
    }

    /** Where {@code step}'s rows file is: relative to the plan's folder, or as written when not read from a file. */
    public Path resolve(Step step) {
        if (!step.hasRows()) {
            throw new IllegalArgumentException("\"" + step.planLine() + "\" has no rows file");
        }
        return folder == null ? Path.of(step.file()) : folder.resolve(step.file()).normalize();
    }

    /** The scenario, with each step's rows read by {@code rowsOf} from its file ({@link #resolve}). */
    public <I> Scenario<I> toScenario(Function<Path, List<I>> rowsOf) {
        Objects.requireNonNull(rowsOf, "rowsOf must not be null");
        List<Scenario.Step<I>> out = new ArrayList<>(steps.size());
        for (Step s : steps) {
            out.add(s.withRows(s.hasRows() ? rowsOf.apply(resolve(s)) : List.<I>of()));
        }
        return new Scenario<>(out);
    }

    /**
     * Writes {@code scenario} into {@code dir} (see {@link Writer}) with {@code notes} after the
     * plan (null for none); returns the rows files written, in step order.
     */
    public static <I> List<Path> write(Scenario<I> scenario, Path dir, Function<? super I, String> toJsonLine,
            String notes) throws IOException {
        Writer<I> w = writer(dir, toJsonLine);
        for (Scenario.Step<I> step : scenario.steps()) {
            w.step(step);
        }
        return w.finish(notes);
    }

    /**
     * A writer into {@code dir} (created if missing; numbered {@code .jsonl} files an earlier, longer
     * scenario left there are deleted now). {@code toJsonLine} writes one row as one line of JSON.
     */
    public static <I> Writer<I> writer(Path dir, Function<? super I, String> toJsonLine) throws IOException {
        Objects.requireNonNull(dir, "dir must not be null");
        Objects.requireNonNull(toJsonLine, "toJsonLine must not be null");
        Files.createDirectories(dir);
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, "*.jsonl")) {
            for (Path p : old) {
                if (p.getFileName().toString().matches("\\d{3,}\\.jsonl")) {
                    Files.delete(p);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new Writer<>(dir, toJsonLine);
    }

    /**
     * Writes a plan step by step: each {@link #step} writes the rows file of an input or add step
     * at once and adds its line, {@link #comment} adds a {@code #} line, {@link #finish} writes
     * {@code scenario.txt}.
     *
     * @param <I> row type
     */
    public static final class Writer<I> {
        private final Path dir;
        private final Function<? super I, String> toJsonLine;
        private final StringBuilder plan = new StringBuilder(HEADER).append('\n');
        private final List<Path> files = new ArrayList<>();

        private Writer(Path dir, Function<? super I, String> toJsonLine) {
            this.dir = dir;
            this.toJsonLine = toJsonLine;
        }

        /** Adds a comment line ({@code # text}); line breaks in {@code text} become more comment lines. */
        public Writer<I> comment(String text) {
            for (String line : text.split("\\R", -1)) {
                plan.append("# ").append(line).append('\n');
            }
            return this;
        }

        /** Adds {@code step}: writes its rows file, if it has rows, and returns the file's name (else null). */
        public String step(Scenario.Step<I> step) throws IOException {
            Objects.requireNonNull(step, "step must not be null");
            List<I> rows = rowsOf(step);
            String file = rows == null ? null : rowsFile(rows);
            plan.append(Step.of(step, file).planLine()).append('\n');
            return file;
        }

        /** Writes {@code scenario.txt}, with {@code notes} after a blank line (null for none); returns the rows files. */
        public List<Path> finish(String notes) throws IOException {
            if (notes != null) {
                plan.append('\n').append(notes).append('\n');
            }
            Files.writeString(dir.resolve(FILE_NAME), plan, StandardCharsets.UTF_8);
            return List.copyOf(files);
        }

        private String rowsFile(List<I> rows) throws IOException {
            Path file = dir.resolve(String.format(Locale.ROOT, "%03d.jsonl", files.size() + 1));
            StringBuilder lines = new StringBuilder();
            for (I row : rows) {
                String json = toJsonLine.apply(row);
                if (json == null || json.indexOf('\n') >= 0 || json.indexOf('\r') >= 0) {
                    throw new IllegalArgumentException("toJsonLine must return one JSON object on one line, but returned "
                            + (json == null ? "null" : "a string with a line break") + " for row " + row);
                }
                lines.append(json).append('\n');
            }
            Files.writeString(file, lines, StandardCharsets.UTF_8);
            files.add(file);
            return file.getFileName().toString();
        }
    }

    /** {@code word}, which names a rows file: a path this system can open. */
    private static String fileName(String word, String at, String line) {
        try {
            Path.of(word);
            return word;
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(at + "\"" + shorten(line) + "\": " + shorten(word) + " is not a file name ("
                    + e.getReason() + "); write the rows file's name, relative to the plan's folder", e);
        }
    }

    private static String option(String word, String name, String at, String line) {
        if (!word.startsWith(name + "=")) {
            throw new IllegalArgumentException(at + "expected " + name + "=... in \"" + shorten(line) + "\"");
        }
        return word.substring(name.length() + 1);
    }

    private static Instant instant(String text, String at) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(at + "cannot parse \"" + shorten(text) + "\" as an instant; write ISO-8601"
                    + " UTC like 2024-05-01T10:00:00Z", e);
        }
    }

    private static String shorten(String s) {
        return JsonRows.printable(s, 60);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        steps.forEach(s -> b.append(s.planLine()).append('\n'));
        return b.toString();
    }
}
