package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.testing.ChildJvm;

/**
 * A line of 100 MB and nesting 10 million levels deep, read by each reader in a child JVM with a
 * heap of {@value #HEAP} (about 7 times the input) and a stack of {@value #STACK}: each is read, or
 * fails with the reader's error naming the line (Jackson's limits: names of 50,000 characters,
 * run-file strings of 20 million, nesting of 1,000 levels); never an {@link OutOfMemoryError} or a
 * {@link StackOverflowError} ({@link HugeInputChild}).
 */
class HugeInputTest {
    static final int MB = 1_000_000;
    static final String HEAP = "-Xmx700m";
    static final String STACK = "-Xss512k";

    @TempDir
    Path dir;

    /** {@code before}, then {@code count} times {@code repeated}, then {@code after}, written without holding it. */
    private Path file(String name, String before, String repeated, int count, String after) throws IOException {
        Path file = dir.resolve(name);
        byte[] unit = repeated.repeat(Math.max(1, (1 << 16) / repeated.length())).getBytes(StandardCharsets.UTF_8);
        int perUnit = unit.length / repeated.length();
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            out.write(before.getBytes(StandardCharsets.UTF_8));
            int left = count;
            for (; left >= perUnit; left -= perUnit) {
                out.write(unit);
            }
            out.write(repeated.repeat(left).getBytes(StandardCharsets.UTF_8));
            out.write(after.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    private static String child(String reader, Path file) {
        ChildJvm.Result r = ChildJvm.main(HugeInputChild.class, reader, file.toString()).flag(HEAP).flag(STACK)
                .timeout(Duration.ofSeconds(240)).run();
        assertThat(r.exit()).as(r.toString()).isZero();
        return r.stdout();
    }

    @Test
    void anEventLineOf100MegabytesIsReadInABoundedHeapTheQuickWayAndTheExactWay() throws IOException {
        assertThat(child("events", file("quick.jsonl", "{\"s\":\"", "x", 100 * MB, "\",\"i\":1}\n")))
                .contains("OK 1 rows, first s of 100000000 characters, i 1");
        assertThat(child("events", file("exact.jsonl", "{\"zz\":1,\"s\":\"", "x", 100 * MB, "\",\"i\":1}\n")))
                .contains("OK 1 rows, first s of 100000000 characters, i 1")
                .contains("note huge.jsonl:1: note: field \"zz\": unknown field");
        assertThat(child("events", file("name.jsonl", "{\"", "n", 100 * MB, "\":1,\"i\":2}\n")))
                .contains("ERROR JsonLinesException: huge.jsonl:1: not valid JSON: Name length (100000000) exceeds the"
                        + " maximum allowed (50000");
    }

    @Test
    void nesting10MillionLevelsDeepFailsItsLineWithoutAStackOverflow() throws IOException {
        assertThat(child("events", file("deep.jsonl", "{\"i\":1}\n{\"s\":", "[", 10 * MB, "\n")))
                .contains("ERROR JsonLinesException: huge.jsonl:2: not valid JSON: Document nesting depth (100")
                .contains("exceeds the maximum allowed (1000");
        assertThat(child("run", file("deep-run.jsonl", "{\"batchId\":", "[", 10 * MB, "\n")))
                .contains("ERROR IllegalArgumentException: line 1: not valid JSON: Document nesting depth (100")
                .contains("exceeds the maximum allowed (1000");
    }

    @Test
    void aPlanLineAndARunLineOf100MegabytesAreReadOrRefusedInABoundedHeap() throws IOException {
        assertThat(child("plan", file("scenario.txt", "# ", "c", 100 * MB, "\ninput 001.jsonl\n"))).contains("OK 1 steps");
        assertThat(child("plan", file("bad-plan.txt", "input 001.jsonl at=", "c", 100 * MB, "\n")))
                .containsPattern("ERROR IllegalArgumentException: .*bad-plan.txt:1: cannot parse \"c{60}...\" as an"
                        + " instant; write ISO-8601 UTC like 2024-05-01T10:00:00Z \\(\\d+ characters\\)");
        assertThat(child("run", file("run.jsonl", "{\"batchId\":\"", "m", 100 * MB, "\"}\n")))
                .contains("ERROR IllegalArgumentException: line 1: not valid JSON: String value length (")
                .contains(") exceeds the maximum allowed (20000000");
    }
}
