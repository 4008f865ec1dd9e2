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
import java.util.function.Function;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.twstester.io.EncoderRows;
import dev.twstester.io.JsonRows;

/**
 * Reads a JSON-lines file into input objects the way Spark's JSON file source reads it with the
 * query's input schema ({@code spark.read().schema(schema).json(path)}, default options, session
 * time zone UTC): see {@link SparkJsonRows} for the rules. Then the input encoder makes the objects.
 * Where Spark's PERMISSIVE mode quietly loses data, this says so on stderr instead, naming file,
 * line and field: a value Spark cannot convert is read as null (as Spark does) with a warning;
 * a field not in the schema is ignored with a note (once per field and file); text after the
 * line's JSON value is ignored with a warning. A line that is not JSON, or not an object (which
 * Spark would read as a row of nulls) is an error naming the file and line. Schemas with types
 * outside {@link SparkJsonRows#supported} (intervals, time, timestamp_ntz, maps with non-string
 * keys) are read by {@link JsonRows#fromJson}'s stricter rules, as before.
 *
 * @param <I> input row type
 */
final class JsonLinesReader<I> {
    private static final ObjectMapper JSON = JsonRows.mapper();

    private final Function<Row, I> make;
    private final String typeName;
    private final StructType schema;
    private final PrintWriter notes;
    /** Warnings shown per file before they are only counted. */
    static final int WARNINGS_SHOWN = 10;

    /** The quick way for lines of flat schemas, or null. */
    private final FlatRowParser flat;
    /** Spark's rules, or null for a schema they do not cover (then JsonRows reads it). */
    private final SparkJsonRows spark;

    JsonLinesReader(EncoderRows<I> codec, PrintWriter notes) {
        this(codec.schema(), codec::fromRow, RowFormat.typeName(codec.encoder()), notes);
    }

    /** A reader of rows of {@code schema}, each made into an object by {@code make} (named {@code typeName} in errors). */
    JsonLinesReader(StructType schema, Function<Row, I> make, String typeName, PrintWriter notes) {
        this.make = make;
        this.typeName = typeName;
        this.schema = schema;
        this.notes = notes;
        this.spark = SparkJsonRows.forSchema(schema);
        this.flat = spark == null ? null : FlatRowParser.forSchema(spark.factory(), schema);
    }

    /**
     * The file's rows, in line order; a {@link CliException} (exit 3) at the first bad line. Files of
     * flat schemas are first read in one pass of one parser ({@link FlatRowParser#parseAll}); if that
     * is not sure of something, the file is read again line by line, the exact way.
     */
    List<I> read(EventFile file) {
        if (flat != null) {
            try (BufferedReader in = Files.newBufferedReader(file.path(), StandardCharsets.UTF_8)) {
                List<I> quick = flat.parseAll(in, make);
                if (quick != null) {
                    return quick;
                }
            } catch (IOException | RuntimeException e) {
                // the exact way below reports it
            }
        }
        List<I> rows = new ArrayList<>();
        Set<String> noted = new LinkedHashSet<>();
        int[] warnings = new int[1];
        try (BufferedReader in = Files.newBufferedReader(file.path(), StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (number == 1 && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                if (!line.isBlank()) {
                    rows(file, number, line, noted, warnings, rows);
                }
            }
            if (warnings[0] > WARNINGS_SHOWN) {
                notes.println(file.display() + ": warning: " + (warnings[0] - WARNINGS_SHOWN)
                        + " more values Spark's JSON source cannot read were read as null (not shown)");
            }
        } catch (CharacterCodingException e) {
            throw CliException.invalidInput(file.display() + ": not UTF-8 text; save the file as UTF-8", e);
        } catch (IOException e) {
            throw CliException.invalidInput(file.display() + ": cannot read: " + e, e);
        }
        return rows;
    }

    private void rows(EventFile file, int line, String text, Set<String> noted, int[] warnings, List<I> out) {
        Row quick = flat == null ? null : flat.parse(text);
        if (quick != null) {
            out.add(object(file, line, quick));
        } else if (spark == null) {
            out.add(object(file, line, treeRow(file, line, text, noted)));
        } else {
            for (Row row : sparkRows(file, line, text, noted, warnings)) {
                out.add(object(file, line, row));
            }
        }
    }

    /** Spark's rows of a line, with its warnings and notes. */
    private List<Row> sparkRows(EventFile file, int line, String text, Set<String> noted, int[] warnings) {
        String at = file.display() + ":" + line + ": ";
        SparkJsonRows.Result result;
        try {
            result = spark.parse(text);
        } catch (SparkJsonRows.Unreadable e) {
            String problem;
            if (e.getCause() instanceof JsonProcessingException j) {
                String column = j.getLocation() == null ? "" : " at column " + j.getLocation().getColumnNr();
                problem = "not valid JSON" + column + ": " + oneLine(j.getOriginalMessage())
                        .replaceAll(" \\(start marker at \\[Source: [^\\]]*\\]\\)", "");
            } else {
                problem = oneLine(e.getMessage());
            }
            throw CliException.invalidInput(at + problem + " (Spark's JSON source would read a row of nulls); write"
                    + " one JSON object per line, like " + example(), e);
        }
        for (String problem : result.problems()) {
            if (++warnings[0] <= WARNINGS_SHOWN) {
                notes.println(at + "warning: " + problem + "; Spark's JSON source reads it as null, so does this"
                        + " replay");
            }
        }
        for (String name : result.unknownFields()) {
            if (noted.add(name)) {
                String message = name.contains(".") || name.contains("[") ? "field \"" + name + "\" is not in the schema"
                        : unknownField(name);
                notes.println(at + "note: " + message + "; Spark's JSON source ignores it, so does this replay");
            }
        }
        for (String note : result.notes()) {
            // once per field and file: "field "ts": ..."
            if (noted.add("\0" + note.substring(0, Math.max(0, note.indexOf("\": ") + 1)))) {
                notes.println(at + "note: " + note);
            }
        }
        if (result.trailingText()) {
            notes.println(at + "warning: text after the JSON value is ignored, as Spark's JSON source ignores it;"
                    + " write one JSON object per line");
        }
        return result.rows();
    }

    private I object(EventFile file, int line, Row row) {
        try {
            return make.apply(row);
        } catch (RuntimeException e) {
            throw CliException.invalidInput(file.display() + ":" + line + ": cannot make a "
                    + typeName + " of this row: " + oneLine(String.valueOf(e.getMessage()))
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
                    notes.println(at + "note: " + unknownField(name) + "; Spark's JSON source ignores it, so does"
                            + " this replay");
                }
            }
        }
        return known == null ? json : known;
    }

    /** JsonRows's own message for an unknown field, with its "did you mean". */
    private String unknownField(String name) {
        ObjectNode only = JSON.createObjectNode();
        only.put(name, 0);
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
