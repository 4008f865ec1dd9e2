package dev.twstester.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * JSON-lines files of rows (event files: one JSON object per line, or an array of objects), read
 * the way Spark's JSON file source reads them with the rows' schema
 * ({@code spark.read().schema(schema).json(path)}, default options, session time zone UTC), then
 * made into objects by the encoder: what {@code twstester replay} reads, and the rows files of a
 * {@link ScenarioPlan}. This is {@link JsonRows}' dialect as Spark's JSON source widens it (see
 * there): a string column takes any JSON value as its JSON text, a timestamp Spark's {@code CAST}
 * forms ({@code "2024-05-01 10:00:00"}, {@code "2024-05-01T10:00:00Z"}) and integer seconds, and
 * missing fields and nulls read as null.
 *
 * <pre>{@code
 * JsonLines<CartEvent> events = JsonLines.of(EncoderRows.of(Encoders.bean(CartEvent.class)), System.err::println);
 * List<CartEvent> rows = events.read(Path.of("cart/001.jsonl"), "cart/001.jsonl");
 * }</pre>
 *
 * Where Spark's PERMISSIVE mode quietly loses data, this says so through {@code notes}, naming
 * the file (as given to {@link #read}), line and field: a value Spark cannot convert is read as
 * null (as Spark does) with a warning ({@value #WARNINGS_SHOWN} per file, then a count); a field
 * not in the schema is ignored with a note (once per field and file); text after the line's JSON
 * value is ignored with a warning. A line that is not JSON, or not an object (which Spark would
 * read as a row of nulls), and a row the encoder cannot make an object of, are a
 * {@link JsonLinesException} naming the file and line; when that row has a null (missing, null, or
 * read as null) in a field that cannot be null, such as a bean's {@code int}, it names the field,
 * its type and the value the line has. {@link #valuesReadAsNull()} counts the values read as null.
 * Lines end at {@code \n}, {@code \r} or
 * {@code \r\n}, as Hadoop splits them for Spark; a byte order mark at the start of a line is
 * skipped, as Jackson skips it for Spark; a line that is not UTF-8 is read from its bytes, as
 * Spark's Jackson reads it (where that gives a row of nulls, the error names the line and byte).
 * Schemas with types Spark's JSON source
 * rules here do not cover (intervals, time, timestamp_ntz, maps with non-string keys) are read by
 * {@link JsonRows#fromJson}'s stricter rules, unknown fields ignored with a note.
 *
 * @param <T> the rows' type
 */
public final class JsonLines<T> {
    /** Warnings about values read as null shown per file, before they are only counted. */
    public static final int WARNINGS_SHOWN = 10;

    private static final ObjectMapper JSON = JsonRows.mapper();

    private final Function<Row, T> make;
    private final String typeName;
    private final StructType schema;
    private final Consumer<String> notes;
    /** The quick way for lines of flat schemas, or null. */
    private final FlatJsonParser flat;
    /** Spark's rules, or null for a schema they do not cover (then JsonRows reads it). */
    private final SparkJsonParser spark;
    /** Values Spark's JSON source cannot read, read as null, over every file read (shown or not). */
    private final java.util.concurrent.atomic.AtomicLong readAsNull = new java.util.concurrent.atomic.AtomicLong();

    private JsonLines(StructType schema, Function<Row, T> make, String typeName, Consumer<String> notes) {
        this.make = make;
        this.typeName = typeName;
        this.schema = schema;
        this.notes = Objects.requireNonNull(notes, "notes must not be null");
        this.spark = SparkJsonParser.forSchema(schema);
        this.flat = spark == null ? null : FlatJsonParser.forSchema(spark.factory(), schema);
    }

    /** A reader of {@code rows}' values; warnings and notes go to {@code notes}, one line each. */
    public static <T> JsonLines<T> of(EncoderRows<T> rows, Consumer<String> notes) {
        Objects.requireNonNull(rows, "rows must not be null");
        return new JsonLines<>(rows.schema(), rows::fromRow, rows.encoder().clsTag().runtimeClass().getSimpleName(),
                notes);
    }

    /** A reader of the rows of {@code schema} as Spark's JSON source gives them ({@code collect()}'s rows). */
    public static JsonLines<Row> rows(StructType schema, Consumer<String> notes) {
        return new JsonLines<>(Objects.requireNonNull(schema, "schema must not be null"), row -> row, "Row", notes);
    }

    /**
     * How many values this reader has read as null so far, over every file, because Spark's JSON
     * source cannot read them (each has a warning, the first {@value #WARNINGS_SHOWN} per file shown).
     */
    public long valuesReadAsNull() {
        return readAsNull.get();
    }

    /** {@link #read(Path, String)}, naming the file as {@code file.toString()}. */
    public List<T> read(Path file) {
        return read(file, file.toString());
    }

    /**
     * The file's rows, in line order, its warnings and notes given to {@code notes}; messages name
     * the file {@code name}. Files of flat schemas are first read in one pass of one parser; if
     * that is not sure of something, the file is read again line by line, the exact way.
     *
     * @throws JsonLinesException at the first line that is not a row, or when the file cannot be read
     */
    public List<T> read(Path file, String name) {
        Objects.requireNonNull(file, "file must not be null");
        Objects.requireNonNull(name, "name must not be null");
        boolean quickWay = flat != null;
        if (quickWay) {
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                List<T> quick = flat.parseAll(in, make);
                if (quick != null) {
                    return quick;
                }
            } catch (FlatJsonParser.OverLimit e) {
                quickWay = false;   // its lines would buffer that token once more: only the exact way reads them
            } catch (IOException | RuntimeException e) {
                // the exact way below reports it
            }
        }
        List<T> rows = new ArrayList<>();
        FileNotes seen = new FileNotes(name);
        try (ByteLines in = ByteLines.open(file)) {
            for (ByteLines.Line line = in.next(); line != null; line = in.next()) {
                if (line.text() == null) {
                    bytes(seen, line, rows);
                } else {
                    String text = withoutBom(line.text());
                    if (!blank(text)) {
                        rows(seen, line.number(), text, quickWay, rows);
                    }
                }
            }
            if (seen.warnings > WARNINGS_SHOWN) {
                notes.accept(name + ": warning: " + (seen.warnings - WARNINGS_SHOWN)
                        + " more values Spark's JSON source cannot read were read as null (not shown)");
            }
        } catch (IOException e) {
            throw new JsonLinesException(name, 0, name + ": cannot read: " + e, e);
        }
        return rows;
    }

    /**
     * A line's text without the byte order mark Jackson skips at the start of each line Spark gives
     * it (Hadoop drops the file's first).
     */
    private static String withoutBom(String line) {
        return line.startsWith("\uFEFF") ? line.substring(1) : line;
    }

    /** Nothing but JSON whitespace: no row, as in Spark (other white space is not JSON, and not skipped). */
    private static boolean blank(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c != ' ' && c != '\t') {
                return false;
            }
        }
        return true;
    }

    /**
     * A line that is not valid UTF-8: Spark gives its bytes to Jackson, which reads as far as it can
     * (an overlong form is a character, an invalid byte fails the line or the field); so do we, and a
     * line Spark would read as a row of nulls is an error naming the line and byte.
     */
    private void bytes(FileNotes file, ByteLines.Line line, List<T> out) {
        String invalid = "byte " + (line.invalidAt() + 1) + " is not UTF-8";
        if (spark == null) {
            throw new JsonLinesException(file.name, line.number(), file.at(line.number()) + invalid
                    + "; save the file as UTF-8", null);
        }
        try {
            for (Row row : sparkRows(file, line.number(), spark.parse(line.bytes()))) {
                out.add(object(file, line.number(), row, null));
            }
        } catch (SparkJsonParser.Unreadable e) {
            throw new JsonLinesException(file.name, line.number(), file.at(line.number()) + invalid + " ("
                    + JsonRows.oneLine(String.valueOf(e.getMessage())).replaceAll("\\s*at \\[Source: [^\\]]*\\]", "")
                    + "); Spark's JSON source would read a row of nulls; save the file as UTF-8", e);
        }
    }

    /** What one file's reading has said: the fields and notes noted, and the warnings given. */
    private static final class FileNotes {
        final String name;
        final Set<String> noted = new LinkedHashSet<>();
        int warnings;

        FileNotes(String name) {
            this.name = name;
        }

        String at(int line) {
            return name + ":" + line + ": ";
        }
    }

    private void rows(FileNotes file, int line, String text, boolean quickWay, List<T> out) {
        Row quick = quickWay ? flat.parse(text) : null;
        if (quick != null) {
            out.add(object(file, line, quick, text));
        } else if (spark == null) {
            out.add(object(file, line, treeRow(file, line, text), text));
        } else {
            for (Row row : sparkRows(file, line, text)) {
                out.add(object(file, line, row, text));
            }
        }
    }

    /** Spark's rows of a line, with its warnings and notes. */
    private List<Row> sparkRows(FileNotes file, int line, String text) {
        try {
            return sparkRows(file, line, spark.parse(text));
        } catch (SparkJsonParser.Unreadable e) {
            String problem = e.getCause() instanceof JsonProcessingException j ? notJson(j)
                    : JsonRows.oneLine(e.getMessage());
            throw new JsonLinesException(file.name, line, file.at(line) + problem + " (Spark's JSON source would read a"
                    + " row of nulls); write one JSON object per line, like " + example(), e);
        }
    }

    /** The rows of a parsed line, its warnings and notes given. */
    private List<Row> sparkRows(FileNotes file, int line, SparkJsonParser.Result result) {
        String at = file.at(line);
        for (String problem : result.problems()) {
            readAsNull.incrementAndGet();
            if (++file.warnings <= WARNINGS_SHOWN) {
                notes.accept(at + "warning: " + problem + "; Spark's JSON source reads it as null, so does this"
                        + " replay");
            }
        }
        for (String name : result.unknownFields()) {
            if (file.noted.add(name)) {
                String message = name.contains(".") || name.contains("[") ? "field \"" + name + "\" is not in the schema"
                        : unknownField(name);
                notes.accept(at + "note: " + message + "; Spark's JSON source ignores it, so does this replay");
            }
        }
        for (String note : result.notes()) {
            // once per field and file: "field "ts": ..."
            if (file.noted.add("\0" + note.substring(0, Math.max(0, note.indexOf("\": ") + 1)))) {
                notes.accept(at + "note: " + note);
            }
        }
        if (result.trailingText()) {
            notes.accept(at + "warning: text after the JSON value is ignored, as Spark's JSON source ignores it;"
                    + " write one JSON object per line");
        }
        return result.rows();
    }

    /** The object of {@code row}, read from {@code text} (null when the line is not UTF-8). */
    private T object(FileNotes file, int line, Row row, String text) {
        try {
            return make.apply(row);
        } catch (RuntimeException e) {
            String field = RequiredFields.problem(schema, row, text, typeName);
            if (field != null) {
                throw new JsonLinesException(file.name, line, file.at(line) + field, e);
            }
            throw new JsonLinesException(file.name, line, file.at(line) + "cannot make a " + typeName
                    + " of this row: " + JsonRows.oneLine(String.valueOf(e.getMessage()))
                    + "; give every field the query needs a value", e);
        }
    }

    /** The exact way for schemas outside Spark's rules here: a JSON tree, then {@link JsonRows#fromJson}. */
    private Row treeRow(FileNotes file, int line, String text) {
        String at = file.at(line);
        JsonNode json;
        try {
            json = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new JsonLinesException(file.name, line, at + notJson(e) + "; write one JSON object per line, like "
                    + example(), e);
        }
        if (!json.isObject()) {
            throw new JsonLinesException(file.name, line, at + "expected one JSON object per line, got "
                    + JsonRows.shorten(json.toString(), 60) + "; write it like " + example(), null);
        }
        ObjectNode object = withoutUnknownFields((ObjectNode) json, file, at);
        try {
            return JsonRows.fromJson(object, schema);
        } catch (IllegalArgumentException e) {
            throw new JsonLinesException(file.name, line, at + JsonRows.oneLine(e.getMessage()), e);
        }
    }

    /** {@code not valid JSON at column 5: ...}. */
    private static String notJson(JsonProcessingException e) {
        String column = e.getLocation() == null ? "" : " at column " + e.getLocation().getColumnNr();
        return "not valid JSON" + column + ": " + JsonRows.oneLine(e.getOriginalMessage())
                .replaceAll(" \\(start marker at \\[Source: [^\\]]*\\]\\)", "");
    }

    /** Spark ignores fields that are not in the schema: so do we, with one note per field and file. */
    private ObjectNode withoutUnknownFields(ObjectNode json, FileNotes file, String at) {
        ObjectNode known = null;
        for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (schema.getFieldIndex(name).isEmpty()) {
                if (known == null) {
                    known = json.deepCopy();
                }
                known.remove(name);
                if (file.noted.add(name)) {
                    notes.accept(at + "note: " + unknownField(name) + "; Spark's JSON source ignores it, so does"
                            + " this replay");
                }
            }
        }
        return known == null ? json : known;
    }

    /** {@link JsonRows}' message for an unknown field, with its "did you mean". */
    private String unknownField(String name) {
        return RowJsonReader.unknownField(name, schema, "");
    }

    /** A line with every field of the schema, for hints: {"event": ..., "ts": ...}. */
    private String example() {
        List<String> fields = Arrays.stream(schema.fieldNames()).map(n -> "\"" + n + "\": ...").toList();
        return "{" + String.join(", ", fields) + "}";
    }
}
