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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Row;
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
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import scala.jdk.javaapi.CollectionConverters;

import dev.twstester.internal.SparkTimes;

/** Writes external Row values as JSON for {@link JsonRows}. */
final class RowJsonWriter {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RowJsonWriter() {}

    static ObjectNode structToJson(Row row, StructType schema, String path) {
        StructField[] fields = schema.fields();
        if (row.length() != fields.length) {
            throw new IllegalArgumentException(at(path) + "the row has " + row.length() + " values but the schema "
                    + schema.simpleString() + " has " + fields.length + " fields; pass the row's own schema");
        }
        ObjectNode out = NODES.objectNode();
        for (int i = 0; i < fields.length; i++) {
            out.set(fields[i].name(), write(row.get(i), fields[i].dataType(), child(path, fields[i].name())));
        }
        return out;
    }

    static JsonNode write(Object v, DataType type, String path) {
        if (v == null) {
            return NullNode.getInstance();
        }
        if (isString(type)) {
            return TextNode.valueOf(expect(v, String.class, type, path));
        } else if (type instanceof BooleanType) {
            return BooleanNode.valueOf(expect(v, Boolean.class, type, path));
        } else if (type instanceof ByteType || type instanceof ShortType || type instanceof IntegerType
                || type instanceof LongType) {
            return LongNode.valueOf(expect(v, Number.class, type, path).longValue());
        } else if (type instanceof FloatType) {
            float f = expect(v, Number.class, type, path).floatValue();
            return Float.isFinite(f) ? FloatNode.valueOf(f) : TextNode.valueOf(Float.toString(f));
        } else if (type instanceof DoubleType) {
            double d = expect(v, Number.class, type, path).doubleValue();
            return Double.isFinite(d) ? DoubleNode.valueOf(d) : TextNode.valueOf(Double.toString(d));
        } else if (type instanceof DecimalType) {
            return DecimalNode.valueOf(decimal(v, type, path));
        } else if (type instanceof DateType) {
            LocalDate date = v instanceof java.sql.Date d ? d.toLocalDate() : expect(v, LocalDate.class, type, path);
            return TextNode.valueOf(date.toString());
        } else if (type instanceof TimestampType) {
            Instant instant = v instanceof java.sql.Timestamp t ? t.toInstant() : expect(v, Instant.class, type, path);
            return TextNode.valueOf(DateTimeFormatter.ISO_INSTANT.format(instant));
        } else if (type instanceof TimestampNTZType) {
            LocalDateTime local = expect(v, LocalDateTime.class, type, path);
            return TextNode.valueOf(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(local));
        } else if (SparkTimes.isTimeType(type)) {
            return TextNode.valueOf(DateTimeFormatter.ISO_LOCAL_TIME.format(expect(v, LocalTime.class, type, path)));
        } else if (type instanceof DayTimeIntervalType) {
            return TextNode.valueOf(expect(v, Duration.class, type, path).toString());
        } else if (type instanceof YearMonthIntervalType) {
            return TextNode.valueOf(expect(v, Period.class, type, path).toString());
        } else if (type instanceof BinaryType) {
            return TextNode.valueOf(Base64.getEncoder().encodeToString(expect(v, byte[].class, type, path)));
        } else if (type instanceof ArrayType a) {
            ArrayNode out = NODES.arrayNode();
            List<?> elements = elements(v, type, path);
            for (int i = 0; i < elements.size(); i++) {
                out.add(write(elements.get(i), a.elementType(), path + "[" + i + "]"));
            }
            return out;
        } else if (type instanceof MapType m) {
            return mapToJson(entries(v, type, path), m, path);
        } else if (type instanceof StructType s) {
            return structToJson(expect(v, Row.class, type, path), s, path);
        }
        throw unsupported(type, path);
    }

    private static JsonNode mapToJson(Map<?, ?> map, MapType type, String path) {
        if (isString(type.keyType())) {
            ObjectNode out = NODES.objectNode();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = expect(e.getKey(), String.class, type.keyType(), path + " (a key)");
                out.set(key, write(e.getValue(), type.valueType(), child(path, key)));
            }
            return out;
        }
        ArrayNode out = NODES.arrayNode();
        int i = 0;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            out.add(NODES.arrayNode()
                    .add(write(e.getKey(), type.keyType(), path + "[" + i + "][0]"))
                    .add(write(e.getValue(), type.valueType(), path + "[" + i + "][1]")));
            i++;
        }
        return out;
    }

    private static List<?> elements(Object v, DataType type, String path) {
        if (v instanceof scala.collection.Iterable<?> s) {
            return new ArrayList<>(CollectionConverters.asJavaCollection(s));
        } else if (v instanceof List<?> list) {
            return list;
        } else if (v instanceof Object[] array) {
            return Arrays.asList(array);
        } else if (v.getClass().isArray()) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < java.lang.reflect.Array.getLength(v); i++) {
                out.add(java.lang.reflect.Array.get(v, i));
            }
            return out;
        }
        throw wrongClass(v, type, path, "a Scala Seq, a java.util.List or an array");
    }

    private static Map<?, ?> entries(Object v, DataType type, String path) {
        if (v instanceof scala.collection.Map<?, ?> s) {
            return CollectionConverters.asJava(s);
        } else if (v instanceof Map<?, ?> map) {
            return map;
        }
        throw wrongClass(v, type, path, "a Scala Map or a java.util.Map");
    }

    private static BigDecimal decimal(Object v, DataType type, String path) {
        if (v instanceof BigDecimal d) {
            return d;
        } else if (v instanceof scala.math.BigDecimal d) {
            return d.bigDecimal();
        } else if (v instanceof org.apache.spark.sql.types.Decimal d) {
            return d.toJavaBigDecimal();
        } else if (v instanceof BigInteger i) {
            return new BigDecimal(i);
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        throw wrongClass(v, type, path, "java.math.BigDecimal");
    }

    private static <T> T expect(Object v, Class<T> type, DataType sparkType, String path) {
        if (!type.isInstance(v)) {
            throw wrongClass(v, sparkType, path, type.getName()
                    + (sparkType instanceof TimestampType ? " or java.sql.Timestamp"
                    : sparkType instanceof DateType ? " or java.sql.Date" : ""));
        }
        return type.cast(v);
    }

    private static IllegalArgumentException wrongClass(Object v, DataType type, String path, String expected) {
        return new IllegalArgumentException(at(path) + "a " + type.simpleString() + " value must be " + expected
                + ", not " + v.getClass().getName() + " " + shorten(String.valueOf(v))
                + "; check that the row matches the schema");
    }
}
