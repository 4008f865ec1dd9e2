package dev.twstester.internal;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.encoders.ExpressionEncoder;
import org.apache.spark.sql.catalyst.expressions.InterpretedOrdering$;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import scala.jdk.javaapi.CollectionConverters;

/**
 * A codec through Spark's own encoder: {@code ExpressionEncoder.resolveAndBind} (the analyzer) and its
 * generated serializer, deserializer and {@code UnsafeProjection}. Spark's serializer reuses one row
 * buffer, so each thread gets its own (built on the thread's first use); the resolved encoder is shared.
 */
final class CatalystCodec<T> extends RowCodec<T> {
    /**
     * Resolving runs Spark's analyzer (the costly part); resolved encoders are immutable and shared
     * by all threads through this concurrent map (each thread gets its own serializer from them).
     */
    private static final Map<Encoder<?>, ExpressionEncoder<?>> RESOLVED = new ConcurrentHashMap<>();

    private final String reason;
    private final ExpressionEncoder<T> resolved;
    private final StructType schema;
    private final ThreadLocal<PerThread<T>> perThread;
    private volatile Comparator<InternalRow> ordering;

    private static final class PerThread<T> {
        final ExpressionEncoder.Serializer<T> serializer;
        final ExpressionEncoder.Deserializer<T> deserializer;
        final UnsafeProjection toUnsafe;
        ExpressionEncoder.Serializer<Row> rowSerializer;
        ExpressionEncoder.Deserializer<Row> rowDeserializer;

        PerThread(ExpressionEncoder<T> resolved, StructType schema) {
            serializer = resolved.createSerializer();
            deserializer = resolved.createDeserializer();
            toUnsafe = UnsafeProjection.create(schema);
        }
    }

    @SuppressWarnings("unchecked")
    CatalystCodec(Encoder<T> encoder, String reason) {
        super(encoder);
        this.reason = reason;
        SparkLogs.simulator(); // the analyzer and the code generator log
        this.resolved = (ExpressionEncoder<T>) RESOLVED.computeIfAbsent(encoder, e -> {
            ExpressionEncoder<?> expression = org.apache.spark.sql.catalyst.encoders.package$.MODULE$.encoderFor(e);
            return expression.resolveAndBind(expression.resolveAndBind$default$1(), expression.resolveAndBind$default$2());
        });
        this.schema = resolved.schema();
        this.perThread = ThreadLocal.withInitial(() -> new PerThread<>(resolved, schema));
        perThread.get();
    }

    @Override
    public boolean isNative() {
        return false;
    }

    @Override
    public String path() {
        return "Catalyst (Spark's encoder): " + reason;
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public byte[] encode(T value) {
        PerThread<T> p = perThread.get();
        InternalRow row = p.serializer.apply(value);
        UnsafeRow unsafe = row instanceof UnsafeRow u ? u : p.toUnsafe.apply(row);
        return unsafe.copy().getBytes();
    }

    @Override
    public T decode(byte[] bytes) {
        return perThread.get().deserializer.apply(row(bytes));
    }

    @Override
    public int compareNatural(byte[] a, byte[] b) {
        return ordering().compare(row(a), row(b));
    }

    private Comparator<InternalRow> ordering() {
        Comparator<InternalRow> o = ordering;
        if (o == null) {
            o = interpretedOrdering(schema);
            ordering = o;
        }
        return o;
    }

    /** Spark's {@code InterpretedOrdering} of a schema's columns, ascending, nulls first. */
    static Comparator<InternalRow> interpretedOrdering(StructType schema) {
        DataType[] types = Arrays.stream(schema.fields()).map(StructField::dataType).toArray(DataType[]::new);
        return InterpretedOrdering$.MODULE$.forSchema(CollectionConverters.asScala(Arrays.asList(types)).toSeq());
    }

    @Override
    public boolean isSerializedAsStruct() {
        return resolved.isSerializedAsStructForTopLevel();
    }

    @Override
    public Row toExternalRow(T value) {
        PerThread<T> p = rowCodecs();
        return p.rowDeserializer.apply(p.serializer.apply(value));
    }

    @Override
    public T fromExternalRow(Row row) {
        PerThread<T> p = rowCodecs();
        return p.deserializer.apply(p.rowSerializer.apply(row));
    }

    @Override
    CatalystCodec<T> catalyst() {
        return this;
    }

    /** Lenient, so rows holding {@code java.time} values encode too; built once per thread. */
    private PerThread<T> rowCodecs() {
        PerThread<T> p = perThread.get();
        if (p.rowSerializer == null) {
            ExpressionEncoder<Row> rows = ExpressionEncoder.apply(schema, true);
            ExpressionEncoder<Row> bound = rows.resolveAndBind(rows.resolveAndBind$default$1(), rows.resolveAndBind$default$2());
            p.rowDeserializer = bound.createDeserializer();
            p.rowSerializer = bound.createSerializer();
        }
        return p;
    }
}
