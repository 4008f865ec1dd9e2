package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

import dev.twstester.internal.PropBeans.ArraysBean;
import dev.twstester.internal.PropBeans.BigIntegerBean;
import dev.twstester.internal.PropBeans.ChildBean;
import dev.twstester.internal.PropBeans.CollectionsBean;
import dev.twstester.internal.PropBeans.Color;
import dev.twstester.internal.PropBeans.EnumBean;
import dev.twstester.internal.PropBeans.FlatBean;
import dev.twstester.internal.PropBeans.InnerBean;
import dev.twstester.internal.PropBeans.KeyBean;
import dev.twstester.internal.PropBeans.LeafBean;
import dev.twstester.internal.PropBeans.NestedBean;

import scala.Tuple2;
import scala.Tuple3;

/**
 * {@link RowCodec}'s native path against Spark's own encoder ({@link SparkOracle}), one property per
 * encoder shape, {@value #DEFAULT_VALUES} generated values each (or {@code -Dtwstester.codec.values}). For every
 * value: the same UnsafeRow bytes, or the same failure (exception class and error class, outer and cause);
 * the same decoded object ({@link DeepCompare}); the same {@code nestedBytes} (a RocksDB key's struct); for
 * shapes Spark can group by, the sign of {@code compareNatural} against another value and
 * {@code partition(bytes, n)}. Every shape must be on the native path.
 *
 * <p>The base seed is random and printed; {@code -Dtwstester.seed=N} reruns it (each shape derives its
 * own seed from the base seed and its name, so a single test method reruns alone).
 */
class NativeCodecPropertyTest {

    static final int DEFAULT_VALUES = 10_000;
    private static final int VALUES = Integer.getInteger("twstester.codec.values", DEFAULT_VALUES);
    private static final long BASE_SEED;

    static {
        String fixed = System.getProperty("twstester.seed");
        BASE_SEED = fixed != null && !fixed.isBlank() ? Long.parseLong(fixed.trim()) : new SplittableRandom().nextLong();
        System.out.println("NativeCodecPropertyTest: base seed " + BASE_SEED + " (rerun with -Dtwstester.seed=" + BASE_SEED + ")");
    }

    // ---- primitives (Spark's scala* encoders) and their boxes ----

    @Test
    void primitive_boolean() {
        property("primitive boolean", Encoders.scalaBoolean(), g -> primitive(g, g::bool));
    }

    @Test
    void primitive_byte() {
        property("primitive byte", Encoders.scalaByte(), g -> primitive(g, g::byteValue));
    }

    @Test
    void primitive_short() {
        property("primitive short", Encoders.scalaShort(), g -> primitive(g, g::shortValue));
    }

    @Test
    void primitive_int() {
        property("primitive int", Encoders.scalaInt(), g -> primitive(g, g::intValue));
    }

    @Test
    void primitive_long() {
        property("primitive long", Encoders.scalaLong(), g -> primitive(g, g::longValue));
    }

    @Test
    void primitive_float() {
        property("primitive float", Encoders.scalaFloat(), g -> primitive(g, g::floatValue));
    }

    @Test
    void primitive_double() {
        property("primitive double", Encoders.scalaDouble(), g -> primitive(g, g::doubleValue));
    }

    @Test
    void boxed_boolean() {
        property("Boolean", Encoders.BOOLEAN(), g -> g.nullable(g::bool));
    }

    @Test
    void boxed_byte() {
        property("Byte", Encoders.BYTE(), g -> g.nullable(g::byteValue));
    }

    @Test
    void boxed_short() {
        property("Short", Encoders.SHORT(), g -> g.nullable(g::shortValue));
    }

    @Test
    void boxed_int() {
        property("Integer", Encoders.INT(), g -> g.nullable(g::intValue));
    }

    @Test
    void boxed_long() {
        Function<Gen, Object> longsAndSomeInts = g -> g.chance(0.005) ? (Object) g.intValue() : g.nullable(g::longValue);
        property("Long", Encoders.LONG(), wrongType(longsAndSomeInts));
    }

    @Test
    void boxed_float() {
        property("Float", Encoders.FLOAT(), g -> g.nullable(g::floatValue));
    }

    @Test
    void boxed_double() {
        property("Double", Encoders.DOUBLE(), g -> g.nullable(g::doubleValue));
    }

    // ---- other atomic encoders ----

    @Test
    void string() {
        property("String", Encoders.STRING(), g -> g.nullable(g::string));
    }

    @Test
    void binary() {
        property("byte[]", Encoders.BINARY(), g -> g.nullable(g::binary));
    }

    @Test
    void timestamp() {
        property("Timestamp", Encoders.TIMESTAMP(), g -> g.nullable(g::timestamp));
    }

    @Test
    void instant() {
        property("Instant", Encoders.INSTANT(), g -> g.nullable(g::instant));
    }

    @Test
    void sql_date() {
        property("java.sql.Date", Encoders.DATE(), g -> g.nullable(g::date));
    }

    @Test
    void local_date() {
        property("LocalDate", Encoders.LOCALDATE(), g -> g.nullable(g::localDate));
    }

    @Test
    void local_date_time() {
        property("LocalDateTime", Encoders.LOCALDATETIME(), g -> g.nullable(g::localDateTime));
    }

    @Test
    void big_decimal() {
        property("BigDecimal", Encoders.DECIMAL(), g -> g.nullable(g::decimal));
    }

    // ---- beans ----

    @Test
    void big_integer_in_a_bean() {
        property("BigIntegerBean", Encoders.bean(BigIntegerBean.class), g -> topLevel(g, () -> {
            BigIntegerBean b = new BigIntegerBean();
            b.setValue(g.nullable(g::bigInteger));
            b.setId(g.longValue());
            return b;
        }));
    }

    @Test
    void enum_in_a_bean() {
        property("EnumBean", Encoders.bean(EnumBean.class), g -> topLevel(g, () -> {
            EnumBean b = new EnumBean();
            b.setColor(g.nullable(() -> color(g)));
            b.setLabel(g.nullable(g::string));
            b.setRank(g.intValue());
            return b;
        }));
    }

    @Test
    void bean_with_inherited_properties() {
        property("ChildBean", Encoders.bean(ChildBean.class), g -> topLevel(g, () -> {
            ChildBean b = new ChildBean();
            b.setName(g.nullable(() -> g.chance(0.5) ? g.oneOf("a", "b", "") : g.string()));
            b.setId(g.chance(0.5) ? g.between(0L, 2L) : g.longValue());
            b.setN(g.nullable(() -> g.chance(0.5) ? g.between(0, 2) : g.intValue()));
            b.setExtra(g.nullable(g::string));
            return b;
        }));
    }

    @Test
    void flat_bean() {
        property("FlatBean", Encoders.bean(FlatBean.class), g -> topLevel(g, () -> flat(g)));
    }

    @Test
    void arrays_in_a_bean() {
        property("ArraysBean", Encoders.bean(ArraysBean.class), 0.005, g -> topLevel(g, () -> arrays(g)));
    }

    @Test
    void lists_and_maps_in_a_bean() {
        property("CollectionsBean", Encoders.bean(CollectionsBean.class), 0.005, g -> topLevel(g, () -> collections(g)));
    }

    @Test
    void nested_bean() {
        property("NestedBean", Encoders.bean(NestedBean.class), 0.005, g -> topLevel(g, () -> nested(g)));
    }

    // ---- tuples ----

    @Test
    void tuple_of_two() {
        property("Tuple2<String, Long>", Encoders.tuple(Encoders.STRING(), Encoders.LONG()),
                g -> topLevel(g, () -> new Tuple2<>(g.nullable(g::string), g.nullable(g::longValue))));
    }

    @Test
    void tuple_of_three() {
        property("Tuple3<int, String, Double>", Encoders.tuple(Encoders.scalaInt(), Encoders.STRING(), Encoders.DOUBLE()),
                g -> topLevel(g, () -> new Tuple3<>(primitive(g, g::intValue), g.nullable(g::string), g.nullable(g::doubleValue))));
    }

    @Test
    void tuple_with_a_bean() {
        property("Tuple2<String, KeyBean>", Encoders.tuple(Encoders.STRING(), Encoders.bean(KeyBean.class)),
                g -> topLevel(g, () -> new Tuple2<>(g.nullable(g::string), g.nullable(() -> key(g)))));
    }

    @Test
    void tuple_of_three_with_beans_and_a_tuple() {
        property("Tuple3<Tuple2<Integer, String>, InnerBean, LeafBean>",
                Encoders.tuple(Encoders.tuple(Encoders.INT(), Encoders.STRING()), Encoders.bean(InnerBean.class),
                        Encoders.bean(LeafBean.class)),
                g -> topLevel(g, () -> new Tuple3<>(
                        g.nullable(() -> new Tuple2<>(g.nullable(g::intValue), g.nullable(g::string))),
                        g.nullable(() -> inner(g)), g.nullable(() -> leaf(g)))));
    }

    // ---- external Rows (JSON files, the CLI, the live runner's sink) through the native path ----

    /**
     * {@code toExternalRow} / {@code fromExternalRow} of a native codec ({@link ExternalRows} over the
     * native bytes) give the same {@code Row}s and objects as Spark's encoders, for beans with every field
     * type, collections and nesting.
     */
    @Test
    void external_rows_of_native_codecs_match_spark() {
        externalRows("FlatBean", Encoders.bean(FlatBean.class), g -> flat(g));
        externalRows("CollectionsBean", Encoders.bean(CollectionsBean.class), g -> collections(g));
        externalRows("NestedBean", Encoders.bean(NestedBean.class), g -> nested(g));
        externalRows("Tuple2<String, KeyBean>", Encoders.tuple(Encoders.STRING(), Encoders.bean(KeyBean.class)),
                g -> new Tuple2<>(g.nullable(g::string), g.nullable(() -> key(g))));
    }

    private static <T> void externalRows(String shape, Encoder<T> encoder, Function<Gen, T> generator) {
        RowCodec<T> codec = RowCodec.of(encoder);
        CatalystCodec<T> spark = codec.catalyst();
        assertThat(codec.isNative()).as("isNative() of %s", shape).isTrue();
        Gen g = new Gen(seedOf("external " + shape));
        int compared = 0;
        for (int i = 0; i < 1_000; i++) {
            T value = generator.apply(g);
            org.apache.spark.sql.Row expected;
            try {
                expected = spark.toExternalRow(value);
            } catch (RuntimeException e) {
                continue;   // values Spark cannot encode are the encode property's job
            }
            org.apache.spark.sql.Row actual = codec.toExternalRow(value);
            assertThat(canonical(actual)).as("%s #%d (seed %d): toExternalRow(%s)", shape, i, BASE_SEED, value)
                    .isEqualTo(canonical(expected));
            assertThat(DeepCompare.diff(spark.fromExternalRow(expected), codec.fromExternalRow(expected)))
                    .as("%s #%d (seed %d): fromExternalRow(%s)", shape, i, BASE_SEED, expected).isNull();
            compared++;
        }
        assertThat(compared).as("values of %s Spark could encode", shape).isGreaterThan(500);
    }

    /** A Row's content with its classes, comparable by equals (Row.equals compares byte[] by reference). */
    private static Object canonical(Object value) {
        if (value instanceof org.apache.spark.sql.Row row) {
            List<Object> fields = new ArrayList<>();
            fields.add(row.getClass().getName() + " " + row.schema());
            for (int i = 0; i < row.length(); i++) {
                fields.add(canonical(row.get(i)));
            }
            return fields;
        }
        if (value instanceof byte[] bytes) {
            return "byte[]" + Arrays.toString(bytes);
        }
        if (value instanceof scala.collection.Map<?, ?> map) {
            Map<Object, Object> entries = new java.util.LinkedHashMap<>();
            entries.put("class", map.getClass().getName());
            scala.jdk.javaapi.CollectionConverters.asJava(map).forEach((k, v) -> entries.put(canonical(k), canonical(v)));
            return entries;
        }
        if (value instanceof scala.collection.Iterable<?> seq) {
            List<Object> elements = new ArrayList<>();
            elements.add(seq.getClass().getName());
            scala.jdk.javaapi.CollectionConverters.asJava(seq).forEach(e -> elements.add(canonical(e)));
            return elements;
        }
        return value == null ? null : List.of(value.getClass().getName(), value);
    }

    // ---- an encoder the native path does not cover ----

    /** Kryo's and Java serialization's encoders stay on Spark's encoder, say why, and still round-trip. */
    @Test
    void kryo_and_java_serialization_fall_back_to_spark() {
        fallback(Encoders.kryo(Opaque.class), "kryo");
        fallback(Encoders.javaSerialization(Opaque.class), "serializ");
    }

    private static void fallback(Encoder<Opaque> encoder, String reasonMentions) {
        RowCodec<Opaque> codec = RowCodec.of(encoder);
        assertThat(codec.isNative()).as("isNative() of %s", encoder).isFalse();
        assertThat(codec.path()).startsWith("Catalyst (Spark's encoder): ");
        assertThat(codec.path().toLowerCase()).as("path() of %s", encoder).contains(reasonMentions);
        SparkOracle<Opaque> spark = new SparkOracle<>(encoder);
        assertThat(codec.schema()).isEqualTo(spark.schema);
        Gen g = new Gen(seedOf("fallback " + reasonMentions));
        for (int i = 0; i < 300; i++) {
            Opaque value = new Opaque(g.string(), g.list(g::intValue), g.nullable(g::instant));
            byte[] bytes = spark.encode(value);
            assertThat(codec.encode(value)).as("bytes of %s", value).containsExactly(bytes);
            Opaque decoded = codec.decode(bytes);
            assertThat(decoded).isNotSameAs(value);
            assertThat(DeepCompare.diff(spark.decode(bytes), decoded)).as("decoded %s", value).isNull();
            assertThat(DeepCompare.diff(value, decoded)).as("decoded %s", value).isNull();
        }
    }

    /** Not a bean (no setters): only Kryo or Java serialization can encode it. */
    public static final class Opaque implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String text;
        private final ArrayList<Integer> numbers;
        private final Instant at;

        Opaque(String text, List<Integer> numbers, Instant at) {
            this.text = text;
            this.numbers = new ArrayList<>(numbers);
            this.at = at;
        }

        @Override
        public String toString() {
            return DeepCompare.show(this);
        }
    }

    // ---- the property itself ----

    /** A codec wrong in any one way fails the property, which names the check, the value and the seed. */
    @Test
    void the_property_catches_a_codec_that_differs_from_spark() {
        SparkOracle<String> strings = new SparkOracle<>(Encoders.STRING());
        Subject<String> right = Subject.of(RowCodec.of(Encoders.STRING()));
        Function<Gen, String> gen = g -> g.nullable(g::string);
        assertThat(failureOf("right codec", strings, right, gen)).isNull();

        assertThat(failureOf("wrong bytes", strings, new Delegating<>(right) {
            @Override
            public byte[] encode(String value) {
                byte[] bytes = super.encode(value);
                if (value != null && value.length() >= 4) {
                    bytes[bytes.length - 1] ^= 1;
                }
                return bytes;
            }
        }, gen)).contains("wrong bytes: ", "difference(s) from Spark's encoder in 400 values", "-Dtwstester.seed=" + BASE_SEED,
                "bytes: expected 0x", "but was 0x", "the value: \"");

        assertThat(failureOf("wrong object", strings, new Delegating<>(right) {
            @Override
            public String decode(byte[] bytes) {
                String value = super.decode(bytes);
                return value != null && value.length() >= 4 ? value + "!" : value;
            }
        }, gen)).contains("decoded object differs from Spark's at value: expected \"", "!\"");

        assertThat(failureOf("wrong nested bytes", strings, new Delegating<>(right) {
            @Override
            public byte[] nestedBytes(byte[] bytes) {
                return bytes;
            }
        }, gen)).contains("nestedBytes: expected 0x");

        assertThat(failureOf("byte order", strings, new Delegating<>(right) {
            @Override
            public int compareNatural(byte[] a, byte[] b) {
                return Arrays.compareUnsigned(a, b); // RocksDB's order of the bytes, not Spark SQL's order
            }
        }, gen)).contains("compareNatural with 0x", "Spark's sign is");

        assertThat(failureOf("wrong partition", strings, new Delegating<>(right) {
            @Override
            public int partition(byte[] bytes, int partitions) {
                return (super.partition(bytes, partitions) + 1) % partitions;
            }
        }, gen)).contains("partition(bytes, ", "): Spark's is ");

        assertThat(failureOf("not native", strings, new Delegating<>(right) {
            @Override
            public boolean isNative() {
                return false;
            }
        }, gen)).contains("not on the native path: ");

        SparkOracle<Timestamp> timestamps = new SparkOracle<>(Encoders.TIMESTAMP());
        Subject<Timestamp> rightTimes = Subject.of(RowCodec.of(Encoders.TIMESTAMP()));
        assertThat(failureOf("unwrapped error", timestamps, new Delegating<>(rightTimes) {
            @Override
            public byte[] encode(Timestamp value) {
                try {
                    return super.encode(value);
                } catch (RuntimeException e) {
                    throw (RuntimeException) e.getCause();
                }
            }
        }, g -> g.timestamp())).contains("Spark throws org.apache.spark.SparkRuntimeException [EXPRESSION_ENCODING_FAILED]",
                "caused by java.lang.ArithmeticException", "but the codec threw java.lang.ArithmeticException");
        assertThat(failureOf("no error", timestamps, new Delegating<>(rightTimes) {
            @Override
            public byte[] encode(Timestamp value) {
                try {
                    return super.encode(value);
                } catch (RuntimeException e) {
                    return super.encode(null);
                }
            }
        }, g -> g.timestamp())).contains("Spark throws org.apache.spark.SparkRuntimeException [EXPRESSION_ENCODING_FAILED]",
                "but the codec returned 0x");
    }

    private static <T> String failureOf(String shape, SparkOracle<T> spark, Subject<T> codec, Function<Gen, T> generator) {
        try {
            check(shape, spark, codec, 0.03, generator, 400, System.nanoTime(), -1, -1);
            return null;
        } catch (AssertionError e) {
            return e.getMessage();
        }
    }

    /** A subject that forwards everything; tests override one method to make it wrong. */
    private static class Delegating<T> implements Subject<T> {
        private final Subject<T> delegate;

        Delegating(Subject<T> delegate) {
            this.delegate = delegate;
        }

        @Override
        public StructType schema() {
            return delegate.schema();
        }

        @Override
        public byte[] encode(T value) {
            return delegate.encode(value);
        }

        @Override
        public T decode(byte[] bytes) {
            return delegate.decode(bytes);
        }

        @Override
        public byte[] nestedBytes(byte[] bytes) {
            return delegate.nestedBytes(bytes);
        }

        @Override
        public int compareNatural(byte[] a, byte[] b) {
            return delegate.compareNatural(a, b);
        }

        @Override
        public int partition(byte[] bytes, int partitions) {
            return delegate.partition(bytes, partitions);
        }

        @Override
        public boolean isNative() {
            return delegate.isNative();
        }

        @Override
        public String path() {
            return delegate.path();
        }
    }

    // ---- value generators of the beans ----

    /**
     * {@code value} (a generator, list or map holding some elements of the wrong class) passed off as another
     * type, as raw types or unchecked casts let a Java caller do: Spark refuses such elements
     * ({@code INVALID_EXTERNAL_TYPE}).
     */
    @SuppressWarnings("unchecked")
    private static <T> T wrongType(Object value) {
        return (T) value;
    }

    /** A primitive encoder's value, or (1%) null, which a Java caller can pass to it. */
    static Object primitive(Gen g, java.util.function.Supplier<?> value) {
        return g.chance(0.01) ? null : value.get();
    }

    /** The value itself, or (1%) a top-level null, which Spark refuses for beans and tuples. */
    static <T> T topLevel(Gen g, java.util.function.Supplier<T> value) {
        return g.chance(0.01) ? null : value.get();
    }

    private static Color color(Gen g) {
        return g.oneOf(Color.values());
    }

    private static LeafBean leaf(Gen g) {
        LeafBean b = new LeafBean();
        b.setX(g.intValue());
        b.setY(g.nullable(g::string));
        b.setZ(g.nullable(g::doubleValue));
        return b;
    }

    private static InnerBean inner(Gen g) {
        InnerBean b = new InnerBean();
        b.setName(g.nullable(g::string));
        b.setCount(g.nullable(g::intValue));
        b.setScore(g.doubleValue());
        b.setAt(g.nullable(g::saneInstant));
        b.setLeaf(g.nullable(() -> leaf(g)));
        b.setTags(g.nullable(() -> g.smallList(() -> g.nullable(g::string))));
        return b;
    }

    private static KeyBean key(Gen g) {
        KeyBean b = new KeyBean();
        b.setName(g.nullable(() -> g.chance(0.5) ? g.oneOf("a", "b", "") : g.string()));
        b.setId(g.chance(0.5) ? g.between(0L, 2L) : g.longValue());
        b.setN(g.nullable(() -> g.chance(0.5) ? g.between(0, 2) : g.intValue()));
        b.setFlag(g.bool());
        return b;
    }

    private static FlatBean flat(Gen g) {
        FlatBean b = new FlatBean();
        b.setPrimitiveBoolean(g.bool());
        b.setBoxedBoolean(g.nullable(g::bool));
        b.setPrimitiveByte(g.byteValue());
        b.setBoxedByte(g.nullable(g::byteValue));
        b.setPrimitiveShort(g.shortValue());
        b.setBoxedShort(g.nullable(g::shortValue));
        b.setPrimitiveInt(g.intValue());
        b.setBoxedInt(g.nullable(g::intValue));
        b.setPrimitiveLong(g.longValue());
        b.setBoxedLong(g.nullable(g::longValue));
        b.setPrimitiveFloat(g.floatValue());
        b.setBoxedFloat(g.nullable(g::floatValue));
        b.setPrimitiveDouble(g.doubleValue());
        b.setBoxedDouble(g.nullable(g::doubleValue));
        b.setText(g.nullable(g::string));
        b.setBinary(g.nullable(g::binary));
        b.setTimestamp(g.nullable(g::saneTimestamp));
        b.setInstant(g.nullable(g::saneInstant));
        b.setDate(g.nullable(g::saneDate));
        b.setLocalDate(g.nullable(g::saneLocalDate));
        b.setLocalDateTime(g.nullable(g::saneLocalDateTime));
        b.setDecimal(g.nullable(g::fittingDecimal));
        b.setBigInteger(g.nullable(g::fittingBigInteger));
        b.setColor(g.nullable(() -> color(g)));
        return b;
    }

    private static ArraysBean arrays(Gen g) {
        ArraysBean b = new ArraysBean();
        b.setBooleans(g.nullable(() -> {
            boolean[] a = new boolean[g.size()];
            for (int i = 0; i < a.length; i++) {
                a[i] = g.bool();
            }
            return a;
        }));
        b.setShorts(g.nullable(() -> {
            short[] a = new short[g.size()];
            for (int i = 0; i < a.length; i++) {
                a[i] = g.shortValue();
            }
            return a;
        }));
        b.setInts(g.nullable(() -> ints(g)));
        b.setLongs(g.nullable(() -> g.list(g::longValue).stream().mapToLong(Long::longValue).toArray()));
        b.setFloats(g.nullable(() -> {
            float[] a = new float[g.size()];
            for (int i = 0; i < a.length; i++) {
                a[i] = g.floatValue();
            }
            return a;
        }));
        b.setDoubles(g.nullable(() -> g.list(g::doubleValue).stream().mapToDouble(Double::doubleValue).toArray()));
        b.setBinaries(g.nullable(() -> g.list(() -> g.nullable(g::binary)).toArray(byte[][]::new)));
        b.setStrings(g.nullable(() -> g.list(() -> g.nullable(g::string)).toArray(String[]::new)));
        b.setBoxedInts(g.nullable(() -> g.list(() -> g.nullable(g::intValue)).toArray(Integer[]::new)));
        b.setBoxedDoubles(g.nullable(() -> g.list(() -> g.nullable(g::doubleValue)).toArray(Double[]::new)));
        b.setDates(g.nullable(() -> g.list(() -> g.nullable(g::saneLocalDate)).toArray(LocalDate[]::new)));
        b.setTimestamps(g.nullable(() -> g.list(() -> g.nullable(g::saneTimestamp)).toArray(Timestamp[]::new)));
        b.setDecimals(g.nullable(() -> g.list(() -> g.nullable(g::fittingDecimal)).toArray(BigDecimal[]::new)));
        b.setColors(g.nullable(() -> g.list(() -> g.nullable(() -> color(g))).toArray(Color[]::new)));
        b.setLeaves(g.nullable(() -> g.list(() -> g.nullable(() -> leaf(g))).toArray(LeafBean[]::new)));
        b.setMatrix(g.nullable(() -> g.smallList(() -> g.nullable(() -> ints(g))).toArray(int[][]::new)));
        return b;
    }

    private static int[] ints(Gen g) {
        int[] a = new int[g.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = g.intValue();
        }
        return a;
    }

    private static CollectionsBean collections(Gen g) {
        CollectionsBean b = new CollectionsBean();
        b.setStrings(g.nullable(() -> g.list(() -> g.nullable(g::string))));
        b.setInts(g.nullable(() -> wrongType(g.list(() -> g.chance(0.002) ? (Object) (long) g.intValue() : g.nullable(g::intValue)))));
        b.setNested(g.nullable(() -> g.list(() -> g.nullable(() -> g.smallList(() -> g.nullable(g::longValue))))));
        b.setTimes(g.nullable(() -> g.list(() -> g.nullable(g::saneTimestamp))));
        b.setColors(g.nullable(() -> g.list(() -> g.nullable(() -> color(g)))));
        b.setBlobs(g.nullable(() -> g.list(() -> g.nullable(g::binary))));
        b.setCounts(g.nullable(() -> wrongType(g.map(g::string, () -> g.chance(0.002) ? (Object) g.string() : g.nullable(g::intValue)))));
        b.setGroups(g.nullable(() -> g.map(g::intValue, () -> g.nullable(() -> g.smallList(() -> g.nullable(g::string))))));
        b.setNestedMaps(g.nullable(() -> g.map(g::string, () -> g.nullable(() -> g.smallMap(g::string, () -> g.nullable(g::doubleValue))))));
        b.setByDay(g.nullable(() -> g.map(g::saneLocalDate, () -> g.nullable(g::fittingDecimal))));
        b.setListOfMaps(g.nullable(() -> g.list(() -> g.nullable(() -> g.smallMap(g::string, () -> g.nullable(g::string))))));
        return b;
    }

    private static NestedBean nested(Gen g) {
        NestedBean b = new NestedBean();
        b.setId(g.nullable(g::string));
        b.setInner(g.nullable(() -> inner(g)));
        b.setSecond(g.nullable(() -> inner(g)));
        b.setInners(g.nullable(() -> g.smallList(() -> g.nullable(() -> inner(g)))));
        b.setByName(g.nullable(() -> g.smallMap(g::string, () -> g.nullable(() -> inner(g)))));
        b.setArray(g.nullable(() -> g.smallList(() -> g.nullable(() -> inner(g))).toArray(InnerBean[]::new)));
        b.setLeavesByName(g.nullable(() -> g.smallMap(g::string, () -> g.nullable(() -> g.smallList(() -> g.nullable(() -> leaf(g)))))));
        b.setLeafGrid(g.nullable(() -> g.smallList(() -> g.nullable(() -> g.smallList(() -> g.nullable(() -> leaf(g)))))));
        return b;
    }

    // ---- the property ----

    static long seedOf(String shape) {
        long h = BASE_SEED;
        for (char c : shape.toCharArray()) {
            h = (h ^ c) * 0x100000001b3L;
        }
        return h ^ (h >>> 29);
    }

    /**
     * Encodes {@link #VALUES} values of {@code generator} with Spark and with {@link RowCodec#of}, and
     * fails listing the first differences (shape, seed, value, expected and actual).
     */
    static <T> void property(String shape, Encoder<T> encoder, Function<Gen, T> generator) {
        property(shape, encoder, 0.03, generator);
    }

    /** As above; {@code wild}: how often nested values may be any value rather than one Spark accepts. */
    static <T> void property(String shape, Encoder<T> encoder, double wild, Function<Gen, T> generator) {
        long started = System.nanoTime();
        SparkOracle<T> spark = new SparkOracle<>(encoder);
        long oracleMillis = (System.nanoTime() - started) / 1_000_000;
        Subject<T> codec = Subject.of(RowCodec.of(encoder));
        long codecMillis = (System.nanoTime() - started) / 1_000_000 - oracleMillis;
        check(shape, spark, codec, wild, generator, VALUES, started, oracleMillis, codecMillis);
    }

    /** What the property checks: {@link RowCodec}'s methods, or (to test the property itself) a wrong codec. */
    interface Subject<T> {
        StructType schema();

        byte[] encode(T value);

        T decode(byte[] bytes);

        byte[] nestedBytes(byte[] bytes);

        int compareNatural(byte[] a, byte[] b);

        int partition(byte[] bytes, int partitions);

        boolean isNative();

        String path();

        static <T> Subject<T> of(RowCodec<T> codec) {
            return new Subject<>() {
                @Override
                public StructType schema() {
                    return codec.schema();
                }

                @Override
                public byte[] encode(T value) {
                    return codec.encode(value);
                }

                @Override
                public T decode(byte[] bytes) {
                    return codec.decode(bytes);
                }

                @Override
                public byte[] nestedBytes(byte[] bytes) {
                    return codec.nestedBytes(bytes);
                }

                @Override
                public int compareNatural(byte[] a, byte[] b) {
                    return codec.compareNatural(a, b);
                }

                @Override
                public int partition(byte[] bytes, int partitions) {
                    return codec.partition(bytes, partitions);
                }

                @Override
                public boolean isNative() {
                    return codec.isNative();
                }

                @Override
                public String path() {
                    return codec.path();
                }
            };
        }
    }

    private static <T> void check(String shape, SparkOracle<T> spark, Subject<T> codec, double wild, Function<Gen, T> generator,
            int values, long started, long oracleMillis, long codecMillis) {
        long seed = seedOf(shape);
        Gen g = new Gen(seed).wild(wild);
        Mismatches mismatches = new Mismatches(shape, seed, values);
        if (!codec.schema().equals(spark.schema)) {
            mismatches.add(-1, null, "schema: expected " + spark.schema.treeString() + " but was " + codec.schema().treeString());
        }
        List<T> recentValues = new ArrayList<>();
        List<byte[]> recentBytes = new ArrayList<>();
        Map<String, Integer> sparkFailures = new TreeMap<>();
        int encoded = 0;
        for (int i = 0; i < values; i++) {
            T value = !recentValues.isEmpty() && g.chance(0.05)
                    ? recentValues.get(g.between(0, recentValues.size() - 1))
                    : generator.apply(g);
            byte[] expected = null;
            Throwable expectedError = null;
            try {
                expected = spark.encode(value);
            } catch (Throwable t) {
                expectedError = t;
            }
            byte[] actual = null;
            Throwable actualError = null;
            try {
                actual = codec.encode(value);
            } catch (Throwable t) {
                actualError = t;
            }
            if (expectedError != null) {
                sparkFailures.merge(describeShort(expectedError), 1, Integer::sum);
                String diff = sameFailure(expectedError, actualError, actual);
                if (diff != null) {
                    mismatches.add(i, value, "encode: " + diff);
                }
                continue;
            }
            if (actualError != null) {
                mismatches.add(i, value, "encode: Spark writes 0x" + DeepCompare.hex(expected, 120)
                        + " but the codec threw " + describe(actualError) + stack(actualError));
                continue;
            }
            if (!Arrays.equals(expected, actual)) {
                mismatches.add(i, value, "bytes: expected 0x" + DeepCompare.hex(expected, 400) + "\n      but was 0x"
                        + DeepCompare.hex(actual, 400) + "\n      (first difference at byte " + Arrays.mismatch(expected, actual) + ")");
                continue;
            }
            encoded++;
            checkDecode(spark, codec, expected, value, i, mismatches);
            checkNested(spark, codec, expected, value, i, mismatches);
            if (spark.orderable() && !recentBytes.isEmpty()) {
                byte[] other = g.chance(0.5) ? recentBytes.get(recentBytes.size() - 1)
                        : recentBytes.get(g.between(0, recentBytes.size() - 1));
                checkOrderAndPartition(spark, codec, expected, other, g, value, i, mismatches);
            }
            if (recentValues.size() < 64) {
                recentValues.add(value);
                recentBytes.add(expected);
            } else {
                int slot = g.between(0, 63);
                recentValues.set(slot, value);
                recentBytes.set(slot, expected);
            }
        }
        if (!codec.isNative()) {
            mismatches.add(-1, null, "not on the native path: " + codec.path());
        }
        System.out.printf("NativeCodecPropertyTest %-55s %d values (%d encoded, Spark threw %s) in %d ms%s, %d mismatches%n",
                shape, values, encoded, sparkFailures, (System.nanoTime() - started) / 1_000_000,
                oracleMillis < 0 ? "" : " (Spark's encoder built in " + oracleMillis + " ms, RowCodec.of in " + codecMillis + " ms)",
                mismatches.count);
        mismatches.assertNone();
        assertThat(encoded).as("%s: values Spark could encode (the generator must mostly make valid ones)", shape)
                .isGreaterThan(values / 2);
    }

    private static <T> void checkDecode(SparkOracle<T> spark, Subject<T> codec, byte[] bytes, T value, int i,
            Mismatches mismatches) {
        T expected = null;
        Throwable expectedError = null;
        try {
            expected = spark.decode(bytes);
        } catch (Throwable t) {
            expectedError = t;
        }
        T actual = null;
        Throwable actualError = null;
        try {
            actual = codec.decode(bytes);
        } catch (Throwable t) {
            actualError = t;
        }
        if (expectedError != null) {
            String diff = sameFailure(expectedError, actualError, null);
            if (diff != null) {
                mismatches.add(i, value, "decode of 0x" + DeepCompare.hex(bytes, 120) + ": " + diff);
            }
        } else if (actualError != null) {
            mismatches.add(i, value, "decode of 0x" + DeepCompare.hex(bytes, 120) + ": Spark decodes " + DeepCompare.show(expected)
                    + " but the codec threw " + describe(actualError) + stack(actualError));
        } else {
            String diff = DeepCompare.diff(expected, actual);
            if (diff != null) {
                mismatches.add(i, value, "decoded object differs from Spark's at " + diff);
            } else if (actual != null && actual == value
                    && (value.getClass().isArray() || value.getClass().getName().startsWith("dev.twstester"))) {
                mismatches.add(i, value, "decode returned the encoded instance itself, not a new object");
            }
        }
    }

    private static <T> void checkNested(SparkOracle<T> spark, Subject<T> codec, byte[] bytes, T value, int i,
            Mismatches mismatches) {
        byte[] expected = spark.nestedBytes(bytes);
        try {
            byte[] actual = codec.nestedBytes(bytes);
            if (!Arrays.equals(expected, actual)) {
                mismatches.add(i, value, "nestedBytes: expected 0x" + DeepCompare.hex(expected, 400) + "\n      but was 0x"
                        + DeepCompare.hex(actual, 400));
            }
        } catch (Throwable t) {
            mismatches.add(i, value, "nestedBytes threw " + describe(t) + stack(t));
        }
    }

    private static <T> void checkOrderAndPartition(SparkOracle<T> spark, Subject<T> codec, byte[] bytes, byte[] other,
            Gen g, T value, int i, Mismatches mismatches) {
        int expectedSign = Integer.signum(spark.compare(bytes, other));
        try {
            int actualSign = Integer.signum(codec.compareNatural(bytes, other));
            int reverse = Integer.signum(codec.compareNatural(other, bytes));
            if (actualSign != expectedSign || reverse != -expectedSign) {
                mismatches.add(i, value, "compareNatural with 0x" + DeepCompare.hex(other, 120) + " (Spark's bytes of an earlier value: "
                        + DeepCompare.show(spark.decode(other)) + "): Spark's sign is " + expectedSign
                        + " but compareNatural gives " + actualSign + " (and " + reverse + " reversed)");
            }
        } catch (Throwable t) {
            mismatches.add(i, value, "compareNatural threw " + describe(t) + stack(t));
        }
        int partitions = g.chance(0.3) ? g.oneOf(1, 2, 3, 5, 200) : g.between(1, 1000);
        int expectedPartition = spark.partition(bytes, partitions);
        try {
            int actualPartition = codec.partition(bytes, partitions);
            if (actualPartition != expectedPartition) {
                mismatches.add(i, value, "partition(bytes, " + partitions + "): Spark's is " + expectedPartition + " but was " + actualPartition);
            }
        } catch (Throwable t) {
            mismatches.add(i, value, "partition threw " + describe(t) + stack(t));
        }
    }

    // ---- failures ----

    private static String condition(Throwable t) {
        return t instanceof SparkThrowable s ? s.getCondition() : null;
    }

    /** Null when {@code actual} is the same failure as Spark's (class and error class, outer and cause). */
    private static String sameFailure(Throwable expected, Throwable actual, byte[] actualBytes) {
        if (actual == null) {
            return "Spark throws " + describe(expected) + "\n      but the codec returned "
                    + (actualBytes == null ? "normally" : "0x" + DeepCompare.hex(actualBytes, 120));
        }
        boolean same = expected.getClass() == actual.getClass() && Objects.equals(condition(expected), condition(actual));
        Throwable ec = expected.getCause();
        Throwable ac = actual.getCause();
        same &= (ec == null) == (ac == null);
        if (ec != null && ac != null) {
            same &= ec.getClass() == ac.getClass() && Objects.equals(condition(ec), condition(ac));
        }
        return same ? null : "Spark throws " + describe(expected) + "\n      but the codec threw " + describe(actual) + stack(actual);
    }

    private static String describe(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (int depth = 0; t != null && depth < 3; depth++, t = t.getCause()) {
            b.append(depth == 0 ? "" : " caused by ").append(t.getClass().getName());
            if (condition(t) != null) {
                b.append(" [").append(condition(t)).append(']');
            }
            String message = String.valueOf(t.getMessage()).replace('\n', ' ');
            int max = depth == 0 && t.getCause() != null ? 120 : 400; // the outer message repeats the serializer's expressions
            b.append(": ").append(message.length() > max ? message.substring(0, max) + "..." : message);
        }
        return b.toString();
    }

    private static String describeShort(Throwable t) {
        StringBuilder b = new StringBuilder(t.getClass().getSimpleName());
        if (condition(t) != null) {
            b.append('[').append(condition(t)).append(']');
        }
        if (t.getCause() != null) {
            b.append('/').append(t.getCause().getClass().getSimpleName());
            if (condition(t.getCause()) != null) {
                b.append('[').append(condition(t.getCause())).append(']');
            }
        }
        return b.toString();
    }

    private static String stack(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        StringBuilder b = new StringBuilder("\n      at ");
        StackTraceElement[] frames = root.getStackTrace();
        for (int i = 0; i < Math.min(6, frames.length); i++) {
            b.append(i == 0 ? "" : " < ").append(frames[i]);
        }
        return b.toString();
    }

    /** The differences of one shape: counted all, the first few kept with their value. */
    private static final class Mismatches {
        private static final int KEPT = 8;
        private final String shape;
        private final long seed;
        private final int values;
        private final List<String> kept = new ArrayList<>();
        private int count;

        Mismatches(String shape, long seed, int values) {
            this.shape = shape;
            this.seed = seed;
            this.values = values;
        }

        void add(int index, Object value, String what) {
            count++;
            if (kept.size() < KEPT) {
                String shown = index < 0 ? "" : DeepCompare.show(value);
                kept.add((index < 0 ? "" : "value #" + index + ": ") + what
                        + (index < 0 ? "" : "\n    the value: " + (shown.length() > 1500 ? shown.substring(0, 1500) + "..." : shown)));
            }
        }

        void assertNone() {
            if (count > 0) {
                throw new AssertionError(shape + ": " + count + " difference(s) from Spark's encoder in " + values
                        + " values (base seed " + BASE_SEED + ", shape seed " + seed + "; rerun with -Dtwstester.seed=" + BASE_SEED
                        + "). The first " + kept.size() + ":\n  " + String.join("\n  ", kept));
            }
        }
    }
}
