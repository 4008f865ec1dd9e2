package dev.twstester.property;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import dev.twstester.property.GenScenario.Input;
import dev.twstester.property.GenScenario.Step;
import dev.twstester.property.GenScenario.Tick;

/** Writes a {@link GenScenario} as batch files and a replay plan; see {@link GenScenario#writeBatchFiles}. */
final class ScenarioFiles {
    /** The plan line of a restart step; the CLI and tester-junit's traces use exactly this line. */
    static final String RESTART_LINE = "restart";

    private ScenarioFiles() {}

    static <I> List<Path> write(GenScenario scenario, Path dir, Function<? super I, String> toJsonLine,
            EventFactory<? extends I> factory) throws IOException {
        Files.createDirectories(dir);
        deleteBatchFiles(dir);
        List<Path> written = new ArrayList<>();
        StringBuilder plan = new StringBuilder("# replay plan: one line per step, in order; input files hold one JSON row per line\n");
        // a comment, so a plan reader that knows only steps still reads it; the count changes the run
        scenario.shufflePartitions().ifPresent(n -> plan.append("# shuffle partitions: ").append(n)
                .append(" (run the query with withShufflePartitions(").append(n).append("))\n"));
        for (Step s : scenario.steps()) {
            if (s instanceof Input in) {
                Path file = dir.resolve(String.format(Locale.ROOT, "%03d.jsonl", written.size() + 1));
                StringBuilder lines = new StringBuilder();
                for (I row : GenScenario.<I>rows(in, factory)) {
                    lines.append(jsonLine(toJsonLine, row)).append('\n');
                }
                Files.writeString(file, lines, StandardCharsets.UTF_8);
                written.add(file);
                plan.append("input ").append(file.getFileName()).append(" at=")
                        .append(in.atMs() == null ? "current" : Times.instant(in.atMs())).append('\n');
            } else if (s instanceof Tick tick) {
                plan.append("tick to=").append(Times.instant(tick.toMs())).append('\n');
            } else {
                plan.append(RESTART_LINE).append('\n');
            }
        }
        plan.append('\n').append(scenario.describe()).append('\n');
        Files.writeString(dir.resolve("scenario.txt"), plan, StandardCharsets.UTF_8);
        return written;
    }

    private static <I> String jsonLine(Function<? super I, String> toJsonLine, I row) {
        String line = toJsonLine.apply(row);
        if (line == null || line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("toJsonLine must return one JSON object on one line, but returned "
                    + (line == null ? "null" : "a string with a line break") + " for row " + row);
        }
        return line;
    }

    private static void deleteBatchFiles(Path dir) throws IOException {
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, "*.jsonl")) {
            for (Path p : old) {
                if (p.getFileName().toString().matches("\\d{3,}\\.jsonl")) {
                    Files.delete(p);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
