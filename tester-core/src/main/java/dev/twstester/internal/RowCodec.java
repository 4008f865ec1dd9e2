package dev.twstester.internal;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.encoders.ExpressionEncoder;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.InterpretedOrdering$;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import scala.jdk.javaapi.CollectionConverters;

/**
 * Internal, not API: may change in any release.
 *
 * <p>The one place that uses Spark's encoder internals: an {@link Encoder} turned into Spark's row format and
 * back, as the state store and the sink see it. No SparkSession is created.
 *
 * <p>Objects are encoded to the bytes of an {@link UnsafeRow}, the format RocksDB keeps, so a
 * stored value is a copy that later mutation of the object cannot change, and a read returns a
 * new object. Orders that Spark derives from those bytes (timer ties, {@code listTimers()},
 * MapState iteration) are computed from the same bytes.
 */
public final class RowCodec<T> {
    private final Encoder<T> encoder;
    private final ExpressionEncoder<T> resolved;
    private final ExpressionEncoder.Serializer<T> serializer;
    private final ExpressionEncoder.Deserializer<T> deserializer;
    private final UnsafeProjection toUnsafe;
    private final StructType schema;
    private final UnsafeProjection nested;
    private Comparator<InternalRow> ordering;
    private ExpressionEncoder.Serializer<Row> rowSerializer;
    private ExpressionEncoder.Deserializer<Row> rowDeserializer;

    /** Resolving runs Spark's analyzer (the costly part); resolved encoders are immutable and shared. */
    private static final Map<Encoder<?>, ExpressionEncoder<?>> RESOLVED = new ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    private RowCodec(Encoder<T> encoder) {
        this.encoder = encoder;
        this.resolved = (ExpressionEncoder<T>) RESOLVED.computeIfAbsent(encoder, e -> {
            ExpressionEncoder<?> expression = org.apache.spark.sql.catalyst.encoders.package$.MODULE$.encoderFor(e);
            return expression.resolveAndBind(expression.resolveAndBind$default$1(), expression.resolveAndBind$default$2());
        });
        this.serializer = resolved.createSerializer();
        this.deserializer = resolved.createDeserializer();
        this.schema = resolved.schema();
        this.toUnsafe = UnsafeProjection.create(schema);
        this.nested = UnsafeProjection.create(
                new StructType(new StructField[] {new StructField("nested", schema, true,
                        org.apache.spark.sql.types.Metadata.empty())}));
    }

    /** A new codec of its own (not thread-safe: Spark's serializer reuses one row buffer). */
    public static <T> RowCodec<T> of(Encoder<T> encoder) {
        Objects.requireNonNull(encoder, "encoder must not be null");
        return new RowCodec<>(encoder);
    }

    /** One codec per thread and encoder, kept for the thread's life. */
    private static final ThreadLocal<Map<Encoder<?>, RowCodec<?>>> PER_THREAD = ThreadLocal.withInitial(HashMap::new);

    /**
     * The calling thread's codec for {@code encoder}, shared by every caller on that thread. Creating
     * a codec makes Spark generate its projections' source again (milliseconds per encoder), so
     * simulators created one after another reuse one. Use it only on the calling thread.
     */
    @SuppressWarnings("unchecked")
    public static <T> RowCodec<T> forThisThread(Encoder<T> encoder) {
        Objects.requireNonNull(encoder, "encoder must not be null");
        return (RowCodec<T>) PER_THREAD.get().computeIfAbsent(encoder, RowCodec::new);
    }

    public Encoder<T> encoder() {
        return encoder;
    }

    public StructType schema() {
        return schema;
    }

    /** The bytes of the UnsafeRow Spark would store for {@code value}; fails as Spark's encoder does. */
    public byte[] encode(T value) {
        InternalRow row = serializer.apply(value);
        UnsafeRow unsafe = row instanceof UnsafeRow u ? u : toUnsafe.apply(row);
        return unsafe.copy().getBytes();
    }

    /** A new object decoded from stored bytes. */
    public T decode(byte[] bytes) {
        return deserializer.apply(row(bytes));
    }

    public UnsafeRow row(byte[] bytes) {
        UnsafeRow row = new UnsafeRow(schema.length());
        row.pointTo(bytes, bytes.length);
        return row;
    }

    /**
     * The bytes of a one-column row whose column is this row as a nested struct: the shape in
     * which Spark's RocksDB encoders append a grouping key (timer index) or a map key (MapState)
     * after the prefix, and so the bytes whose unsigned order decides iteration.
     */
    public byte[] nestedBytes(byte[] bytes) {
        GenericInternalRow outer = new GenericInternalRow(new Object[] {row(bytes)});
        return nested.apply(outer).copy().getBytes();
    }

    /** Spark SQL's ascending order of the encoded columns (nulls first), as the sort before grouping. */
    public int compareNatural(byte[] a, byte[] b) {
        if (ordering == null) {
            DataType[] types = Arrays.stream(schema.fields()).map(StructField::dataType).toArray(DataType[]::new);
            ordering = InterpretedOrdering$.MODULE$.forSchema(
                    CollectionConverters.asScala(Arrays.asList(types)).toSeq());
        }
        return ordering.compare(row(a), row(b));
    }

    /**
     * The shuffle partition of an encoded grouping key among {@code partitions}: Spark's
     * {@code HashPartitioning}, {@code pmod(murmur3(key columns, seed 42), partitions)}.
     */
    public int partition(byte[] bytes, int partitions) {
        UnsafeRow row = row(bytes);
        StructField[] fields = schema.fields();
        int hash = HASH_SEED;
        for (int i = 0; i < fields.length; i++) {
            DataType type = fields[i].dataType();
            hash = hashColumn(row.isNullAt(i) ? null : row.get(i, type), type, hash);
        }
        return Math.floorMod(hash, partitions);
    }

    /** The seed of Spark's {@code Murmur3Hash} expression, as {@code hash()} and hash partitioning use it. */
    public static final int HASH_SEED = 42;

    /** One column's step of Spark's {@code Murmur3Hash}: {@code value} in Catalyst's internal form. */
    public static int hashColumn(Object value, DataType type, int seed) {
        return (int) org.apache.spark.sql.catalyst.expressions.Murmur3HashFunction.hash(value, type, seed);
    }

    /** Index of a top-level column, or -1. */
    public int fieldIndex(String column) {
        String[] names = schema.fieldNames();
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(column)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether Spark writes a value as a struct of its fields (beans, tuples, case classes), rather
     * than as the single column {@code value} of a flat encoder such as {@code Encoders.STRING()}.
     */
    public boolean isSerializedAsStruct() {
        return resolved.isSerializedAsStructForTopLevel();
    }

    /**
     * {@code value} as the external {@link Row} Spark shows for this encoder's {@link #schema()}: a
     * {@code DataFrame} row, with the default external types ({@code java.sql.Timestamp},
     * {@code java.sql.Date}, Scala {@code Seq} and {@code Map}) unless the session enables the Java 8
     * time API. Fails as Spark's encoder does.
     */
    public Row toExternalRow(T value) {
        rowCodecs();
        return rowDeserializer.apply(serializer.apply(value));
    }

    /**
     * The object this encoder decodes from {@code row}, a row of {@link #schema()} (a memory sink's
     * row, say). Accepts either external type of timestamps and dates, as {@code createDataFrame} does.
     */
    public T fromExternalRow(Row row) {
        Objects.requireNonNull(row, "row must not be null");
        rowCodecs();
        return deserializer.apply(rowSerializer.apply(row));
    }

    /** Lenient, so rows holding {@code java.time} values encode too; built once per codec. */
    private void rowCodecs() {
        if (rowSerializer == null) {
            ExpressionEncoder<Row> rows = ExpressionEncoder.apply(schema, true);
            ExpressionEncoder<Row> bound = rows.resolveAndBind(rows.resolveAndBind$default$1(), rows.resolveAndBind$default$2());
            rowDeserializer = bound.createDeserializer();
            rowSerializer = bound.createSerializer();
        }
    }
}
