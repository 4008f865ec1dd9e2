package dev.twstester.io;

import java.util.Comparator;
import java.util.Objects;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import com.fasterxml.jackson.databind.JsonNode;

import dev.twstester.internal.RowCodec;

/**
 * The values of one Spark {@link Encoder}'s type as Spark shows them: {@code DataFrame} rows, the
 * JSON of {@link JsonRows}, and Spark SQL's sort order. It goes through the same encoding the
 * simulator stores state with (native for beans, tuples, primitives, strings, times, collections;
 * Spark's own encoder otherwise), with no SparkSession.
 *
 * <pre>{@code
 * EncoderRows<CartEvent> events = EncoderRows.of(Encoders.bean(CartEvent.class));
 * JsonNode json = events.toJson(event);          // {"itemId":"boots","ts":"2024-05-01T10:00:00Z","userId":"ana"}
 * CartEvent back = events.fromJson(json);         // equal to event
 * Row row = events.toRow(event);                  // the DataFrame row of events.schema()
 * }</pre>
 *
 * A value whose encoder writes a struct (beans, tuples) is a JSON object of its columns; a value of
 * a flat encoder ({@code Encoders.STRING()}, {@code Encoders.LONG()}) is the bare JSON value of its
 * single column {@code value}. Instances are cheap (a lookup of a shared codec) and thread-safe.
 *
 * @param <T> the encoder's type
 */
public final class EncoderRows<T> {
    private final RowCodec<T> codec;

    private EncoderRows(RowCodec<T> codec) {
        this.codec = codec;
    }

    /** The rows of {@code encoder}'s type; the first call for an encoder builds its codec. */
    public static <T> EncoderRows<T> of(Encoder<T> encoder) {
        return new EncoderRows<>(RowCodec.of(Objects.requireNonNull(encoder, "encoder must not be null")));
    }

    /** The encoder these rows are of. */
    public Encoder<T> encoder() {
        return codec.encoder();
    }

    /** The schema Spark gives a {@code Dataset} of this encoder's type. */
    public StructType schema() {
        return codec.schema();
    }

    /**
     * Whether a value is written as a struct of its fields (beans, tuples, case classes), rather
     * than as the single column {@code value} of a flat encoder such as {@code Encoders.STRING()}.
     */
    public boolean isStruct() {
        return codec.isSerializedAsStruct();
    }

    /** The index of the top-level column {@code name} in {@link #schema()}, or -1 when there is none. */
    public int columnIndex(String name) {
        return codec.fieldIndex(Objects.requireNonNull(name, "name must not be null"));
    }

    /**
     * {@code value} as the external {@link Row} of {@link #schema()} that a {@code DataFrame} shows
     * ({@code java.sql.Timestamp}, {@code java.sql.Date}, Scala {@code Seq} and {@code Map}); fails
     * as Spark's encoder does (e.g. a null in a primitive column).
     */
    public Row toRow(T value) {
        return codec.toExternalRow(value);
    }

    /**
     * The object decoded from {@code row}, a row of {@link #schema()} (a memory sink's row, or one
     * {@link JsonRows#fromJson} read); either external type of timestamps and dates is accepted.
     */
    public T fromRow(Row row) {
        return codec.fromExternalRow(Objects.requireNonNull(row, "row must not be null"));
    }

    /** {@code value} as JSON: a struct as an object of its columns ({@link JsonRows#toJson}), a flat value bare. */
    public JsonNode toJson(T value) {
        Row row = toRow(value);
        if (isStruct()) {
            return JsonRows.toJson(row, schema());
        }
        StructField column = schema().fields()[0];
        return JsonRows.valueToJson(row.get(0), column.dataType(), column.name());
    }

    /**
     * The value {@link #toJson} wrote. Throws {@link IllegalArgumentException} naming the field and
     * the value when the JSON does not fit the schema (see {@link JsonRows}).
     */
    public T fromJson(JsonNode json) {
        Objects.requireNonNull(json, "json must not be null");
        if (isStruct()) {
            return fromRow(JsonRows.fromJson(json, schema()));
        }
        StructField column = schema().fields()[0];
        return fromRow(RowFactory.create(JsonRows.valueFromJson(json, column.dataType(), column.name())));
    }

    /**
     * The bytes of the {@code UnsafeRow} Spark's state store keeps for {@code value} (a new array):
     * values Spark treats as the same key have equal bytes, whether or not the class has
     * {@code equals}. Fails as Spark's encoder does.
     */
    public byte[] encode(T value) {
        return codec.encode(value);
    }

    /**
     * Spark SQL's ascending order of the encoded columns, nulls first, on bytes from {@link #encode}:
     * the order in which a sort by this type's columns puts values, e.g. the key order of
     * {@code groupByKey} before {@code transformWithState}.
     */
    public int compareEncoded(byte[] a, byte[] b) {
        return codec.compareNatural(Objects.requireNonNull(a, "a must not be null"),
                Objects.requireNonNull(b, "b must not be null"));
    }

    /** {@link #compareEncoded} on values: encodes both values on each comparison. */
    public Comparator<T> order() {
        return (a, b) -> codec.compareNatural(codec.encode(a), codec.encode(b));
    }

    @Override
    public String toString() {
        return "EncoderRows of " + schema().simpleString();
    }
}
