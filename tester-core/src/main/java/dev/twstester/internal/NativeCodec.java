package dev.twstester.internal;

import java.util.Comparator;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;

/**
 * The native codec: the encoder's {@link EncoderPlan} maps its Java objects to the values of Spark's row
 * layout ({@link JavaValues}) as {@code SerializerBuildHelper} / {@code DeserializerBuildHelper} convert
 * them, and the row's {@link Layout} writes, reads, hashes and orders them as
 * {@code GenerateUnsafeProjection}, {@code UnsafeRow}, {@code Murmur3Hash} and {@code InterpretedOrdering}
 * do. Flat strings and boxed integers take a hand-written fast path ({@link FlatRow}, the same bytes).
 * Thread-safe.
 */
final class NativeCodec<T> extends RowCodec<T> {
    private final JavaValues<?> root;
    private final boolean struct;
    private final StructType schema;
    /** The top-level row: the root's struct, or one column holding the root's value. */
    private final StructLayout row;
    private final FlatRow flat;
    private final boolean orderable;
    /** The encoder's class, as its errors name it. */
    private final String description;
    private volatile CatalystCodec<T> catalyst;
    private volatile Comparator<InternalRow> interpreted;

    NativeCodec(Encoder<T> encoder, EncoderPlan.Plan plan) {
        super(encoder);
        this.root = plan.root();
        this.struct = plan.struct();
        this.schema = encoder.schema();
        this.row = struct ? (StructLayout) root.layout : new StructLayout(schema, new Layout[] {root.layout});
        this.flat = struct ? null : FlatRow.of(root);
        this.orderable = row.orderable();
        this.description = encoder.clsTag().runtimeClass().getName();
    }

    /** The hand-written fast path, or null. */
    FlatRow flat() {
        return flat;
    }

    @Override
    public boolean isNative() {
        return true;
    }

    @Override
    public String path() {
        return "native";
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public boolean isSerializedAsStruct() {
        return struct;
    }

    @Override
    public byte[] encode(T value) {
        try {
            if (flat != null) {
                return flat.encode(value);
            }
            if (struct) {
                if (value == null) {
                    throw CodecErrors.notNull("top level Product or row object");
                }
                return row.toBytes((JavaStructs) root, value);
            }
            // a null given to a primitive encoder (Encoders.scalaInt()...): Spark's generated code unboxes it to 0;
            // a null Option is None
            Object ofNull = root instanceof ScalaValues.Optional<?> ? null : root.nullValue();
            return row.toBytes(new Object[] {value == null ? ofNull : root.toInternal(value)});
        } catch (RuntimeException | Error e) {
            throw CodecErrors.encodingFailed("native serializer of " + description, e);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public T decode(byte[] bytes) {
        try {
            if (flat != null) {
                return (T) flat.decode(bytes);
            }
            UnsafeRow unsafe = row(bytes);
            if (struct) {
                return (T) ((JavaStructs) root).fromRow(unsafe);
            }
            return (T) (unsafe.isNullAt(0) ? root.nullValue() : root.read(unsafe, 0));
        } catch (RuntimeException | Error e) {
            throw CodecErrors.decodingFailed("native deserializer of " + description, e);
        }
    }

    @Override
    public int compareNatural(byte[] a, byte[] b) {
        if (flat != null) {
            return flat.compare(a, b);
        }
        if (orderable) {
            return row.compareFields(row(a), row(b));
        }
        Comparator<InternalRow> o = interpreted;
        if (o == null) {
            o = CatalystCodec.interpretedOrdering(schema);
            interpreted = o;
        }
        return o.compare(row(a), row(b));
    }

    @Override
    public int partition(byte[] bytes, int partitions) {
        if (flat != null) {
            return flat.partition(bytes, partitions);
        }
        return Math.floorMod(row.hashFields(row(bytes), HASH_SEED), partitions);
    }

    @Override
    CatalystCodec<T> catalyst() {
        CatalystCodec<T> c = catalyst;
        if (c == null) {
            c = new CatalystCodec<>(encoder, "external rows");
            catalyst = c;
        }
        return c;
    }
}
