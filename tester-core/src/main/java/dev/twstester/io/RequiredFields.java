package dev.twstester.io;

import java.util.Iterator;
import java.util.List;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Names the field when a JSON line cannot become the query's row because a column that cannot be
 * null (a primitive field of a bean, {@code boolean ok}) is null in the row Spark's JSON source
 * reads: the field is missing, null, or has a value Spark cannot convert (e.g. {@code "yes"} for a
 * boolean, which Spark reads as null). Turning that row into the bean then fails, in Spark as in
 * the encoder here ({@code EXPRESSION_ENCODING_FAILED} with the struct type, not the field); this
 * names the field (its path, for a nested one), the type it needs and the value the line has.
 */
final class RequiredFields {
    private static final ObjectMapper JSON = JsonRows.mapper();

    private RequiredFields() {}

    /**
     * The problem with {@code row} (read from {@code line}, which may be null when it is not text),
     * or null when every column that cannot be null has a value.
     */
    static String problem(StructType schema, Row row, String line, String typeName) {
        Missing missing = firstNull(schema, row, "");
        if (missing == null) {
            return null;
        }
        return "field \"" + missing.path + "\" (" + missing.type.simpleString() + ", which cannot be null in "
                + typeName + ") " + found(line, missing.path) + "; Spark fails the query on such a row, as a " + typeName
                + " cannot hold null there; write " + example(missing.type);
    }

    private record Missing(String path, DataType type) {}

    private static Missing firstNull(StructType schema, Row row, String prefix) {
        StructField[] fields = schema.fields();
        for (int i = 0; i < fields.length && i < row.length(); i++) {
            String path = prefix + fields[i].name();
            Missing m = firstNull(fields[i].dataType(), fields[i].nullable(), row.get(i), path);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    private static Missing firstNull(DataType type, boolean nullable, Object value, String path) {
        if (value == null) {
            return nullable ? null : new Missing(path, type);
        }
        if (type instanceof StructType struct && value instanceof Row nested) {
            return firstNull(struct, nested, path + ".");
        }
        if (type instanceof ArrayType array) {
            Iterator<?> elements = elements(value);
            for (int i = 0; elements != null && elements.hasNext(); i++) {
                Missing m = firstNull(array.elementType(), array.containsNull(), elements.next(), path + "[" + i + "]");
                if (m != null) {
                    return m;
                }
            }
        }
        return null;
    }

    private static Iterator<?> elements(Object value) {
        if (value instanceof List<?> list) {
            return list.iterator();
        }
        if (value instanceof scala.collection.Iterable<?> seq) {
            return scala.jdk.javaapi.CollectionConverters.asJava(seq.iterator());
        }
        return null;
    }

    /** {@code is missing}, {@code is null}, {@code is "yes", which Spark's JSON source reads as null}. */
    private static String found(String line, String path) {
        JsonNode node = null;
        try {
            node = line == null ? null : JSON.readTree(line);
        } catch (java.io.IOException | RuntimeException e) {
            return "is null in the row Spark's JSON source reads";
        }
        if (node != null && node.isArray() && node.size() > 0) {
            node = node.get(0);
        }
        for (String step : path.replace("[", ".[").split("\\.")) {
            if (node == null) {
                break;
            }
            node = step.startsWith("[") ? node.get(Integer.parseInt(step.substring(1, step.length() - 1)))
                    : node.get(step);
        }
        if (node == null || node.isMissingNode()) {
            return "is missing, which Spark's JSON source reads as null";
        }
        if (node.isNull()) {
            return "is null";
        }
        return "is " + JsonRows.shorten(node.toString(), 60) + " (" + kind(node) + "), which Spark's JSON source reads"
                + " as null";
    }

    private static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case STRING -> "a string";
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case BOOLEAN -> "a boolean";
            case NUMBER -> node.isIntegralNumber() ? "a whole number" : "a number with a fraction";
            default -> "a " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    private static String example(DataType type) {
        if (type instanceof BooleanType) {
            return "true or false";
        }
        if (type instanceof org.apache.spark.sql.types.IntegralType) {
            return "a whole number, e.g. 42";
        }
        if (type instanceof org.apache.spark.sql.types.FractionalType) {
            return "a number, e.g. 1.5";
        }
        return "a " + type.simpleString() + " value";
    }
}
