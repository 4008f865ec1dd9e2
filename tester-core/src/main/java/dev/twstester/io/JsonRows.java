package dev.twstester.io;

import java.util.Objects;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.VarcharType;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Converts Spark's external {@link Row}s (a {@code DataFrame}'s rows) to JSON and back, guided by
 * a {@link StructType}. The JSON is what a person would write by hand:
 *
 * <pre>{@code
 * StructType schema = EncoderRows.of(Encoders.bean(Click.class)).schema();
 * ObjectNode json = JsonRows.toJson(row, schema);   // {"page":"/cart","ts":"2024-05-01T10:00:00.123456Z","user":"ana"}
 * Row back = JsonRows.fromJson(json, schema);      // equal to row
 * }</pre>
 *
 * <table>
 *   <caption>JSON form of each Spark type</caption>
 *   <tr><th>Spark type</th><th>JSON</th><th>Row value read back</th></tr>
 *   <tr><td>string, char, varchar</td><td>string</td><td>{@code String}</td></tr>
 *   <tr><td>boolean</td><td>true / false</td><td>{@code Boolean}</td></tr>
 *   <tr><td>tinyint, smallint, int, bigint</td><td>integer, range-checked</td><td>{@code Byte} ... {@code Long}</td></tr>
 *   <tr><td>float, double</td><td>number, or "NaN", "Infinity", "-Infinity"</td><td>{@code Float}, {@code Double}</td></tr>
 *   <tr><td>decimal(p,s)</td><td>number (or string), at most s decimals</td><td>{@code BigDecimal} of scale s</td></tr>
 *   <tr><td>date</td><td>"2024-05-01"</td><td>{@code java.sql.Date}</td></tr>
 *   <tr><td>timestamp</td><td>"2024-05-01T10:00:00.123456Z" (UTC; offsets accepted)</td><td>{@code java.sql.Timestamp}</td></tr>
 *   <tr><td>timestamp_ntz</td><td>"2024-05-01T10:00:00"</td><td>{@code LocalDateTime}</td></tr>
 *   <tr><td>time</td><td>"10:00:00"</td><td>{@code LocalTime}</td></tr>
 *   <tr><td>interval day to second / year to month</td><td>"PT10S" / "P1Y2M"</td><td>{@code Duration} / {@code Period}</td></tr>
 *   <tr><td>binary</td><td>base64 string</td><td>{@code byte[]}</td></tr>
 *   <tr><td>array</td><td>array</td><td>Scala {@code Seq}</td></tr>
 *   <tr><td>map with string keys</td><td>object</td><td>Scala {@code Map}, in JSON order</td></tr>
 *   <tr><td>map with other keys</td><td>[[key, value], ...]</td><td>Scala {@code Map}</td></tr>
 *   <tr><td>struct</td><td>object; missing fields read as null</td><td>{@code Row}</td></tr>
 * </table>
 *
 * <p>Writing accepts both external forms Spark uses ({@code java.sql.Timestamp} or {@code Instant},
 * {@code java.sql.Date} or {@code LocalDate}, Scala or Java collections, arrays). Nothing depends
 * on the JVM's default time zone beyond what {@code java.sql.Date} itself does. Reading throws
 * {@link IllegalArgumentException} naming the field path and the value, e.g.
 * {@code field "ts": cannot parse "10:61" as timestamp; write an ISO-8601 instant like "2024-05-01T10:00:00Z"},
 * so a caller can prefix a file and line.
 *
 * <p>Files of input rows people write or export ({@code twstester replay}'s event files, a
 * {@link ScenarioPlan}'s rows files) are read by {@link JsonLines}, with this dialect as Spark's
 * JSON file source widens it: a string column takes any JSON value (as its JSON text), a timestamp
 * Spark's {@code CAST} forms ({@code "2024-05-01 10:00:00"}) and integer seconds, a date a
 * timestamp's date, a float {@code "+INF"}; a field not in the schema is ignored and a value Spark
 * cannot convert is null, each with a note naming the file, line and field. What this class writes
 * reads back there as here.
 */
public final class JsonRows {
    private static final int MAX_SHOWN = 80;

    private JsonRows() {}

    /**
     * A JSON mapper that keeps decimals exact when reading and writes them without exponents. Use
     * it to parse the text {@link #fromJson} reads and to print what {@link #toJson} returns.
     */
    public static ObjectMapper mapper() {
        return JsonMapper.builder()
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
                .build();
    }

    /** {@code row}, a row of {@code schema}, as a JSON object with one member per field, in schema order. */
    public static ObjectNode toJson(Row row, StructType schema) {
        Objects.requireNonNull(row, "row must not be null");
        Objects.requireNonNull(schema, "schema must not be null");
        return RowJsonWriter.structToJson(row, schema, "");
    }

    /** The row of {@code schema} that {@code json} (a JSON object) describes; fields it lacks are null. */
    public static Row fromJson(JsonNode json, StructType schema) {
        Objects.requireNonNull(json, "json must not be null");
        Objects.requireNonNull(schema, "schema must not be null");
        return RowJsonReader.structFromJson(json, schema, "");
    }

    /**
     * One value of Spark type {@code type} as JSON; {@code path} names it in error messages (the
     * column name for a top-level value).
     */
    public static JsonNode valueToJson(Object value, DataType type, String path) {
        Objects.requireNonNull(type, "type must not be null");
        return RowJsonWriter.write(value, type, Objects.requireNonNull(path, "path must not be null"));
    }

    /** The external value of Spark type {@code type} that {@code json} describes; null for JSON null. */
    public static Object valueFromJson(JsonNode json, DataType type, String path) {
        Objects.requireNonNull(type, "type must not be null");
        return RowJsonReader.read(json, type, true, Objects.requireNonNull(path, "path must not be null"));
    }

    static boolean isString(DataType type) {
        return type instanceof StringType || type instanceof CharType || type instanceof VarcharType;
    }

    static IllegalArgumentException unsupported(DataType type, String path) {
        return new IllegalArgumentException(at(path) + "JsonRows does not support Spark type " + type.simpleString()
                + "; use primitives, decimal, string, binary, date/time types, arrays, maps and structs");
    }

    static String at(String path) {
        return path.isEmpty() ? "" : "field \"" + path + "\": ";
    }

    /** The path of field {@code name} under {@code path}, for messages ({@link #printable}, at most 60 characters). */
    static String child(String path, String name) {
        String shown = printable(name, 60);
        return path.isEmpty() ? shown : path + "." + shown;
    }

    /** {@code s} for a message: cut after {@code max} characters, control characters as {@code \\uXXXX}. */
    static String printable(String s, int max) {
        String cut = shorten(s, max);
        StringBuilder b = new StringBuilder(cut.length());
        cut.chars().forEach(c -> b.append(c < 0x20 || c == 0x7F ? String.format("\\u%04X", c) : String.valueOf((char) c)));
        return b.toString();
    }

    static String shorten(String s) {
        return shorten(s, MAX_SHOWN);
    }

    /** {@code s}, cut after {@code max} characters with {@code ...}. */
    static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "...";
    }

    /** {@code s} on one line: line breaks and the spaces around them become one space; null is empty. */
    static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
