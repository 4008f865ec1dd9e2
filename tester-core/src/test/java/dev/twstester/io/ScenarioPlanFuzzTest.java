package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.testing.Mutations;

/**
 * 10,000 mutated plan files ({@code scenario.txt}) read by {@link ScenarioPlan#read}: each gives one
 * step per step line before the first blank line ({@code restart}: two), or fails with an
 * {@link IllegalArgumentException} naming the plan file and a line of it. Never another exception,
 * never a hang, never a step line dropped. {@code -Dtwstester.fuzz.scale=N} reads N times as many.
 */
class ScenarioPlanFuzzTest {
    static final int PLANS = 10_000;
    static final String PLAN = ScenarioPlan.HEADER + """

            input 001.jsonl at=current
            input 002.jsonl at=2024-05-01T10:05:00Z
            add 003.jsonl
            tick to=2024-05-01T10:06:00Z
            stop
            add 004.jsonl
            start
            restart
            input 005.jsonl

            notes: why this scenario matters
            """;

    @TempDir
    Path dir;

    @Test
    void tenThousandMutatedPlansGiveEveryStepLineAStepOrAnErrorNamingFileAndLine() {
        Mutations fuzz = Mutations.seeded("plan files");
        byte[] valid = PLAN.getBytes(StandardCharsets.UTF_8);
        Path file = dir.resolve(ScenarioPlan.FILE_NAME);
        fuzz.run(Mutations.count(PLANS), random -> {
            byte[] input = fuzz.mutate(valid, random);
            return () -> check(file, input);
        });
    }

    @Test
    void theValidPlanHasItsStepsAndAByteOrderMarkIsSkipped() throws IOException {
        Path file = dir.resolve(ScenarioPlan.FILE_NAME);
        Files.write(file, ("\uFEFF" + PLAN).getBytes(StandardCharsets.UTF_8));
        assertThat(ScenarioPlan.read(file).steps()).hasSize(10);
    }

    private static void check(Path file, byte[] input) {
        try {
            Files.write(file, input);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String shown = Mutations.show(input);
        List<String> lines = lines(input);
        try {
            ScenarioPlan plan = ScenarioPlan.read(file);
            assertThat(plan.steps()).as(shown).hasSize(stepLines(lines));
            plan.steps().forEach(step -> assertThat(step.line()).isBetween(1, lines.size()));
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).as(shown).matches(java.util.regex.Pattern.quote(file.toString())
                    + ":[1-9][0-9]*: [^\\n\\r]*");
            int line = Integer.parseInt(e.getMessage().substring(file.toString().length() + 1).split(":")[0]);
            assertThat(line).as(e.getMessage()).isBetween(1, lines.size());
        } catch (IOException e) {
            throw new AssertionError(shown + ": " + e, e);
        }
    }

    /** The lines as ScenarioPlan reads them (\n, \r, \r\n), invalid UTF-8 replaced (only counted here). */
    private static List<String> lines(byte[] input) {
        List<String> lines = new ArrayList<>();
        try (ByteLines in = ByteLines.of(new java.io.ByteArrayInputStream(input))) {
            for (ByteLines.Line line = in.next(); line != null; line = in.next()) {
                lines.add(line.text() != null ? line.text() : new String(line.bytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }

    /** Steps of the lines before the first blank one: comments none, restart two, any other line one. */
    private static int stepLines(List<String> lines) {
        int steps = 0;
        for (String line : lines) {
            String step = line.strip();
            if (step.isEmpty()) {
                break;
            }
            if (!step.startsWith("#")) {
                steps += step.split("\\s+")[0].equals("restart") ? 2 : 1;
            }
        }
        return steps;
    }
}
