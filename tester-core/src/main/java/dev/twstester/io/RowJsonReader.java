package dev.twstester.io;

import static dev.twstester.io.JsonRows.at;
import static dev.twstester.io.JsonRows.child;
import static dev.twstester.io.JsonRows.isString;
import static dev.twstester.io.JsonRows.shorten;
import static dev.twstester.io.JsonRows.unsupported;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Period;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.YearMonthIntervalType;

import com.fasterxml.jackson.databind.JsonNode;

import scala.jdk.javaapi.CollectionConverters;

import dev.twstester.internal.SparkTimes;

/** Reads JSON into external Row values for {@link JsonRows}; errors name the field path. */
final class RowJsonReader {
    private RowJsonReader() {}

    static Row structFromJson(JsonNode json, StructType schema, String path) {
        StructField[] fields = schema.fields();
        if (!json.isObject()) {
            throw cannotParse(json, schema, path);
        }
        for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (schema.getFieldIndex(name).isEmpty()) {
                throw new IllegalArgumentException(unknownField(name, schema, path));
            }
        }
        Object[] values = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            values[i] = read(json.get(fields[i].name()), fields[i].dataType(), fields[i].nullable(),
                    child(path, fields[i].name()));
        }
        return RowFactory.create(values);
    }

    /** {@code field "usrId": unknown field (did you mean "userId"?); the fields are [...]}. */
    static String unknownField(String name, StructType schema, String path) {
        return at(child(path, name)) + "unknown field" + suggestion(name, schema) + "; the fields are "
                + Arrays.toString(schema.fieldNames());
    }

    static Object read(JsonNode json, DataType type, boolean nullable, String path) {
        if (json == null || json.isNull() || json.isMissingNode()) {
            if (!nullable) {
                throw new IllegalArgumentException(at(path) + (json == null ? "missing" : "null")
                        + ", but the schema does not allow null here (" + type.simpleString()
                        + " NOT NULL); give a value");
            }
            return null;
        }
        try {
            return readValue(json, type, path);
        } catch (DateTimeParseException | NumberFormatException | ArithmeticException e) {
            throw cannotParse(json, type, path);
        }
    }

    private static Object readValue(JsonNode json, DataType type, String path) {
        if (isString(type)) {
            return text(json, type, path);
        } else if (type instanceof BooleanType) {
            if (!json.isBoolean()) {
                throw cannotParse(json, type, path);
            }
            return json.booleanValue();
        } else if (type instanceof ByteType) {
            return (byte) integral(json, type, Byte.MIN_VALUE, Byte.MAX_VALUE, path);
        } else if (type instanceof ShortType) {
            return (short) integral(json, type, Short.MIN_VALUE, Short.MAX_VALUE, path);
        } else if (type instanceof IntegerType) {
            return (int) integral(json, type, Integer.MIN_VALUE, Integer.MAX_VALUE, path);
        } else if (type instanceof LongType) {
            return integral(json, type, Long.MIN_VALUE, Long.MAX_VALUE, path);
        } else if (type instanceof FloatType) {
            return json.isNumber() ? json.floatValue() : (float) special(json, type, path);
        } else if (type instanceof DoubleType) {
            return json.isNumber() ? json.doubleValue() : special(json, type, path);
        } else if (type instanceof DecimalType d) {
            return decimalFromJson(json, d, path);
        } else if (type instanceof DateType) {
            return java.sql.Date.valueOf(LocalDate.parse(text(json, type, path)));
        } else if (type instanceof TimestampType) {
            return java.sql.Timestamp.from(DateTimeFormatter.ISO_INSTANT.parse(text(json, type, path), Instant::from));
        } else if (type instanceof TimestampNTZType) {
            return LocalDateTime.parse(text(json, type, path));
        } else if (SparkTimes.isTimeType(type)) {
            return LocalTime.parse(text(json, type, path));
        } else if (type instanceof DayTimeIntervalType) {
            return Duration.parse(text(json, type, path));
        } else if (type instanceof YearMonthIntervalType) {
            return Period.parse(text(json, type, path));
        } else if (type instanceof BinaryType) {
            try {
                return Base64.getDecoder().decode(text(json, type, path));
            } catch (IllegalArgumentException e) {
                throw cannotParse(json, type, path);
            }
        } else if (type instanceof ArrayType a) {
            return arrayFromJson(json, a, path);
        } else if (type instanceof MapType m) {
            return mapFromJson(json, m, path);
        } else if (type instanceof StructType s) {
            return structFromJson(json, s, path);
        }
        throw unsupported(type, path);
    }

    private static Object arrayFromJson(JsonNode json, ArrayType type, String path) {
        if (!json.isArray()) {
            throw cannotParse(json, type, path);
        }
        List<Object> out = new ArrayList<>(json.size());
        for (int i = 0; i < json.size(); i++) {
            out.add(read(json.get(i), type.elementType(), type.containsNull(), path + "[" + i + "]"));
        }
        return CollectionConverters.asScala(out).toList();
    }

    private static Object mapFromJson(JsonNode json, MapType type, String path) {
        Map<Object, Object> out = new LinkedHashMap<>();
        if (isString(type.keyType()) && json.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.put(e.getKey(),
                        read(e.getValue(), type.valueType(), type.valueContainsNull(), child(path, e.getKey())));
            }
        } else if (json.isArray()) {
            for (int i = 0; i < json.size(); i++) {
                JsonNode pair = json.get(i);
                if (!pair.isArray() || pair.size() != 2) {
                    throw new IllegalArgumentException(at(path + "[" + i + "]") + "cannot parse "
                            + shorten(pair.toString()) + " as a map entry; write a [key, value] pair");
                }
                Object key = read(pair.get(0), type.keyType(), false, path + "[" + i + "][0]");
                if (out.containsKey(key)) {
                    throw new IllegalArgumentException(at(path + "[" + i + "][0]") + "duplicate map key "
                            + shorten(pair.get(0).toString()) + "; each key may appear once");
                }
                out.put(key, read(pair.get(1), type.valueType(), type.valueContainsNull(), path + "[" + i + "][1]"));
            }
        } else {
            throw cannotParse(json, type, path);
        }
        return scala.collection.immutable.VectorMap$.MODULE$.from(CollectionConverters.asScala(out));
    }

    private static long integral(JsonNode json, DataType type, long min, long max, String path) {
        if (!json.isIntegralNumber()) {
            throw cannotParse(json, type, path);
        }
        BigInteger v = json.bigIntegerValue();
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new IllegalArgumentException(at(path) + "cannot parse " + shorten(json.toString()) + " as "
                    + type.simpleString() + "; it is out of range [" + min + ", " + max + "]");
        }
        return v.longValue();
    }

    private static double special(JsonNode json, DataType type, String path) {
        return switch (text(json, type, path)) {
            case "NaN" -> Double.NaN;
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> throw cannotParse(json, type, path);
        };
    }

    private static BigDecimal decimalFromJson(JsonNode json, DecimalType type, String path) {
        BigDecimal v;
        if (json.isNumber()) {
            v = json.decimalValue();
        } else {
            v = new BigDecimal(text(json, type, path));
        }
        BigDecimal scaled = v.setScale(type.scale(), java.math.RoundingMode.UNNECESSARY);
        if (scaled.precision() > type.precision()) {
            throw new IllegalArgumentException(at(path) + "cannot parse " + shorten(json.toString()) + " as "
                    + type.simpleString() + "; it has more than " + type.precision() + " digits");
        }
        return scaled;
    }

    private static String text(JsonNode json, DataType type, String path) {
        if (!json.isTextual()) {
            throw cannotParse(json, type, path);
        }
        return json.textValue();
    }

    private static IllegalArgumentException cannotParse(JsonNode json, DataType type, String path) {
        return new IllegalArgumentException(at(path) + "cannot parse " + shorten(json.toString()) + " as "
                + type.simpleString() + "; " + hint(type));
    }

    private static String hint(DataType type) {
        if (isString(type)) {
            return "write a JSON string";
        } else if (type instanceof BooleanType) {
            return "write true or false";
        } else if (type instanceof ByteType || type instanceof ShortType || type instanceof IntegerType
                || type instanceof LongType) {
            return "write a JSON integer";
        } else if (type instanceof FloatType || type instanceof DoubleType) {
            return "write a JSON number or one of \"NaN\", \"Infinity\", \"-Infinity\"";
        } else if (type instanceof DecimalType d) {
            return "write a JSON number with at most " + d.scale() + " decimal places";
        } else if (type instanceof DateType) {
            return "write an ISO-8601 date like \"2024-05-01\"";
        } else if (type instanceof TimestampType) {
            return "write an ISO-8601 instant like \"2024-05-01T10:00:00Z\"";
        } else if (type instanceof TimestampNTZType) {
            return "write an ISO-8601 local date-time like \"2024-05-01T10:00:00\"";
        } else if (SparkTimes.isTimeType(type)) {
            return "write an ISO-8601 time like \"10:00:00\"";
        } else if (type instanceof DayTimeIntervalType) {
            return "write an ISO-8601 duration like \"PT10S\"";
        } else if (type instanceof YearMonthIntervalType) {
            return "write an ISO-8601 period like \"P1Y2M\"";
        } else if (type instanceof BinaryType) {
            return "write the bytes as a base64 string";
        } else if (type instanceof ArrayType) {
            return "write a JSON array";
        } else if (type instanceof MapType m) {
            return isString(m.keyType()) ? "write a JSON object" : "write an array of [key, value] pairs";
        } else if (type instanceof StructType s) {
            return "write a JSON object with fields " + Arrays.toString(s.fieldNames());
        }
        return "this type is not supported";
    }

    /** " (did you mean "x"?)" for a field name within two edits of {@code name}. */
    private static String suggestion(String name, StructType schema) {
        String best = null;
        int bestDistance = 3;
        for (String candidate : schema.fieldNames()) {
            if (Math.abs(name.length() - candidate.length()) >= bestDistance) {
                continue;                       // too far apart (and no time spent on a huge name)
            }
            int d = distance(name.toLowerCase(java.util.Locale.ROOT), candidate.toLowerCase(java.util.Locale.ROOT));
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best == null ? "" : " (did you mean \"" + best + "\"?)";
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
