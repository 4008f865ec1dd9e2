package dev.twstester.io;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampType;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.base.ParserBase;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

import org.apache.spark.sql.catalyst.util.SparkDateTimeUtils;
import org.apache.spark.sql.catalyst.util.SparkDateTimeUtils$;

import dev.twstester.internal.SparkTimes;

/**
 * The quick way from a JSON line to the row {@link SparkJsonParser} (Spark's JSON source rules) makes
 * of it, for flat schemas of strings, booleans, whole numbers, floating-point numbers, dates and
 * timestamps: Jackson's tokens straight into the row's values, in one pass of one parser over a
 * whole file. It takes only lines it is sure about (every field known and given once, each value
 * one Spark converts without a problem: a string for a string, an integer in range for a whole
 * number, a date or timestamp string Spark reads, an integer of seconds for a timestamp; nothing
 * after the object) and returns null for anything else, which then goes the exact way
 * ({@link SparkJsonParser}, line by line) with its warnings, notes and errors.
 */
final class FlatJsonParser {
    private static final SparkDateTimeUtils TIMES = SparkDateTimeUtils$.MODULE$;

    /** The types this parser takes, each with its Spark type. */
    private enum Kind {
        STRING(StringType.class), BOOLEAN(BooleanType.class), BYTE(ByteType.class), SHORT(ShortType.class),
        INT(IntegerType.class), LONG(LongType.class), FLOAT(FloatType.class), DOUBLE(DoubleType.class),
        DATE(DateType.class), TIMESTAMP(TimestampType.class);

        private final Class<? extends DataType> type;

        Kind(Class<? extends DataType> type) {
            this.type = type;
        }
    }

    private final JsonFactory factory;
    private final Map<String, Integer> index = new HashMap<>();
    private final Kind[] kinds;
    private final boolean[] nullable;

    private FlatJsonParser(JsonFactory factory, StructType schema, Kind[] kinds) {
        this.factory = factory;
        this.kinds = kinds;
        StructField[] fields = schema.fields();
        this.nullable = new boolean[fields.length];
        for (int i = 0; i < fields.length; i++) {
            index.put(fields[i].name(), i);
            nullable[i] = fields[i].nullable();
        }
    }

    /** A parser for {@code schema}, or null when a field's type is not one it takes. */
    static FlatJsonParser forSchema(JsonFactory factory, StructType schema) {
        StructField[] fields = schema.fields();
        Kind[] kinds = new Kind[fields.length];
        for (int i = 0; i < fields.length; i++) {
            kinds[i] = kind(fields[i].dataType());
            if (kinds[i] == null) {
                return null;
            }
        }
        if (Arrays.stream(schema.fieldNames()).distinct().count() != fields.length) {
            return null;
        }
        return new FlatJsonParser(factory, schema, kinds);
    }

    private static Kind kind(DataType type) {
        for (Kind kind : Kind.values()) {
            if (kind.type.isInstance(type)) {
                return kind;
            }
        }
        return null;
    }

    /**
     * The objects of a whole JSON-lines text in one pass of one parser, each row made into an object
     * by {@code make}; null at the first thing this parser is not sure about (a line that is not
     * exactly one flat object of the schema on one line, text that is not JSON, {@code make}
     * failing): then the caller reads the text the exact way, line by line, which names the line.
     *
     * @throws OverLimit when the text has a name, string or nesting over Jackson's limits: the caller
     *     then reads the text the exact way without this parser, which would buffer that token again
     */
    <T> List<T> parseAll(Reader in, Function<Row, T> make) {
        List<T> out = new ArrayList<>();
        try (JsonParser p = factory.createParser(in)) {
            long lastLine = 0;
            JsonToken start;
            while ((start = p.nextToken()) != null) {
                long line = tokenLine(p);
                if (start != JsonToken.START_OBJECT || line <= lastLine) {
                    return null;
                }
                Row row = object(p);
                if (row == null || tokenLine(p) != line) {
                    return null;
                }
                out.add(make.apply(row));
                lastLine = line;
            }
        } catch (StreamConstraintsException e) {
            throw new OverLimit(e);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return out;
    }

    /** A token over Jackson's limits (a name, a string, a nesting), met by {@link #parseAll}. */
    static final class OverLimit extends RuntimeException {
        OverLimit(StreamConstraintsException cause) {
            super(cause.getOriginalMessage(), cause, false, false);
        }
    }

    /** The line of the current token (without making a location object per call when the parser can). */
    private static long tokenLine(JsonParser p) {
        return p instanceof ParserBase base ? base.getTokenLineNr() : p.currentTokenLocation().getLineNr();
    }

    /** The row of {@code line}, or null: then the exact way decides (a row, an error or a note). */
    Row parse(String line) {
        try (JsonParser p = factory.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            Row row = object(p);
            return row == null || p.nextToken() != null ? null : row;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The object whose START_OBJECT is the current token, up to its END_OBJECT; null if not sure. */
    private Row object(JsonParser p) throws IOException {
        Object[] values = new Object[kinds.length];
        boolean[] seen = new boolean[kinds.length];
        {
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                Integer i = index.get(p.currentName());
                if (i == null || seen[i]) {
                    return null;
                }
                seen[i] = true;
                JsonToken v = p.nextToken();
                if (v == JsonToken.VALUE_NULL) {
                    if (!nullable[i]) {
                        return null;
                    }
                    continue;
                }
                Object value = value(p, v, kinds[i]);
                if (value == null) {
                    return null;
                }
                values[i] = value;
            }
            if (t != JsonToken.END_OBJECT) {
                return null;
            }
        }
        for (int i = 0; i < kinds.length; i++) {
            if (!seen[i] && !nullable[i]) {
                return null;
            }
        }
        return RowFactory.create(values);
    }

    /** The value of the current token as Spark reads it for {@code kind}, or null if not sure. */
    private static Object value(JsonParser p, JsonToken t, Kind kind) throws IOException {
        switch (kind) {
            case STRING:
                return t == JsonToken.VALUE_STRING ? p.getText() : null;
            case BOOLEAN:
                return t == JsonToken.VALUE_TRUE ? Boolean.TRUE : t == JsonToken.VALUE_FALSE ? Boolean.FALSE : null;
            case BYTE:
            case SHORT:
            case INT:
            case LONG:
                if (t != JsonToken.VALUE_NUMBER_INT) {
                    return null;
                }
                JsonParser.NumberType type = p.getNumberType();
                if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
                    return null;
                }
                long v = p.getLongValue();
                return switch (kind) {
                    case BYTE -> v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE ? (Object) (byte) v : null;
                    case SHORT -> v >= Short.MIN_VALUE && v <= Short.MAX_VALUE ? (Object) (short) v : null;
                    case INT -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? (Object) (int) v : null;
                    default -> (Object) v;
                };
            case FLOAT:
                return t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT ? (Object) p.getFloatValue() : null;
            case DOUBLE:
                return t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT ? (Object) p.getDoubleValue() : null;
            case DATE:
                if (t != JsonToken.VALUE_STRING || p.getTextLength() < 1) {
                    return null;
                }
                Integer days = SparkJsonParser.dateDays(p.getText());
                return days == null ? null : TIMES.toJavaDate(days);
            case TIMESTAMP:
                if (t == JsonToken.VALUE_NUMBER_INT) {
                    JsonParser.NumberType seconds = p.getNumberType();
                    if (seconds != JsonParser.NumberType.INT && seconds != JsonParser.NumberType.LONG) {
                        return null;
                    }
                    long s = p.getLongValue();
                    return s < SparkJsonParser.FIRST_YEAR_SECONDS || s > SparkJsonParser.LAST_YEAR_SECONDS ? null
                            : SparkTimes.toJavaTimestamp(s * 1_000_000L);
                }
                if (t != JsonToken.VALUE_STRING || p.getTextLength() < 1) {
                    return null;
                }
                Long micros = SparkJsonParser.timestampMicros(p.getText());
                return micros == null ? null : SparkTimes.toJavaTimestamp(micros);
            default:
                return null;
        }
    }
}
