package dev.twstester.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.io.JsonRows;
import dev.twstester.io.RunResultJson;

/**
 * A run saved with {@code replay --format json > run.jsonl}, read back for {@code --expect}: the
 * simulator's batch lines (the {@code file}, {@code tick}, {@code start}, {@code state} and
 * {@code engine} members dropped, and each operator view's {@code state}; {@code metrics} kept for
 * the comparison; its {@code failedBatch} lines read as the run's failed batches; other engines'
 * lines, restart, stop, deploy, pending no-data batch, warning and failure lines and the comparison
 * line skipped), or a file {@link RunResultJson#writeLines} wrote (its
 * {@code {"failedBatch":...}} lines read as the run's failed batches).
 */
final class ExpectedRun {
    private static final ObjectMapper JSON = JsonRows.mapper();
    private static final List<String> CLI_MEMBERS = List.of("file", "tick", "start", "deploy", "message", "state",
            "engine");

    private ExpectedRun() {}

    static <K, I, O> RunResult<K, I, O> read(Path file, TwsQuery<K, I, O> query) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw CliException.invalidInput(file + ":" + firstLineNotUtf8(file) + ": not UTF-8 text; --expect reads"
                    + " what replay --format json wrote", e);
        } catch (IOException e) {
            throw CliException.usage("--expect " + file + ": cannot read: " + e, e);
        }
        StringBuilder batches = new StringBuilder();
        for (String line : lines) {
            batches.append(batchLine(line)).append('\n');   // keep line numbers
        }
        try {
            return RunResultJson.readLines(batches.toString(), query);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage().startsWith("line ")
                    ? file + ":" + e.getMessage().substring("line ".length())
                    : file + ": " + e.getMessage();
            throw CliException.invalidInput(Failures.oneLine(message)
                    + "; --expect reads what replay --format json wrote", e);
        }
    }

    /** The number (1-based) of the first line of {@code file} that is not UTF-8 ({@code \n}, {@code \r} and {@code \r\n} end lines). */
    private static int firstLineNotUtf8(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return 0;
        }
        int line = 1;
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n' || bytes[i] == '\r') {
                try {
                    StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, start, i - start));
                } catch (CharacterCodingException e) {
                    return line;
                }
                if (i < bytes.length - 1 && bytes[i] == '\r' && bytes[i + 1] == '\n') {
                    i++;
                }
                line++;
                start = i + 1;
            }
        }
        return 0;
    }

    /** The simulator's batch on {@code line} as {@link RunResultJson#readLines} reads it; blank for other lines. */
    private static String batchLine(String line) {
        if (line.isBlank()) {
            return "";
        }
        try {
            JsonNode json = JSON.readTree(line);
            if (json instanceof ObjectNode o && !o.has("comparison") && !o.has("restart") && !o.has("stop")
                    && !(o.has("deploy") && o.get("deploy").isObject())
                    && !o.has("pendingNoDataBatch") && !o.has("warning") && !o.has("failure")
                    && (!o.has("engine") || "simulator".equals(o.path("engine").asText()))) {
                CLI_MEMBERS.forEach(o::remove);
                o.path("operators").forEach(view -> ((ObjectNode) view).remove("state"));
                return RowFormat.print(o);
            }
            return "";
        } catch (JsonProcessingException | ClassCastException e) {
            return line;   // readLines reports it with the line number
        }
    }
}
