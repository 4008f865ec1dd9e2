package dev.twstester.io;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.util.RebaseDateTime;
import org.apache.spark.sql.catalyst.util.SparkDateTimeUtils;
import org.apache.spark.sql.catalyst.util.SparkDateTimeUtils$;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;

import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

import dev.twstester.internal.SparkTimes;

/**
 * Reads a JSON line the way Spark 4.2.0's JSON file source ({@code spark.read().schema(s).json(path)},
 * default options) reads it, to the external {@link Row} a {@code DataFrame}'s {@code collect()}
 * gives: the same token rules as Spark's {@code JacksonParser}, its PERMISSIVE mode with partial
 * results, the session time zone UTC (the live runner's), and Spark's own date-time functions
 * ({@code SparkDateTimeUtils}). Spark's parser itself is not used because it needs {@code SQLConf}
 * (seconds to load) and costs several times more per row.
 *
 * <p>The rules, per Spark type: strings take any JSON value (a non-string as its exact JSON text:
 * {@code 123} is {@code "123"}, {@code 1.50} is {@code "1.50"}); whole-number types take JSON
 * integers (a byte 128..255 wraps, as Jackson's {@code getByteValue} does); float and double take
 * any number and {@code "NaN"}, {@code "Infinity"}, {@code "+Infinity"}, {@code "+INF"},
 * {@code "-Infinity"}, {@code "-INF"}; decimals take numbers and numeric strings (commas removed),
 * rounded half up to the scale; timestamps take strings as Spark's {@code CAST} reads them
 * ({@code "2024-05-01 10:00:00"}, {@code "2024-05-01T10:00:00Z"}, {@code "2024-05-01"}, a zone
 * or offset, else UTC; "GMT" removed) and JSON integers as <em>seconds</em> since the epoch; dates
 * take strings (also a timestamp string's date, or a number of days as a string); binary takes
 * base64 strings; arrays JSON arrays, maps (string keys) and structs JSON objects. A value a type
 * does not take is null in its field (each such field is reported through {@link Result#problems});
 * a line that is not JSON, or is not an object or an array of objects, is {@link Unreadable}.
 */
final class SparkJsonParser {
    /** The live runner's session time zone. */
    static final ZoneId ZONE = ZoneOffset.UTC;

    private static final SparkDateTimeUtils TIMES = SparkDateTimeUtils$.MODULE$;
    private static final UTF8String GMT = UTF8String.fromString("GMT");
    /** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in seconds: integer timestamps outside get a note. */
    static final long FIRST_YEAR_SECONDS = -62135596800L;
    static final long LAST_YEAR_SECONDS = 253402300799L;

    /** A factory with the features of Spark's {@code JSONOptions.buildJsonFactory()} at its defaults. */
    static JsonFactory sparkFactory() {
        return JsonFactory.builder()
                .configure(JsonReadFeature.ALLOW_JAVA_COMMENTS, false)
                .configure(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, false)
                .configure(JsonReadFeature.ALLOW_SINGLE_QUOTES, true)
                .configure(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS, false)
                .configure(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS, true)
                .configure(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER, false)
                .configure(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS, false)
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(1000).maxNumberLength(1000).maxStringLength(Integer.MAX_VALUE).build())
                .build();
    }

    /** The rows of one line, and the fields Spark read as null because it could not convert their values. */
    record Result(List<Row> rows, List<String> problems, List<String> unknownFields, List<String> notes,
            boolean trailingText) {}

    /** A line Spark's PERMISSIVE mode reads as a row of nulls: not JSON, or not an object. */
    static final class Unreadable extends Exception {
        Unreadable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A value that could not be converted (Spark: any non-fatal exception of a converter). */
    private static final class Failure extends RuntimeException {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    /** A struct, array or map with some parts null (Spark's {@code PartialValueException}s). */
    private static final class Partial extends RuntimeException {
        final Object value;

        Partial(Object value) {
            super(null, null, false, false);
            this.value = value;
        }
    }

    private interface Converter {
        Object convert(JsonParser p, String path, Context context) throws IOException;
    }

    /** A converter of a value that is not JSON null, given its token. */
    private interface ValueConverter {
        Object convert(JsonParser p, JsonToken t, String path, Context context) throws IOException;
    }

    /** Spark's {@code parseJsonToken}: JSON null (or no token) is null, any other value goes to {@code value}. */
    private static Converter orNull(ValueConverter value) {
        return (p, path, c) -> {
            JsonToken t = token(p);
            return t == null || t == JsonToken.VALUE_NULL ? null : value.convert(p, t, path, c);
        };
    }

    /** Per line: the source text or bytes (for exact string values) and the problems found. */
    private static final class Context {
        final String text;
        final byte[] bytes;
        final List<String> problems = new ArrayList<>(0);
        final List<String> unknown = new ArrayList<>(0);
        final List<String> notes = new ArrayList<>(0);

        Context(String text, byte[] bytes) {
            this.text = text;
            this.bytes = bytes;
        }

        /** The source between two locations of the parser: characters of a text, bytes of a byte line. */
        String source(JsonLocation start, JsonLocation end) {
            if (bytes == null) {
                return text.substring((int) start.getCharOffset(), (int) end.getCharOffset());
            }
            int from = (int) start.getByteOffset();
            return new String(bytes, from, (int) end.getByteOffset() - from, StandardCharsets.UTF_8);
        }

        JsonParser parser(JsonFactory factory) throws IOException {
            return bytes == null ? factory.createParser(text) : factory.createParser(bytes);
        }
    }

    private final StructType schema;
    private final JsonFactory factory;
    private final Converter root;

    private SparkJsonParser(StructType schema, JsonFactory factory) {
        this.schema = schema;
        this.factory = factory;
        this.root = converter(schema, true);
    }

    /** A reader for {@code schema}, or null when a type in it is not one this reads as Spark does. */
    static SparkJsonParser forSchema(StructType schema) {
        return supported(schema) ? new SparkJsonParser(schema, sparkFactory()) : null;
    }

    /** Whether every type in {@code type} is one this class reads as Spark does. */
    static boolean supported(DataType type) {
        if (type instanceof StructType s) {
            for (StructField f : s.fields()) {
                if (!supported(f.dataType())) {
                    return false;
                }
            }
            return true;
        } else if (type instanceof ArrayType a) {
            return supported(a.elementType());
        } else if (type instanceof MapType m) {
            return m.keyType() instanceof StringType && supported(m.valueType());
        }
        return type instanceof StringType || type instanceof BooleanType || type instanceof ByteType
                || type instanceof ShortType || type instanceof IntegerType || type instanceof LongType
                || type instanceof FloatType || type instanceof DoubleType || type instanceof DecimalType
                || type instanceof DateType || type instanceof org.apache.spark.sql.types.TimestampType
                || type instanceof BinaryType;
    }

    JsonFactory factory() {
        return factory;
    }

    /** The rows Spark reads from {@code line}: none for a blank line, several for a top-level array. */
    Result parse(String line) throws Unreadable {
        return parse(new Context(line, null));
    }

    /**
     * The rows Spark reads from a line's bytes, as Spark's JSON source hands them to Jackson: for a
     * line that is not valid UTF-8, which Jackson reads as far as it can (as Spark does).
     */
    Result parse(byte[] line) throws Unreadable {
        return parse(new Context(null, line));
    }

    private Result parse(Context context) throws Unreadable {
        List<Row> rows = new ArrayList<>(1);
        boolean trailing;
        try (JsonParser p = context.parser(factory)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                return new Result(List.of(), List.of(), List.of(), List.of(), false);
            }
            try {
                if (first == JsonToken.START_OBJECT) {
                    rows.add((Row) root.convert(p, "", context));
                } else if (first == JsonToken.START_ARRAY) {
                    int i = 0;
                    while (nextUntil(p, JsonToken.END_ARRAY)) {
                        try {
                            Object row = root.convert(p, "[" + i + "]", context);
                            if (row == null) {
                                throw new Unreadable("a top-level array holds null; write JSON objects", null);
                            }
                            rows.add((Row) row);
                        } catch (Partial e) {
                            rows.add((Row) e.value);
                        }
                        i++;
                    }
                } else {
                    throw new Unreadable("expected a JSON object, got " + describe(p), null);
                }
            } catch (Partial e) {
                rows.add((Row) e.value);
            } catch (Failure e) {
                throw new Unreadable(e.getMessage(), e);
            }
            try {
                trailing = p.nextToken() != null;
            } catch (IOException e) {
                trailing = true;
            }
        } catch (StreamConstraintsException e) {
            // a name, string or nesting over Jackson's limits: reading the line again would only hit
            // the same limit, after holding the over-long value a second time
            throw new Unreadable(e.getMessage(), e);
        } catch (IOException e) {
            if (!isJsonObjectOrArray(context)) {
                throw new Unreadable(e.getMessage(), e);
            }
            // valid JSON that Jackson fails on midway (an invalid base64 value leaves the parser inside
            // the string): Spark's PERMISSIVE mode reads a row of nulls, and so do we, with a warning
            return new Result(List.of(RowFactory.create(new Object[schema.fields().length])),
                    List.of("every field (Jackson stops inside the line: " + JsonRows.oneLine(e.getMessage())
                            .replaceAll("\\s*at \\[Source: [^\\]]*\\]", "").replaceAll(" \\(start marker\\)", "") + ")"),
                    context.unknown, context.notes, false);
        }
        return new Result(rows, context.problems, context.unknown, context.notes, trailing);
    }

    private boolean isJsonObjectOrArray(Context line) {
        try (JsonParser p = line.parser(factory)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT && first != JsonToken.START_ARRAY) {
                return false;
            }
            p.skipChildren();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String describe(JsonParser p) throws IOException {
        return JsonRows.oneLine(p.getText());
    }

    private static boolean nextUntil(JsonParser p, JsonToken stop) throws IOException {
        JsonToken t = p.nextToken();
        return t != null && t != stop;
    }

    /** Skips FIELD_NAME, gives null for JSON null (Spark's {@code parseJsonToken}). */
    private static JsonToken token(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        while (t == JsonToken.FIELD_NAME) {
            t = p.nextToken();
        }
        return t;
    }

    private static Failure cannotConvert(JsonParser p, JsonToken t, DataType type) throws IOException {
        if (t == JsonToken.VALUE_STRING && p.getTextLength() < 1) {
            return new Failure("an empty string is not a " + type.simpleString());
        }
        return new Failure("cannot read " + JsonRows.oneLine(text(p, t)) + " as " + type.simpleString());
    }

    private static String text(JsonParser p, JsonToken t) throws IOException {
        String s = p.getText();
        return JsonRows.shorten(t == JsonToken.VALUE_STRING ? "\"" + s + "\"" : s, 60);
    }

    private Converter converter(DataType type, boolean isRoot) {
        if (type instanceof StringType) {
            return orNull((p, t, path, c) -> {
                if (t == JsonToken.VALUE_STRING) {
                    return p.getText();
                }
                JsonLocation start = p.currentTokenLocation();
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    p.skipChildren();
                }
                return c.source(start, p.currentLocation());
            });
        } else if (type instanceof BooleanType) {
            return orNull((p, t, path, c) -> {
                if (t == JsonToken.VALUE_TRUE) {
                    return Boolean.TRUE;
                } else if (t == JsonToken.VALUE_FALSE) {
                    return Boolean.FALSE;
                }
                throw cannotConvert(p, t, type);
            });
        } else if (type instanceof ByteType || type instanceof ShortType || type instanceof IntegerType
                || type instanceof LongType) {
            return orNull((p, t, path, c) -> {
                if (t != JsonToken.VALUE_NUMBER_INT) {
                    throw cannotConvert(p, t, type);
                }
                try {
                    if (type instanceof ByteType) {
                        return p.getByteValue();
                    } else if (type instanceof ShortType) {
                        return p.getShortValue();
                    } else if (type instanceof IntegerType) {
                        return p.getIntValue();
                    }
                    return p.getLongValue();
                } catch (IOException e) {
                    throw new Failure(p.getText() + " is out of the range of " + type.simpleString());
                }
            });
        } else if (type instanceof FloatType || type instanceof DoubleType) {
            boolean isFloat = type instanceof FloatType;
            return orNull((p, t, path, c) -> {
                if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                    return isFloat ? (Object) p.getFloatValue() : (Object) p.getDoubleValue();
                } else if (t == JsonToken.VALUE_STRING && p.getTextLength() >= 1) {
                    double v = switch (p.getText()) {
                        case "NaN" -> Double.NaN;
                        case "+INF", "+Infinity", "Infinity" -> Double.POSITIVE_INFINITY;
                        case "-INF", "-Infinity" -> Double.NEGATIVE_INFINITY;
                        default -> throw cannotConvert(p, t, type);
                    };
                    return isFloat ? (Object) (float) v : (Object) v;
                }
                throw cannotConvert(p, t, type);
            });
        } else if (type instanceof DecimalType d) {
            return orNull((p, t, path, c) -> {
                BigDecimal v;
                if (t == JsonToken.VALUE_NUMBER_FLOAT && p.isNaN()) {
                    throw cannotConvert(p, t, type);                 // NaN, Infinity: no decimal
                } else if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                    v = p.getDecimalValue();
                } else if (t == JsonToken.VALUE_STRING && p.getTextLength() >= 1) {
                    try {
                        v = new BigDecimal(p.getText().replaceAll(",", ""));
                    } catch (NumberFormatException e) {
                        throw cannotConvert(p, t, type);
                    }
                } else {
                    throw cannotConvert(p, t, type);
                }
                return decimal(v, d);
            });
        } else if (type instanceof DateType) {
            return orNull((p, t, path, c) -> {
                if (t == JsonToken.VALUE_STRING && p.getTextLength() >= 1) {
                    Integer days = dateDays(p.getText());
                    if (days != null) {
                        return TIMES.toJavaDate(days);
                    }
                }
                throw cannotConvert(p, t, type);
            });
        } else if (type instanceof org.apache.spark.sql.types.TimestampType) {
            return orNull((p, t, path, c) -> {
                if (t == JsonToken.VALUE_STRING && p.getTextLength() >= 1) {
                    Long micros = timestampMicros(p.getText());
                    if (micros != null) {
                        return SparkTimes.toJavaTimestamp(micros);
                    }
                } else if (t == JsonToken.VALUE_NUMBER_INT) {
                    long seconds;
                    try {
                        seconds = p.getLongValue();
                    } catch (IOException e) {
                        throw new Failure(p.getText() + " is out of the range of bigint seconds");
                    }
                    if (seconds < FIRST_YEAR_SECONDS || seconds > LAST_YEAR_SECONDS) {
                        c.notes.add("field \"" + path + "\": " + seconds + " is read as seconds since the epoch, as Spark"
                                + " reads a JSON integer for a timestamp (" + SparkTimes.toJavaTimestamp(seconds * 1_000_000L)
                                        .toInstant() + "); if it is milliseconds, write seconds or an ISO-8601 string");
                    }
                    return SparkTimes.toJavaTimestamp(seconds * 1_000_000L);
                }
                throw cannotConvert(p, t, type);
            });
        } else if (type instanceof BinaryType) {
            return orNull((p, t, path, c) -> {
                if (t == JsonToken.VALUE_STRING) {
                    try {
                        return p.getBinaryValue();
                    } catch (IOException e) {
                        // not p.getText() first: that would change where Jackson stops, as Spark's parser does not
                        throw new Failure("not valid base64 for binary: " + JsonRows.oneLine(e.getMessage())
                                .replaceAll("\\s*at \\[Source: [^\\]]*\\]", ""));
                    }
                }
                throw cannotConvert(p, t, type);
            });
        } else if (type instanceof StructType s) {
            return struct(s, isRoot);
        } else if (type instanceof ArrayType a) {
            Converter element = converter(a.elementType(), false);
            return orNull((p, t, path, c) -> {
                if (t != JsonToken.START_ARRAY) {
                    throw cannotConvert(p, t, type);
                }
                List<Object> values = new ArrayList<>();
                boolean partial = false;
                int i = 0;
                while (nextUntil(p, JsonToken.END_ARRAY)) {
                    try {
                        values.add(element.convert(p, path + "[" + i + "]", c));
                    } catch (Partial e) {
                        partial = true;
                        values.add(e.value);
                    }
                    i++;
                }
                Object seq = CollectionConverters.asScala(values).toSeq();
                if (partial) {
                    throw new Partial(seq);
                }
                return seq;
            });
        } else if (type instanceof MapType m) {
            Converter value = converter(m.valueType(), false);
            return orNull((p, t, path, c) -> {
                if (t != JsonToken.START_OBJECT) {
                    throw cannotConvert(p, t, type);
                }
                Map<Object, Object> out = new LinkedHashMap<>();
                boolean partial = false;
                Failure bad = null;
                while (nextUntil(p, JsonToken.END_OBJECT)) {
                    String key = p.currentName();
                    String at = JsonRows.child(path, key);
                    try {
                        out.put(key, value.convert(p, at, c));
                    } catch (Partial e) {
                        partial = true;
                        out.put(key, e.value);
                    } catch (RuntimeException | IOException e) {   // Spark: NonFatal
                        if (bad == null) {
                            bad = new Failure("map entry \"" + key + "\": " + e.getMessage());
                        }
                        p.skipChildren();
                    }
                }
                if (bad != null) {
                    throw bad;
                }
                Object map = scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(out));
                if (partial) {
                    throw new Partial(map);
                }
                return map;
            });
        }
        throw new IllegalArgumentException("not a supported type: " + type.simpleString());
    }

    private Converter struct(StructType s, boolean isRoot) {
        StructField[] fields = s.fields();
        Converter[] converters = new Converter[fields.length];
        Map<String, Integer> index = new java.util.HashMap<>();
        for (int i = 0; i < fields.length; i++) {
            converters[i] = converter(fields[i].dataType(), false);
            index.putIfAbsent(fields[i].name(), i);
        }
        return orNull((p, t, path, c) -> {
            if (t != JsonToken.START_OBJECT) {
                throw cannotConvert(p, t, s);
            }
            Object[] values = new Object[fields.length];
            boolean bad = false;
            while (nextUntil(p, JsonToken.END_OBJECT)) {
                String name = p.currentName();
                Integer i = name == null ? null : index.get(name);
                if (i == null) {
                    c.unknown.add(JsonRows.child(path, String.valueOf(name)));
                    p.skipChildren();
                    continue;
                }
                String at = JsonRows.child(path, name);
                try {
                    values[i] = converters[i].convert(p, at, c);
                } catch (Partial e) {
                    bad = true;
                    values[i] = e.value;
                } catch (RuntimeException | IOException e) {   // Spark: NonFatal (a NaN for a decimal, ...)
                    bad = true;
                    c.problems.add("field \"" + at + "\": " + JsonRows.oneLine(String.valueOf(e.getMessage()))
                            .replaceAll("\\s*at \\[Source: [^\\]]*\\]", ""));
                    p.skipChildren();
                }
            }
            Row row = RowFactory.create(values);
            if (bad) {
                throw new Partial(row);
            }
            return row;
        });
    }

    /** Spark's {@code Decimal(value, precision, scale)}: rounded half up to the scale, within the precision. */
    static BigDecimal decimal(BigDecimal v, DecimalType type) {
        // more integer digits than the type has cannot fit: refused before setScale, which would
        // build every digit of a number like 1e100000000
        boolean tooLarge = v.signum() != 0 && (long) v.precision() - v.scale() > type.precision() - type.scale() + 1;
        // and fewer than a tenth of the type's last digit rounds to 0, without setScale dividing by 10^scale
        boolean tiny = (long) v.scale() - v.precision() > type.scale() + 1L;
        BigDecimal scaled = tooLarge ? null
                : tiny ? BigDecimal.ZERO.setScale(type.scale()) : v.setScale(type.scale(), RoundingMode.HALF_UP);
        if (tooLarge || scaled.precision() > type.precision()) {
            // a huge exponent is shown in scientific notation (1e100000000 has no 100-million-digit form here)
            String shown = Math.abs((long) v.scale()) > 60 ? v.toString() : v.toPlainString();
            throw new Failure(JsonRows.shorten(shown, 60) + " does not fit " + type.simpleString());
        }
        return scaled;
    }

    /**
     * Microseconds of a timestamp string as Spark's JSON source reads it with the default
     * {@code timestampFormat}: Spark's {@code CAST} rules in the session time zone, then the same
     * with "GMT" removed; null if neither reads it.
     */
    static Long timestampMicros(String text) {
        UTF8String s = UTF8String.fromString(text);
        Option<Object> micros = TIMES.stringToTimestamp(s, ZONE);
        if (micros.isEmpty()) {
            micros = TIMES.stringToTimestamp(s.replace(GMT, UTF8String.EMPTY_UTF8), ZONE);
        }
        return micros.isEmpty() ? null : (Long) micros.get();
    }

    /**
     * Days since the epoch of a date string as Spark's JSON source reads it with the default
     * {@code dateFormat}: Spark's {@code CAST} rules, then with "GMT" removed, then a number of days
     * (Spark 1.5's form); null if none reads it.
     */
    static Integer dateDays(String text) {
        UTF8String s = UTF8String.fromString(text);
        Option<Object> days = TIMES.stringToDate(s);
        if (days.isEmpty()) {
            days = TIMES.stringToDate(s.replace(GMT, UTF8String.EMPTY_UTF8));
        }
        if (!days.isEmpty()) {
            return (Integer) days.get();
        }
        try {
            return RebaseDateTime.rebaseJulianToGregorianDays(Integer.parseInt(text));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
