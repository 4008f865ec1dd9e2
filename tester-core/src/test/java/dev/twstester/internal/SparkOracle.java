package dev.twstester.internal;

import java.util.Arrays;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.encoders.ExpressionEncoder;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.InterpretedOrdering;
import org.apache.spark.sql.catalyst.expressions.InterpretedOrdering$;
import org.apache.spark.sql.catalyst.expressions.Murmur3HashFunction;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark's own encoder for one {@link Encoder}, built here directly and not through {@link RowCodec}: the
 * analyzer-resolved {@link ExpressionEncoder}, its serializer and deserializer, {@link UnsafeProjection}
 * for the bytes (and for the nested-struct bytes of a RocksDB key), {@code InterpretedOrdering} for the order and {@code Murmur3HashFunction} for the
 * shuffle partition. Not thread-safe (Spark's serializer reuses its row).
 */
final class SparkOracle<T> {
    final StructType schema;
    private final ExpressionEncoder.Serializer<T> serializer;
    private final ExpressionEncoder.Deserializer<T> deserializer;
    private final UnsafeProjection toUnsafe;
    private UnsafeProjection nested;
    private final InterpretedOrdering ordering;
    private final DataType[] types;

    SparkOracle(Encoder<T> encoder) {
        ExpressionEncoder<T> expression = org.apache.spark.sql.catalyst.encoders.package$.MODULE$.encoderFor(encoder);
        ExpressionEncoder<T> resolved =
                expression.resolveAndBind(expression.resolveAndBind$default$1(), expression.resolveAndBind$default$2());
        serializer = resolved.createSerializer();
        deserializer = resolved.createDeserializer();
        schema = resolved.schema();
        toUnsafe = UnsafeProjection.create(schema);
        types = Arrays.stream(schema.fields()).map(StructField::dataType).toArray(DataType[]::new);
        ordering = orderable(schema)
                ? InterpretedOrdering$.MODULE$.forSchema(CollectionConverters.asScala(Arrays.asList(types)).toSeq())
                : null;
    }

    /** Spark's bytes for {@code value} (a copy: the serializer reuses its buffer); throws what Spark throws. */
    byte[] encode(T value) {
        InternalRow row = serializer.apply(value);
        UnsafeRow unsafe = row instanceof UnsafeRow u ? u : toUnsafe.apply(row);
        return unsafe.copy().getBytes();
    }

    T decode(byte[] bytes) {
        return deserializer.apply(row(bytes));
    }

    UnsafeRow row(byte[] bytes) {
        UnsafeRow row = new UnsafeRow(schema.length());
        row.pointTo(bytes, bytes.length);
        return row;
    }

    /**
     * The bytes of a one-column row holding this row as a struct: how Spark's RocksDB encoders append a
     * grouping key (timer index) or a MapState user key after the prefix.
     */
    byte[] nestedBytes(byte[] bytes) {
        if (nested == null) {
            nested = UnsafeProjection.create(new StructType(new StructField[] {
                    new StructField("nested", schema, true, Metadata.empty())}));
        }
        return nested.apply(new GenericInternalRow(new Object[] {row(bytes)})).copy().getBytes();
    }

    /** Whether Spark can sort and group by these columns (no map anywhere). */
    boolean orderable() {
        return ordering != null;
    }

    int compare(byte[] a, byte[] b) {
        return ordering.compare(row(a), row(b));
    }

    /** {@code pmod(murmur3(columns, 42), partitions)}, Spark's {@code HashPartitioning} of a grouping key. */
    int partition(byte[] bytes, int partitions) {
        UnsafeRow row = row(bytes);
        long hash = 42;
        for (int i = 0; i < types.length; i++) {
            hash = (int) Murmur3HashFunction.hash(row.isNullAt(i) ? null : row.get(i, types[i]), types[i], hash);
        }
        return Math.floorMod((int) hash, partitions);
    }

    private static boolean orderable(DataType type) {
        if (type instanceof MapType) {
            return false;
        }
        if (type instanceof ArrayType array) {
            return orderable(array.elementType());
        }
        if (type instanceof StructType struct) {
            return Arrays.stream(struct.fields()).allMatch(f -> orderable(f.dataType()));
        }
        return true;
    }
}
