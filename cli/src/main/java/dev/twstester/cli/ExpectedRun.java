package dev.twstester.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.io.JsonRows;
import dev.twstester.io.RunResultJson;

/**
 * A run saved with {@code replay --format json > run.jsonl}, read back for {@code --expect}: the
 * simulator's batch lines (the {@code file}, {@code tick}, {@code start}, {@code state} and
 * {@code engine} members dropped, {@code metrics} kept for the comparison; other engines' lines,
 * restart, stop, pending no-data batch, warning and failure lines and the comparison line skipped),
 * or a file {@link RunResultJson#writeLines} wrote.
 */
final class ExpectedRun {
    private static final ObjectMapper JSON = JsonRows.mapper();
    private static final List<String> CLI_MEMBERS = List.of("file", "tick", "start", "state", "engine");

    private ExpectedRun() {}

    static <K, I, O> RunResult<K, I, O> read(Path file, TwsQuery<K, I, O> query) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw CliException.usage("--expect " + file + ": cannot read: " + e, e);
        }
        StringBuilder batches = new StringBuilder();
        List<Map<String, Long>> metrics = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String kept = "";
            if (!line.isBlank()) {
                try {
                    JsonNode json = JSON.readTree(line);
                    if (json instanceof ObjectNode o && !o.has("comparison") && !o.has("restart") && !o.has("stop")
                            && !o.has("pendingNoDataBatch") && !o.has("warning") && !o.has("failure")
                            && (!o.has("engine") || "simulator".equals(o.path("engine").asText()))) {
                        CLI_MEMBERS.forEach(o::remove);
                        metrics.add(metrics(o.remove("metrics"), file, i + 1));
                        kept = RowFormat.print(o);
                    }
                } catch (JsonProcessingException e) {
                    kept = line;   // readLines reports it with the line number
                }
            }
            batches.append(kept).append('\n');   // keep line numbers
        }
        try {
            return withMetrics(RunResultJson.readLines(batches.toString(), query), metrics);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage().startsWith("line ")
                    ? file + ":" + e.getMessage().substring("line ".length())
                    : file + ": " + e.getMessage();
            throw CliException.invalidInput(Failures.oneLine(message)
                    + "; --expect reads what replay --format json wrote", e);
        }
    }

    /** A batch line's {@code metrics} object (none: not measured, so not compared). */
    private static Map<String, Long> metrics(JsonNode json, Path file, int line) {
        Map<String, Long> metrics = new LinkedHashMap<>();
        if (json == null) {
            return metrics;
        }
        if (!json.isObject()) {
            throw CliException.invalidInput(file + ":" + line + ": \"metrics\" must be an object of metric names"
                    + " and numbers, like {\"numRegisteredTimers\":1}; --expect reads what replay --format json wrote",
                    null);
        }
        for (Map.Entry<String, JsonNode> e : json.properties()) {
            if (!e.getValue().canConvertToLong()) {
                throw CliException.invalidInput(file + ":" + line + ": metric \"" + e.getKey() + "\": "
                        + RowFormat.print(e.getValue()) + " is not a whole number", null);
            }
            metrics.put(e.getKey(), e.getValue().asLong());
        }
        return metrics;
    }

    private static <K, I, O> RunResult<K, I, O> withMetrics(RunResult<K, I, O> run, List<Map<String, Long>> metrics) {
        List<BatchResult<K, I, O>> batches = new ArrayList<>();
        for (int i = 0; i < run.batches().size(); i++) {
            BatchResult<K, I, O> b = run.batches().get(i);
            batches.add(new BatchResult<>(b.batchId(), b.hadInput(), b.input(), b.droppedLate(), b.lateWatermark(),
                    b.evictionWatermark(), b.batchTimestamp(), b.outputs(), b.firedTimers(),
                    i < metrics.size() ? metrics.get(i) : Map.of()));
        }
        return new RunResult<>(batches);
    }
}
