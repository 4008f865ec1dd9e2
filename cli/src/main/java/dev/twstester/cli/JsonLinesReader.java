package dev.twstester.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.twstester.internal.RowCodec;
import dev.twstester.io.JsonRows;

/**
 * Reads a JSON-lines file into input objects the way Spark's JSON file source reads it with the
 * query's input schema: one object per line, blank lines skipped, missing fields and nulls read as
 * null, fields not in the schema ignored (with a note on stderr), then the input encoder makes the
 * objects. Stricter than Spark's default PERMISSIVE mode, which turns a malformed line into a row
 * of nulls: here it is an error naming the file and line.
 *
 * @param <I> input row type
 */
final class JsonLinesReader<I> {
    private static final ObjectMapper JSON = JsonRows.mapper();

    private final RowCodec<I> codec;
    private final StructType schema;
    private final PrintWriter notes;
    /** The quick way for lines of flat schemas, or null. */
    private final FlatRowParser flat;

    JsonLinesReader(RowCodec<I> codec, PrintWriter notes) {
        this.codec = codec;
        this.schema = codec.schema();
        this.notes = notes;
        this.flat = FlatRowParser.forSchema(JSON.getFactory(), schema);
    }

    /**
     * The file's rows, in line order; a {@link CliException} (exit 3) at the first bad line. Files of
     * flat schemas are first read in one pass of one parser ({@link FlatRowParser#parseAll}); if that
     * is not sure of something, the file is read again line by line, the exact way.
     */
    List<I> read(EventFile file) {
        if (flat != null) {
            try (BufferedReader in = Files.newBufferedReader(file.path(), StandardCharsets.UTF_8)) {
                List<I> quick = flat.parseAll(in, codec::fromExternalRow);
                if (quick != null) {
                    return quick;
                }
            } catch (IOException | RuntimeException e) {
                // the exact way below reports it
            }
        }
        List<I> rows = new ArrayList<>();
        Set<String> noted = new LinkedHashSet<>();
        try (BufferedReader in = Files.newBufferedReader(file.path(), StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (number == 1 && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                if (!line.isBlank()) {
                    rows.add(row(file, number, line, noted));
                }
            }
        } catch (CharacterCodingException e) {
            throw CliException.invalidInput(file.display() + ": not UTF-8 text; save the file as UTF-8", e);
        } catch (IOException e) {
            throw CliException.invalidInput(file.display() + ": cannot read: " + e, e);
        }
        return rows;
    }

    private I row(EventFile file, int line, String text, Set<String> noted) {
        Row quick = flat == null ? null : flat.parse(text);
        Row row = quick != null ? quick : treeRow(file, line, text, noted);
        try {
            return codec.fromExternalRow(row);
        } catch (RuntimeException e) {
            throw CliException.invalidInput(file.display() + ":" + line + ": cannot make a "
                    + RowFormat.typeName(codec.encoder()) + " of this row: " + oneLine(String.valueOf(e.getMessage()))
                    + "; give every field the query needs a value", e);
        }
    }

    /** The exact way: a JSON tree, then {@link JsonRows#fromJson}, with the errors and notes they give. */
    private Row treeRow(EventFile file, int line, String text, Set<String> noted) {
        String at = file.display() + ":" + line + ": ";
        JsonNode json;
        try {
            json = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            String column = e.getLocation() == null ? "" : " at column " + e.getLocation().getColumnNr();
            String problem = oneLine(e.getOriginalMessage()).replaceAll(" \\(start marker at \\[Source: [^\\]]*\\]\\)", "");
            throw CliException.invalidInput(at + "not valid JSON" + column + ": " + problem
                    + "; write one JSON object per line, like " + example(), e);
        }
        if (!json.isObject()) {
            throw CliException.invalidInput(at + "expected one JSON object per line, got "
                    + shorten(json.toString()) + "; write it like " + example(), null);
        }
        ObjectNode object = withoutUnknownFields((ObjectNode) json, at, noted);
        try {
            return JsonRows.fromJson(object, schema);
        } catch (IllegalArgumentException e) {
            throw CliException.invalidInput(at + oneLine(e.getMessage()), e);
        }
    }

    /** Spark ignores fields that are not in the schema: so do we, with one note per field and file. */
    private ObjectNode withoutUnknownFields(ObjectNode json, String at, Set<String> noted) {
        ObjectNode known = null;
        for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (schema.getFieldIndex(name).isEmpty()) {
                if (known == null) {
                    known = json.deepCopy();
                }
                known.remove(name);
                if (noted.add(name)) {
                    notes.println(at + "note: " + unknownField(json, name) + "; Spark's JSON source ignores it, so does"
                            + " this replay");
                }
            }
        }
        return known == null ? json : known;
    }

    /** JsonRows's own message for an unknown field, with its "did you mean". */
    private String unknownField(ObjectNode json, String name) {
        ObjectNode only = JSON.createObjectNode();
        only.set(name, json.get(name));
        try {
            JsonRows.fromJson(only, schema);
        } catch (IllegalArgumentException e) {
            return oneLine(e.getMessage());
        }
        return "field \"" + name + "\" is not in the schema " + Arrays.toString(schema.fieldNames());
    }

    /** A line with every field of the schema, for hints: {"event": ..., "ts": ...}. */
    private String example() {
        List<String> fields = Arrays.stream(schema.fieldNames()).map(n -> "\"" + n + "\": ...").toList();
        return "{" + String.join(", ", fields) + "}";
    }

    static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    private static String shorten(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "...";
    }
}
