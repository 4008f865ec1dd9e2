package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay} on hostile files: an event file with a byte order mark on a line and NaN for a
 * string replays as Spark reads it; invalid UTF-8 in an event file, a plan or an {@code --expect}
 * file is invalid input (exit 3) naming the file and line.
 */
class ReplayHostileInputTest {
    static final String CART = ReplayCartStoryTest.CART;
    static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            out.writeBytes(p instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) p);
        }
        return out.toByteArray();
    }

    @Test
    void aByteOrderMarkOnEveryLineReplaysAsTheFileWithout(@TempDir Path dir, @TempDir Path plain) throws IOException {
        Cli.copy("cart", dir);
        Cli.copy("cart", plain);
        Path file = dir.resolve("002.jsonl");
        StringBuilder marked = new StringBuilder();
        Files.readAllLines(file).forEach(line -> marked.append('\uFEFF').append(line).append('\n'));
        Files.writeString(file, marked);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART, "--format", "json");
        Cli.Result expected = Cli.run("replay", plain.toString(), "--query", CART, "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(expected.out()).contains("\"batchId\":1");
    }

    @Test
    void invalidUtf8InAnEventFileIsInvalidInputNamingTheFileLineAndByte(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.write(dir.resolve("002.jsonl"), concat("{\"userId\":\"bo\",\"event\":\"add\",\"item\":\"scarf\","
                + "\"ts\":\"2024-05-01T10:12:00Z\"}\n{\"userId\":\"b", new byte[] {(byte) 0xFF}, "o\",\"event\":\"add\","
                + "\"item\":\"hat\",\"ts\":\"2024-05-01T10:13:00Z\"}\n"));

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.err()).contains(dir.resolve("002.jsonl") + ":2: byte 13 is not UTF-8 (")
                .contains("Spark's JSON source would read a row of nulls; save the file as UTF-8");
    }

    @Test
    void invalidUtf8InAPlanIsInvalidInputNamingThePlanAndLine(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.write(dir.resolve("scenario.txt"), concat(BOM, "input 001.jsonl at=current\ninput 002.jsonl",
                new byte[] {(byte) 0xC3}, "\ninput 003.jsonl\n"));

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.err()).contains(dir.resolve("scenario.txt") + ":2: byte 16 is not UTF-8; save the plan as UTF-8");
    }

    @Test
    void invalidUtf8InAnExpectedRunIsInvalidInputNamingTheFileAndLine(@TempDir Path dir) throws IOException {
        Path cart = Cli.resource("cart");
        Cli.Result saved = Cli.run("replay", cart.toString(), "--query", CART, "--format", "json");
        assertThat(saved.exitCode()).as(saved.toString()).isZero();
        String[] lines = saved.out().split("\n");
        Path expect = dir.resolve("run.jsonl");
        Files.write(expect, concat(lines[0] + "\n" + lines[1], new byte[] {(byte) 0xFE}, "\n"));

        Cli.Result r = Cli.run("replay", cart.toString(), "--query", CART, "--expect", expect.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.err()).contains(expect + ":2: not UTF-8 text; --expect reads what replay --format json wrote");
    }
}
