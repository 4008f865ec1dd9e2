package dev.twstester.internal;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Internal, not API: may change in any release.
 *
 * <p>An {@link Encoder} turned into Spark's row format and back, as the state store and the sink see
 * it. No SparkSession is created.
 *
 * <p>Objects are encoded to the bytes of an {@link UnsafeRow}, the format RocksDB keeps, so a stored
 * value is a copy that later mutation of the object cannot change, and a read returns a new object.
 * Orders that Spark derives from those bytes (timer ties, {@code listTimers()}, MapState iteration)
 * are computed from the same bytes.
 *
 * <p>Two implementations: the native one walks the encoder's {@code AgnosticEncoder} tree and writes
 * the bytes with Spark's {@code UnsafeRowWriter} (no analyzer, no code generation: microseconds to
 * build), for beans, tuples, primitives and their boxes, strings, binary, dates and times, decimals,
 * enums, arrays, lists and maps of them; every other encoder goes through Spark's own encoder
 * (Catalyst: seconds to load in a fresh JVM), {@link #path()} says why. Both give the same bytes,
 * objects and errors. Codecs are shared ({@link #of}) and thread-safe.
 *
 * <p>Public for {@code dev.twstester.sim} (state, keys and outputs), {@code dev.twstester.spark}
 * (the live runner's rows), {@code dev.twstester.io} ({@code EncoderRows}, the public route to it)
 * {@code dev.twstester} ({@code GroupsWithState}'s check of a legacy initial state's encoder) and
 * {@code dev.twstester.report} (the timeline page's and the key-isolation check's rows).
 */
public abstract class RowCodec<T> {
    /**
     * Keyed by the encoder, or for beans by the bean class (hashing a bean encoder's tree costs tens
     * of µs). Shared by all threads: a concurrent map of thread-safe codecs.
     */
    private static final ConcurrentHashMap<Object, RowCodec<?>> SHARED = new ConcurrentHashMap<>();

    /** {@code Encoders.bean(c)} is a function of {@code c} alone, so its class identifies it. */
    private static final class BeanKey {
        private final Class<?> bean;

        BeanKey(Class<?> bean) {
            this.bean = bean;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BeanKey k && k.bean == bean;
        }

        @Override
        public int hashCode() {
            return bean.hashCode();
        }
    }

    private static Object key(Encoder<?> encoder) {
        return encoder instanceof org.apache.spark.sql.catalyst.encoders.AgnosticEncoders.JavaBeanEncoder<?> bean
                ? new BeanKey(bean.clsTag().runtimeClass()) : encoder;
    }

    final Encoder<T> encoder;

    RowCodec(Encoder<T> encoder) {
        this.encoder = encoder;
    }

    /**
     * The shared, thread-safe codec for {@code encoder} (equal encoders, such as two
     * {@code Encoders.bean(C.class)}, share one): native when every part of the encoder is covered,
     * else Spark's encoder. The first call for an encoder builds it; later calls cost a map lookup.
     */
    @SuppressWarnings("unchecked")
    public static <T> RowCodec<T> of(Encoder<T> encoder) {
        Objects.requireNonNull(encoder, "encoder must not be null");
        Object key = key(encoder);
        RowCodec<?> codec = SHARED.get(key);
        if (codec == null) {
            codec = create(encoder);
            RowCodec<?> earlier = SHARED.putIfAbsent(key, codec);
            if (earlier != null) {
                codec = earlier;
            }
        }
        return (RowCodec<T>) codec;
    }

    /** A new codec, not shared: native when covered, else Catalyst. */
    static <T> RowCodec<T> create(Encoder<T> encoder) {
        EncoderPlan.Plan plan = EncoderPlan.of(encoder);
        if (plan.reason() == null) {
            return new NativeCodec<>(encoder, plan);
        }
        return new CatalystCodec<>(encoder, plan.reason());
    }

    /** Whether this codec writes the bytes itself (true) or runs Spark's encoder (Catalyst). */
    public abstract boolean isNative();

    /** "native", or "Catalyst (Spark's encoder): " and the part of the encoder the native path does not cover. */
    public abstract String path();

    public Encoder<T> encoder() {
        return encoder;
    }

    public abstract StructType schema();

    /** The bytes of the UnsafeRow Spark would store for {@code value}; fails as Spark's encoder does. */
    public abstract byte[] encode(T value);

    /** A new object decoded from stored bytes; fails as Spark's encoder does. */
    public abstract T decode(byte[] bytes);

    /** The bytes as an UnsafeRow of {@link #schema()} (no copy). */
    public UnsafeRow row(byte[] bytes) {
        UnsafeRow row = new UnsafeRow(schema().length());
        row.pointTo(bytes, bytes.length);
        return row;
    }

    /**
     * The bytes of a one-column row whose column is this row as a nested struct: the shape in which
     * Spark's RocksDB encoders append a grouping key (timer index) or a map key (MapState) after the
     * prefix, and so the bytes whose unsigned order decides iteration. An UnsafeRow nested in another
     * is copied as it is, after the outer row's 8-byte null bitset and its 8-byte offset-and-size slot.
     */
    public byte[] nestedBytes(byte[] bytes) {
        byte[] outer = new byte[16 + bytes.length];
        long offsetAndSize = (16L << 32) | bytes.length;
        for (int i = 0; i < 8; i++) {
            outer[8 + i] = (byte) (offsetAndSize >>> (8 * i));
        }
        System.arraycopy(bytes, 0, outer, 16, bytes.length);
        return outer;
    }

    /** Spark SQL's ascending order of the encoded columns (nulls first), as the sort before grouping. */
    public abstract int compareNatural(byte[] a, byte[] b);

    /**
     * The shuffle partition of an encoded grouping key among {@code partitions}: Spark's
     * {@code HashPartitioning}, {@code pmod(murmur3(key columns, seed 42), partitions)}.
     */
    public int partition(byte[] bytes, int partitions) {
        UnsafeRow row = row(bytes);
        StructField[] fields = schema().fields();
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
        String[] names = schema().fieldNames();
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
    public abstract boolean isSerializedAsStruct();

    /**
     * {@code value} as the external {@link Row} Spark shows for this encoder's {@link #schema()}: a
     * {@code DataFrame} row, with the default external types ({@code java.sql.Timestamp},
     * {@code java.sql.Date}, Scala {@code Seq} and {@code Map}) unless the session enables the Java 8
     * time API. Fails as Spark's encoder does. Native ({@link ExternalRows}) when this codec is and
     * the schema has only the types {@link ExternalRows} covers; else through Spark's encoders.
     */
    public Row toExternalRow(T value) {
        if (externalRowsNative()) {
            return ExternalRows.toExternal(row(encode(value)), schema());
        }
        return catalyst().toExternalRow(value);
    }

    /**
     * The object this encoder decodes from {@code row}, a row of {@link #schema()} (a memory sink's
     * row, say). Accepts either external type of timestamps and dates, as {@code createDataFrame} does.
     * Native under the same condition as {@link #toExternalRow}.
     */
    public T fromExternalRow(Row row) {
        Objects.requireNonNull(row, "row must not be null");
        if (externalRowsNative()) {
            return decode(ExternalRows.fromExternal(row, schema()));
        }
        return catalyst().fromExternalRow(row);
    }

    /** 0 unknown, 1 native, 2 Catalyst: decided once per codec. */
    private volatile int externalRows;

    private boolean externalRowsNative() {
        int known = externalRows;
        if (known == 0) {
            known = isNative() && ExternalRows.supports(schema()) ? 1 : 2;
            externalRows = known;
        }
        return known == 1;
    }

    /** The Catalyst implementation for the same encoder (this codec itself when it is one). */
    abstract CatalystCodec<T> catalyst();
}
