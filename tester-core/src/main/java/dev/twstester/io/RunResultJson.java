package dev.twstester.io;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;


import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

/**
 * Writes a {@link RunResult} as JSON and reads it back, so a run of the simulator or of live Spark
 * can be saved, diffed and compared later. Keys, input and output rows go through the query's
 * encoders and {@link JsonRows}: a bean or tuple becomes a JSON object of its Spark columns, a
 * flat value ({@code Encoders.STRING()}, {@code Encoders.LONG()}) the bare value; times are
 * ISO-8601 UTC strings.
 *
 * <pre>{@code
 * String json = RunResultJson.write(run, query);
 * RunResult<String, Click, Alert> again = RunResultJson.read(json, query);   // equals run
 * }</pre>
 *
 * One document looks like this ({@link #writeLines} writes each element of {@code batches} on a
 * line of its own instead):
 * <pre>{@code
 * {"format":"twstester-run","version":1,"batches":[
 *   {"batchId":0,"hadInput":true,"batchTimestamp":"1970-01-01T00:00:00Z",
 *    "lateWatermark":"1970-01-01T00:00:00Z","evictionWatermark":"1970-01-01T00:00:00Z",
 *    "input":[{"key":"a","ts":"2024-05-01T10:00:00Z"}],"droppedLate":[],
 *    "outputs":["a:1"],"outputPartitions":[0],
 *    "firedTimers":[{"key":"a","expiry":"2024-05-01T10:00:05Z"}]}]}
 * }</pre>
 *
 * A run with failed batches ({@link RunResult#failures()}) also has {@code "failures"} after
 * {@code batches}, oldest first, each a {@link FailedBatch} with the batch's own member names and
 * every field (a null {@code errorClass} or {@code rootMessage} as {@code null}); {@link #writeLines}
 * writes each on a line of its own after the batches, {@code {"failedBatch":{...}}}. A run without
 * failures is written without them, as before:
 * <pre>{@code
 * "failures":[{"batchId":2,"hadInput":true,"rows":1,"batchTimestamp":"1970-01-01T00:00:02Z",
 *    "lateWatermark":"1970-01-01T00:00:00Z","evictionWatermark":"1970-01-01T00:00:00Z",
 *    "errorClass":"TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR","rootMessage":"poison"}]
 * }</pre>
 *
 * A batch of a query of several stateful operators also has {@code "operators"}: each operator's
 * view of the batch ({@link BatchResult#operators()}), a batch object of the same form without
 * {@code operators}, in plan order, its rows and keys through that operator's encoders.
 *
 * <p>{@code outputPartitions} ({@link BatchResult#outputPartitions()}: the shuffle partition of each
 * output row) is written when the batch knows it and has outputs; a batch without it reads as one
 * whose partitions are not known, as {@code metrics} without it reads as not measured. An output
 * row of a flat output encoder ({@code Encoders.STRING()}, {@code LONG()}) may be {@code null}: a
 * {@code mapGroupsWithState} function that returned null; any other null row is refused.
 *
 * Reading rejects unknown members and wrong types with an {@link IllegalArgumentException} that
 * names the batch, the list and the field, e.g. {@code batch 3 outputs[2]: field "ts": cannot
 * parse "10:61" as timestamp; ...} or {@code failed batch 2: "rows" is "one"; write ...};
 * {@link #readLines} starts it with {@code line N: }.
 */
public final class RunResultJson {
    /** The {@code format} member of a written document. */
    public static final String FORMAT = "twstester-run";
    /** The {@code version} member this class writes and reads. */
    public static final int VERSION = 1;

    private static final ObjectMapper MAPPER = JsonRows.mapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> BATCH_FIELDS = List.of("batchId", "hadInput", "batchTimestamp", "lateWatermark",
            "evictionWatermark", "input", "droppedLate", "outputs", "outputPartitions", "firedTimers", "metrics",
            "operators");
    private static final List<String> FAILURE_FIELDS = List.of("batchId", "hadInput", "rows", "batchTimestamp",
            "lateWatermark", "evictionWatermark", "errorClass", "rootMessage");
    /** The member of a {@link #writeLines} line that holds a failed batch. */
    private static final String FAILED_BATCH_LINE = "failedBatch";

    private RunResultJson() {}

    /** {@code run} as one pretty-printed JSON document. */
    public static <K, I, O> String write(RunResult<K, I, O> run, TwsQuery<K, I, O> query) {
        Codecs<K, I, O> codecs = new Codecs<>(query);
        ArrayNode batches = NODES.arrayNode();
        for (BatchResult<K, I, O> batch : Objects.requireNonNull(run, "run must not be null").batches()) {
            batches.add(codecs.write(batch));
        }
        ObjectNode doc = NODES.objectNode().put("format", FORMAT).put("version", VERSION);
        doc.set("batches", batches);
        if (!run.failures().isEmpty()) {
            ArrayNode failures = doc.putArray("failures");
            run.failures().forEach(f -> failures.add(writeFailure(f)));
        }
        return print(doc, true);
    }

    /** The run {@link #write} wrote; the query must have the same key, input and output encoders. */
    public static <K, I, O> RunResult<K, I, O> read(String json, TwsQuery<K, I, O> query) {
        Codecs<K, I, O> codecs = new Codecs<>(query);
        JsonNode doc = parse(Objects.requireNonNull(json, "json must not be null"), false);
        if (!doc.isObject() || !doc.path("batches").isArray()) {
            throw new IllegalArgumentException("not a twstester run: expected an object {\"format\":\"" + FORMAT
                    + "\",\"version\":" + VERSION + ",\"batches\":[...]}; for one batch per line use readLines");
        }
        checkHeader(doc);
        List<BatchResult<K, I, O>> batches = new ArrayList<>();
        for (int i = 0; i < doc.get("batches").size(); i++) {
            batches.add(codecs.read(doc.get("batches").get(i), "batches[" + i + "]"));
        }
        List<FailedBatch> failures = new ArrayList<>();
        JsonNode list = doc.get("failures");
        if (list != null) {
            if (!list.isArray()) {
                throw new IllegalArgumentException("\"failures\" is " + shorten(list) + "; write an array of failed "
                        + "batch objects with " + FAILURE_FIELDS);
            }
            for (int i = 0; i < list.size(); i++) {
                failures.add(readFailure(list.get(i), "failures[" + i + "]"));
            }
        }
        return new RunResult<>(batches, failures);
    }

    /** {@code run} as JSON lines: one compact JSON object per batch, each line ending in a newline. */
    public static <K, I, O> String writeLines(RunResult<K, I, O> run, TwsQuery<K, I, O> query) {
        Codecs<K, I, O> codecs = new Codecs<>(query);
        StringBuilder out = new StringBuilder();
        for (BatchResult<K, I, O> batch : Objects.requireNonNull(run, "run must not be null").batches()) {
            out.append(print(codecs.write(batch), false)).append('\n');
        }
        for (FailedBatch failure : run.failures()) {
            ObjectNode line = NODES.objectNode();
            line.set(FAILED_BATCH_LINE, writeFailure(failure));
            out.append(print(line, false)).append('\n');
        }
        return out.toString();
    }

    /** The run {@link #writeLines} wrote; blank lines are skipped, errors start with {@code line N: }. */
    public static <K, I, O> RunResult<K, I, O> readLines(String jsonLines, TwsQuery<K, I, O> query) {
        Codecs<K, I, O> codecs = new Codecs<>(query);
        String[] lines = Objects.requireNonNull(jsonLines, "jsonLines must not be null").split("\r?\n", -1);
        List<BatchResult<K, I, O>> batches = new ArrayList<>();
        List<FailedBatch> failures = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            String where = "line " + (i + 1) + ": ";
            try {
                JsonNode line = parse(lines[i], true);
                if (line.isObject() && line.has(FAILED_BATCH_LINE)) {
                    if (line.size() != 1) {
                        throw new IllegalArgumentException("a failed batch's line is {\"" + FAILED_BATCH_LINE
                                + "\":{...}} and nothing else, got " + shorten(line));
                    }
                    failures.add(readFailure(line.get(FAILED_BATCH_LINE), "failed batch on this line"));
                } else {
                    batches.add(codecs.read(line, "batch on this line"));
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + e.getMessage(), e);
            }
        }
        return new RunResult<>(batches, failures);
    }

    /** A failed batch as an object of {@link #FAILURE_FIELDS}, its times as a batch's, a null string as null. */
    private static ObjectNode writeFailure(FailedBatch f) {
        return NODES.objectNode()
                .put("batchId", f.batchId())
                .put("hadInput", f.hadInput())
                .put("rows", f.rows())
                .put("batchTimestamp", f.batchTimestamp().toString())
                .put("lateWatermark", f.lateWatermark().toString())
                .put("evictionWatermark", f.evictionWatermark().toString())
                .put("errorClass", f.errorClass())
                .put("rootMessage", f.rootMessage());
    }

    private static FailedBatch readFailure(JsonNode json, String position) {
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException(position + ": expected a failed batch object with " + FAILURE_FIELDS
                    + ", got " + (json == null ? "none" : shorten(json)));
        }
        JsonNode id = json.path("batchId");
        String where = id.isIntegralNumber() && id.canConvertToLong() ? "failed batch " + id.longValue() : position;
        for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FAILURE_FIELDS.contains(name)) {
                throw new IllegalArgumentException(where + ": unknown member \"" + JsonRows.printable(name, 60)
                        + "\"; a failed batch has " + FAILURE_FIELDS);
            }
        }
        for (String name : FAILURE_FIELDS) {
            if (!json.has(name)) {
                throw new IllegalArgumentException(where + ": \"" + name + "\" is missing; every failed batch has "
                        + FAILURE_FIELDS);
            }
        }
        JsonNode rows = json.get("rows");
        if (!rows.isInt() || rows.intValue() < 0) {
            fail(where, "rows", json, "the number of rows the batch read, a whole number from 0");
        }
        return new FailedBatch(integer(json, "batchId", where), bool(json, "hadInput", where), rows.intValue(),
                instant(json, "batchTimestamp", where), instant(json, "lateWatermark", where),
                instant(json, "evictionWatermark", where), text(json, "errorClass", where),
                text(json, "rootMessage", where));
    }

    /** A string member that may be null. */
    private static String text(JsonNode parent, String name, String where) {
        JsonNode v = parent.get(name);
        if (!v.isTextual() && !v.isNull()) {
            fail(where, name, parent, "a string or null");
        }
        return v.isNull() ? null : v.textValue();
    }

    private static void checkHeader(JsonNode doc) {
        JsonNode format = doc.get("format");
        if (format != null && !FORMAT.equals(format.asText())) {
            throw new IllegalArgumentException("format is " + shorten(format) + ", not \"" + FORMAT
                    + "\": this is not a run file");
        }
        JsonNode version = doc.get("version");
        if (version != null && (!version.isInt() || version.intValue() != VERSION)) {
            throw new IllegalArgumentException("version " + shorten(version) + " is not supported; this twstester reads version "
                    + VERSION);
        }
    }

    private static JsonNode parse(String text, boolean oneLine) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            String at = e.getLocation() == null ? ""
                    : oneLine ? " at column " + e.getLocation().getColumnNr()
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new IllegalArgumentException("not valid JSON: " + e.getOriginalMessage() + at, e);
        }
    }

    private static String print(JsonNode node, boolean pretty) {
        try {
            return pretty ? MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node)
                    : MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot print a JSON tree: " + e.getOriginalMessage(), e);
        }
    }

    /** The three codecs of a query (and of each of its operators, for several), and the batch layout. */
    private static final class Codecs<K, I, O> {
        private final EncoderRows<K> keys;
        private final EncoderRows<I> inputs;
        private final EncoderRows<O> outputs;
        /** Each operator's codecs, for a query of several operators; else empty. */
        private final List<Codecs<?, ?, ?>> operators = new ArrayList<>();

        Codecs(TwsQuery<K, I, O> query) {
            Objects.requireNonNull(query, "query must not be null");
            this.keys = EncoderRows.of(query.keyEncoder());
            this.inputs = EncoderRows.of(query.inputEncoder());
            this.outputs = EncoderRows.of(query.outputEncoder());
            if (query.operators().size() > 1) {
                query.operators().forEach(op -> operators.add(new Codecs<>(op)));
            }
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private void writeOperators(BatchResult<K, I, O> b, ObjectNode out) {
            if (operators.isEmpty()) {
                return;
            }
            ArrayNode views = out.putArray("operators");
            List<BatchResult<?, ?, ?>> all = b.operators();
            if (all.size() != operators.size()) {
                throw new IllegalArgumentException("batch " + b.batchId() + " has " + all.size() + " operator view(s), "
                        + "the query " + operators.size() + " operators");
            }
            for (int i = 0; i < all.size(); i++) {
                views.add(((Codecs) operators.get(i)).write(all.get(i)));
            }
        }

        private List<BatchResult<?, ?, ?>> readOperators(JsonNode json, String where) {
            JsonNode list = json.get("operators");
            if (operators.isEmpty()) {
                if (list != null) {
                    throw new IllegalArgumentException(where + ": \"operators\" is for a query of several stateful "
                            + "operators; this query has one");
                }
                return List.of();
            }
            if (list == null || !list.isArray() || list.size() != operators.size()) {
                throw new IllegalArgumentException(where + ": \"operators\" must be an array of " + operators.size()
                        + " batch objects, one per stateful operator of the query, got "
                        + (list == null ? "none" : shorten(list)));
            }
            List<BatchResult<?, ?, ?>> views = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                views.add(operators.get(i).read(list.get(i), where + " operators[" + i + "]"));
            }
            return views;
        }

        ObjectNode write(BatchResult<K, I, O> b) {
            ObjectNode out = NODES.objectNode()
                    .put("batchId", b.batchId())
                    .put("hadInput", b.hadInput())
                    .put("batchTimestamp", b.batchTimestamp().toString())
                    .put("lateWatermark", b.lateWatermark().toString())
                    .put("evictionWatermark", b.evictionWatermark().toString());
            out.set("input", rows(b.input(), inputs));
            out.set("droppedLate", rows(b.droppedLate(), inputs));
            out.set("outputs", rows(b.outputs(), outputs));
            if (!b.outputPartitions().isEmpty()) {
                ArrayNode partitions = out.putArray("outputPartitions");
                b.outputPartitions().forEach(partitions::add);
            }
            ArrayNode timers = out.putArray("firedTimers");
            for (FiredTimer<K> t : b.firedTimers()) {
                ObjectNode timer = timers.addObject();
                timer.set("key", value(t.key(), keys));
                timer.put("expiry", t.expiry().toString());
            }
            if (!b.metrics().isEmpty()) {
                ObjectNode metrics = out.putObject("metrics");
                b.metrics().forEach(metrics::put);
            }
            writeOperators(b, out);
            return out;
        }

        BatchResult<K, I, O> read(JsonNode json, String position) {
            if (!json.isObject()) {
                throw new IllegalArgumentException(position + ": expected a batch object with " + BATCH_FIELDS
                        + ", got " + shorten(json));
            }
            JsonNode id = json.path("batchId");
            String where = id.isIntegralNumber() && id.canConvertToLong() ? "batch " + id.longValue() : position;
            for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!BATCH_FIELDS.contains(name)) {
                    throw new IllegalArgumentException(where + ": unknown member \"" + JsonRows.printable(name, 60) + "\"; a batch has "
                            + BATCH_FIELDS);
                }
            }
            // a null output row: a mapGroupsWithState function's null result with a flat output encoder
            List<O> rows = values(json, "outputs", outputs, where, !outputs.isStruct());
            return new BatchResult<>(
                    integer(json, "batchId", where),
                    bool(json, "hadInput", where),
                    values(json, "input", inputs, where, false),
                    values(json, "droppedLate", inputs, where, false),
                    instant(json, "lateWatermark", where),
                    instant(json, "evictionWatermark", where),
                    instant(json, "batchTimestamp", where),
                    rows,
                    timers(json, where),
                    metrics(json, where),
                    partitions(json, rows.size(), where),
                    readOperators(json, where));
        }

        /** The optional {@code outputPartitions}: one partition number per output row (absent: not known). */
        private static List<Integer> partitions(JsonNode batch, int outputs, String where) {
            JsonNode list = batch.get("outputPartitions");
            if (list == null) {
                return List.of();
            }
            if (!list.isArray()) {
                fail(where, "outputPartitions", batch, "an array of one partition number per output row");
            }
            if (list.size() != outputs) {
                throw new IllegalArgumentException(where + ": \"outputPartitions\" has " + list.size()
                        + " entries for " + outputs + " outputs; give one partition number per output row");
            }
            List<Integer> out = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                JsonNode p = list.get(i);
                if (!p.isInt() || p.intValue() < 0) {
                    throw new IllegalArgumentException(where + " outputPartitions[" + i + "]: " + shorten(p)
                            + " is not a partition number; write a whole number from 0");
                }
                out.add(p.intValue());
            }
            return out;
        }

        /** The optional {@code metrics} object: metric name to a whole number (absent: not measured). */
        private static java.util.Map<String, Long> metrics(JsonNode batch, String where) {
            java.util.Map<String, Long> out = new java.util.TreeMap<>();
            JsonNode metrics = batch.get("metrics");
            if (metrics == null) {
                return out;
            }
            if (!metrics.isObject()) {
                throw new IllegalArgumentException(where + ": \"metrics\" must be an object of metric names and "
                        + "whole numbers, got " + shorten(metrics));
            }
            for (Iterator<java.util.Map.Entry<String, JsonNode>> it = metrics.fields(); it.hasNext(); ) {
                java.util.Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isIntegralNumber() || !e.getValue().canConvertToLong()) {
                    throw new IllegalArgumentException(where + ": metric \"" + e.getKey() + "\" must be a whole number, got "
                            + shorten(e.getValue()));
                }
                out.put(e.getKey(), e.getValue().longValue());
            }
            return out;
        }

        private List<FiredTimer<K>> timers(JsonNode batch, String where) {
            JsonNode list = array(batch, "firedTimers", where);
            List<FiredTimer<K>> out = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                String at = "firedTimers[" + i + "]";
                JsonNode t = list.get(i);
                if (!t.isObject() || t.size() != 2 || !t.has("key") || !t.has("expiry")) {
                    throw new IllegalArgumentException(where + " " + at
                            + ": expected {\"key\":...,\"expiry\":\"<instant>\"}, got " + shorten(t));
                }
                out.add(new FiredTimer<>(fromJson(t.get("key"), keys, where + " " + at + ".key"),
                        instant(t, "expiry", where + " " + at)));
            }
            return out;
        }

        private <T> List<T> values(JsonNode batch, String name, EncoderRows<T> codec, String where, boolean nullRows) {
            JsonNode list = array(batch, name, where);
            List<T> out = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                out.add(nullRows && list.get(i).isNull() ? null
                        : fromJson(list.get(i), codec, where + " " + name + "[" + i + "]"));
            }
            return out;
        }

        private static <T> ArrayNode rows(List<T> values, EncoderRows<T> codec) {
            ArrayNode out = NODES.arrayNode();
            values.forEach(v -> out.add(value(v, codec)));
            return out;
        }

        /** A flat encoder's value bare, a struct's as an object. */
        private static <T> JsonNode value(T v, EncoderRows<T> codec) {
            return codec.toJson(v);
        }

        private static <T> T fromJson(JsonNode json, EncoderRows<T> codec, String where) {
            if (json.isNull()) {
                throw new IllegalArgumentException(where + ": null; a row or key is never null, give a value");
            }
            try {
                return codec.fromJson(json);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
            }
        }
    }

    private static JsonNode required(JsonNode batch, String name, String where) {
        JsonNode v = batch.get(name);
        if (v == null) {
            throw new IllegalArgumentException(where + ": \"" + name + "\" is missing; every batch has "
                    + BATCH_FIELDS);
        }
        return v;
    }

    private static long integer(JsonNode batch, String name, String where) {
        JsonNode v = required(batch, name, where);
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            fail(where, name, batch, "an integer");
        }
        return v.longValue();
    }

    private static ArrayNode array(JsonNode batch, String name, String where) {
        JsonNode v = required(batch, name, where);
        if (!v.isArray()) {
            fail(where, name, batch, "an array");
        }
        return (ArrayNode) v;
    }

    private static boolean bool(JsonNode batch, String name, String where) {
        JsonNode v = required(batch, name, where);
        if (!v.isBoolean()) {
            fail(where, name, batch, "true or false");
        }
        return v.booleanValue();
    }

    private static Instant instant(JsonNode parent, String name, String where) {
        JsonNode v = required(parent, name, where);
        try {
            if (v.isTextual()) {
                return Instant.parse(v.textValue());
            }
        } catch (DateTimeParseException e) {
            // reported below
        }
        fail(where, name, parent, "an ISO-8601 instant like \"2024-05-01T10:00:00Z\"");
        return null;
    }

    private static void fail(String where, String name, JsonNode parent, String expected) {
        throw new IllegalArgumentException(where + ": \"" + name + "\" is " + shorten(parent.get(name))
                + "; write " + expected);
    }

    private static String shorten(JsonNode json) {
        String s = json.toString();
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
