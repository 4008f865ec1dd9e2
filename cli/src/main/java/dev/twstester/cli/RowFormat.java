package dev.twstester.cli;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;


import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.twstester.io.EncoderRows;
import dev.twstester.io.JsonRows;

/**
 * How rows, keys and state values are shown: rows and keys through the query's encoders as the
 * JSON Spark's JSON sink would write (times in UTC ISO-8601, whatever the JVM's time zone), state
 * values (whose encoders are the processor's own) by their Java type.
 */
final class RowFormat {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = JsonRows.mapper();
    private static final ObjectMapper BEANS = JsonRows.mapper().registerModule(utcTimes());

    private RowFormat() {}

    /** A row or key of {@code codec}'s type as JSON: a struct as an object, a flat value bare. */
    static <T> JsonNode json(T value, EncoderRows<T> codec) {
        try {
            return codec.toJson(value);
        } catch (RuntimeException e) {
            return TextNode.valueOf(String.valueOf(value));
        }
    }

    /** {@link #json} as compact text. */
    static <T> String text(T value, EncoderRows<T> codec) {
        return print(json(value, codec));
    }

    /** A key as text: a string key bare ({@code ana}), anything else as JSON. */
    static <T> String keyText(T key, EncoderRows<T> codec) {
        JsonNode json = json(key, codec);
        return json.isTextual() ? json.textValue() : print(json);
    }

    /** A key of any type, without its codec (an exception's key): a string bare, else {@code toString}. */
    static String anyKeyText(Object key) {
        return key instanceof String s ? s : print(any(key));
    }

    static String print(JsonNode json) {
        try {
            return MAPPER.writeValueAsString(json);
        } catch (JsonProcessingException e) {
            return json.toString();
        }
    }

    /**
     * A state value of any type as JSON: strings, numbers, booleans, times (UTC ISO-8601),
     * collections, maps and arrays as such; beans and records by their properties; anything else
     * by {@code toString()}.
     */
    static JsonNode any(Object v) {
        return any(v, 0);
    }

    private static JsonNode any(Object v, int depth) {
        if (v == null) {
            return NODES.nullNode();
        } else if (depth > 20) {
            return TextNode.valueOf(String.valueOf(v));
        } else if (v instanceof String || v instanceof Character) {
            return TextNode.valueOf(v.toString());
        } else if (v instanceof Boolean b) {
            return NODES.booleanNode(b);
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return NODES.numberNode(((Number) v).longValue());
        } else if (v instanceof BigInteger i) {
            return NODES.numberNode(i);
        } else if (v instanceof BigDecimal d) {
            return NODES.numberNode(d);
        } else if (v instanceof Double d) {
            return Double.isFinite(d) ? NODES.numberNode(d) : TextNode.valueOf(d.toString());
        } else if (v instanceof Float f) {
            return Float.isFinite(f) ? NODES.numberNode(f) : TextNode.valueOf(f.toString());
        } else if (v instanceof java.sql.Date d) {
            return TextNode.valueOf(d.toLocalDate().toString());
        } else if (v instanceof java.sql.Time t) {
            return TextNode.valueOf(t.toLocalTime().toString());
        } else if (v instanceof java.util.Date d) {
            return TextNode.valueOf(DateTimeFormatter.ISO_INSTANT.format(d.toInstant()));
        } else if (v instanceof Instant i) {
            return TextNode.valueOf(DateTimeFormatter.ISO_INSTANT.format(i));
        } else if (v instanceof TemporalAccessor || v instanceof java.time.Duration || v instanceof java.time.Period) {
            return TextNode.valueOf(v.toString());
        } else if (v instanceof byte[] bytes) {
            return TextNode.valueOf(Base64.getEncoder().encodeToString(bytes));
        } else if (v instanceof Optional<?> o) {
            return o.isPresent() ? any(o.get(), depth + 1) : NODES.nullNode();
        } else if (v instanceof Collection<?> c) {
            ArrayNode out = NODES.arrayNode();
            c.forEach(x -> out.add(any(x, depth + 1)));
            return out;
        } else if (v instanceof scala.collection.Iterable<?> s) {
            return any(scala.jdk.javaapi.CollectionConverters.asJavaCollection(s), depth);
        } else if (v instanceof Map<?, ?> m) {
            return map(m, depth);
        } else if (v.getClass().isArray()) {
            ArrayNode out = NODES.arrayNode();
            for (int i = 0; i < Array.getLength(v); i++) {
                out.add(any(Array.get(v, i), depth + 1));
            }
            return out;
        } else if (v instanceof org.apache.spark.sql.Row row) {
            return any(scala.jdk.javaapi.CollectionConverters.asJava(row.toSeq()), depth);
        }
        try {
            JsonNode bean = BEANS.valueToTree(v);
            if (bean.isObject() && bean.isEmpty()) {
                return TextNode.valueOf(v.toString());
            }
            return bean;
        } catch (IllegalArgumentException e) {
            return TextNode.valueOf(String.valueOf(v));
        }
    }

    private static JsonNode map(Map<?, ?> m, int depth) {
        boolean stringKeys = m.keySet().stream().allMatch(k -> k instanceof String);
        if (stringKeys) {
            ObjectNode out = NODES.objectNode();
            m.forEach((k, val) -> out.set((String) k, any(val, depth + 1)));
            return out;
        }
        ArrayNode out = NODES.arrayNode();
        m.forEach((k, val) -> out.add(NODES.arrayNode().add(any(k, depth + 1)).add(any(val, depth + 1))));
        return out;
    }

    /** Jackson serializers that write the time types inside beans as {@link #any} does. */
    private static SimpleModule utcTimes() {
        JsonSerializer<Object> viaAny = new JsonSerializer<>() {
            @Override
            public void serialize(Object value, JsonGenerator gen, SerializerProvider serializers)
                    throws java.io.IOException {
                gen.writeTree(any(value));
            }
        };
        SimpleModule module = new SimpleModule("twstester-utc-times");
        for (Class<?> type : new Class<?>[] {java.util.Date.class, java.sql.Date.class, java.sql.Time.class,
                java.sql.Timestamp.class,
                Instant.class, java.time.LocalDate.class, java.time.LocalDateTime.class, java.time.LocalTime.class,
                java.time.OffsetDateTime.class, java.time.ZonedDateTime.class, java.time.Duration.class,
                java.time.Period.class, Optional.class}) {
            @SuppressWarnings("unchecked")
            Class<Object> t = (Class<Object>) type;
            module.addSerializer(t, viaAny);
        }
        return module;
    }
}
