package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.encoders.ExpressionEncoder;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CalendarIntervalType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.Decimal;
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
import org.apache.spark.unsafe.types.CalendarInterval;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.internal.SQLConf$;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import scala.jdk.javaapi.CollectionConverters;

/**
 * {@link ExternalRows} against Catalyst's lenient row encoder built here: for generated rows of a dozen
 * schemas, the same UnsafeRow bytes, the same external rows back (classes included), and the same failures
 * (exception class, error class and message parameters, and the cause's). One row in 16 may hold a deliberate
 * fault, one in 32 two of them (the first in Spark's evaluation order must win). Seed: {@code -Dtwstester.seed=...}.
 */
class ExternalRowsPropertyTest {
    private static final long SEED = Long.getLong("twstester.seed", 20261201L);
    private static final int ROWS = Integer.getInteger("twstester.rows", 10_000);

    static final List<StructType> SCHEMAS = List.of(
            StructType.fromDDL("b boolean, y tinyint, sh smallint, i int, l bigint, f float, d double, s string, "
                    + "bin binary, d1 decimal(5,2), d2 decimal(18,0), d3 decimal(38,10), dt date, ts timestamp, "
                    + "ntz timestamp_ntz"),
            nonNullable(StructType.fromDDL("b boolean, y tinyint, sh smallint, i int, l bigint, f float, d double, "
                    + "s string, bin binary, d1 decimal(7,7), d2 decimal(20,2), dt date, ts timestamp, "
                    + "ntz timestamp_ntz")),
            new StructType()
                    .add("a", DataTypes.IntegerType)
                    .add("s", new StructType()
                            .add("x", DataTypes.StringType, false)
                            .add("t", StructType.fromDDL("d date, m decimal(20,3)"), true)
                            .add("b", DataTypes.BinaryType))
                    .add("z", DataTypes.LongType, false),
            new StructType()
                    .add("items", DataTypes.createArrayType(StructType.fromDDL("id int, name string, price decimal(10,2)")))
                    .add("tags", DataTypes.createArrayType(DataTypes.StringType, false), false),
            new StructType()
                    .add("m", DataTypes.createMapType(DataTypes.StringType, StructType.fromDDL("a int, ts timestamp")))
                    .add("m2", DataTypes.createMapType(DataTypes.IntegerType, DataTypes.StringType, false)),
            new StructType()
                    .add("aa", DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.IntegerType)))
                    .add("ad", DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.DoubleType, false)))
                    .add("ab", DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.BinaryType), false)),
            StructType.fromDDL("p1 decimal(1,0), p2 decimal(9,2), p3 decimal(10,10), p4 decimal(18,4), "
                    + "p5 decimal(19,0), p6 decimal(28,8), p7 decimal(38,0), p8 decimal(38,38), "
                    + "pa array<decimal(25,5)>, pm map<decimal(4,1), decimal(30,0)>"),
            new StructType()
                    .add("ab", DataTypes.createArrayType(DataTypes.BooleanType, false))
                    .add("ay", DataTypes.createArrayType(DataTypes.ByteType))
                    .add("as", DataTypes.createArrayType(DataTypes.ShortType, false))
                    .add("ai", DataTypes.createArrayType(DataTypes.IntegerType))
                    .add("al", DataTypes.createArrayType(DataTypes.LongType, false))
                    .add("af", DataTypes.createArrayType(DataTypes.FloatType))
                    .add("adb", DataTypes.createArrayType(DataTypes.DoubleType, false)),
            StructType.fromDDL("deep map<string, array<struct<k: map<int, array<decimal(25,5)>>, t: timestamp_ntz, "
                    + "u: struct<v: array<struct<w: string>>>>>>"),
            StructType.fromDDL("dt date, ts timestamp, ntz timestamp_ntz, dts array<date>, "
                    + "byDate map<date, timestamp>, ntzs array<timestamp_ntz>"),
            StructType.fromDDL("bykey map<struct<a:int, b:string>, int>, nested map<bigint, map<string, boolean>>"),
            new StructType().add("value", DataTypes.StringType, false),
            new StructType()
                    .add("s", new StructType()
                            .add("a", DataTypes.IntegerType, false)
                            .add("arr", DataTypes.createArrayType(DataTypes.IntegerType, false), false), false)
                    .add("m", DataTypes.createMapType(DataTypes.StringType,
                            DataTypes.createArrayType(StructType.fromDDL("q float"), false), false), false),
            StructType.fromDDL("dts interval day to second, h interval hour, ym interval year to month, "
                            + "mo interval month, ad array<interval day>, my map<string, interval year>")
                    // not nullable: Spark leaves a null interval's 16 bytes as its buffer held them (see ExternalRows)
                    .add("ci", DataTypes.CalendarIntervalType, false)
                    .add("aci", DataTypes.createArrayType(DataTypes.CalendarIntervalType))
                    .add("sci", new StructType().add("c", DataTypes.CalendarIntervalType, false)));

    private static StructType nonNullable(StructType schema) {
        return new StructType(Arrays.stream(schema.fields())
                .map(f -> new StructField(f.name(), f.dataType(), false, f.metadata())).toArray(StructField[]::new));
    }

    @TestFactory
    Stream<DynamicTest> sameBytesRowsAndFailuresAsCatalystsRowEncoder() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < SCHEMAS.size(); i++) {
            StructType schema = SCHEMAS.get(i);
            long seed = SEED + i;
            tests.add(DynamicTest.dynamicTest("schema " + i + ": " + schema.simpleString(),
                    () -> check(schema, seed, ROWS)));
        }
        return tests.stream();
    }

    /**
     * With {@code spark.sql.ansi.enabled=false} Spark's encoder turns a decimal overflow into null (and a null
     * in a non-nullable field into {@code NOT_NULL_ASSERT_VIOLATION}). Run on a thread of its own whose
     * fallback SQLConf nobody else reads.
     */
    @Test
    void decimalOverflowIsNullWithAnsiModeOff() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean ran = new AtomicBoolean();
        Thread thread = new Thread(() -> {
            try {
                SQLConf conf = SQLConf.get();
                if (conf != SQLConf$.MODULE$.getFallbackConf()) {
                    return;   // a SparkSession's conf: not ours to change
                }
                conf.setConfString("spark.sql.ansi.enabled", "false");
                check(SCHEMAS.get(6), SEED + 100, ROWS / 2);    // nullable decimals
                check(SCHEMAS.get(1), SEED + 101, ROWS / 2);    // non-nullable ones
                ran.set(true);
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "ansi-off");
        thread.start();
        thread.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        Assumptions.assumeTrue(ran.get(), "SQLConf.get() is a SparkSession's conf in this JVM");
    }

    private static void check(StructType schema, long seed, int rows) {
        assertThat(ExternalRows.supports(schema)).isTrue();
        Catalyst catalyst = new Catalyst(schema);
        Generator generator = new Generator(new SplittableRandom(seed));
        int failures = 0;
        long catalystNanos = 0;
        long nativeNanos = 0;
        long catalystReadNanos = 0;
        long nativeReadNanos = 0;
        long started = System.nanoTime();
        for (int n = 0; n < rows; n++) {
            generator.faultsLeft = n % 32 == 0 ? 2 : 1;
            generator.faultRate = n % 16 == 0 ? 0.08 : 0.0;
            Row row = generator.row(schema);
            int rowIndex = n;
            Supplier<String> context = () -> "seed " + seed + " (-Dtwstester.seed=" + (seed - SCHEMAS.indexOf(schema))
                    + "), row " + rowIndex + " of " + schema.simpleString() + ": " + describe(row);
            Object expected;
            long t0 = System.nanoTime();
            try {
                expected = catalyst.bytes(row);
            } catch (Exception e) {
                expected = e;
            }
            long t1 = System.nanoTime();
            Object actual;
            try {
                actual = ExternalRows.fromExternal(row, schema);
            } catch (Exception e) {
                actual = e;
            }
            long t2 = System.nanoTime();
            catalystNanos += t1 - t0;
            nativeNanos += t2 - t1;
            if (expected instanceof Exception e) {
                failures++;
                if (!(actual instanceof Exception a)) {
                    throw new AssertionError(context.get() + "\nCatalyst failed with " + e + "\nbut ExternalRows returned "
                            + HexFormat.of().formatHex((byte[]) actual), e);
                }
                sameFailure(context, e, a);
                continue;
            }
            byte[] bytes = (byte[]) expected;
            if (actual instanceof Exception a) {
                throw new AssertionError(context.get() + "\nCatalyst returned " + HexFormat.of().formatHex(bytes)
                        + "\nbut ExternalRows failed", a);
            }
            if (!Arrays.equals(bytes, (byte[]) actual)) {
                fail(context.get() + "\nCatalyst:      " + HexFormat.of().formatHex(bytes)
                        + "\nExternalRows:  " + HexFormat.of().formatHex((byte[]) actual));
            }
            UnsafeRow unsafe = new UnsafeRow(schema.length());
            unsafe.pointTo(bytes, bytes.length);
            long t3 = System.nanoTime();
            Row expectedRow = catalyst.row(unsafe);
            long t4 = System.nanoTime();
            Row actualRow = ExternalRows.toExternal(unsafe, schema);
            catalystReadNanos += t4 - t3;
            nativeReadNanos += System.nanoTime() - t4;
            String difference = difference("row", expectedRow, actualRow);
            if (difference != null) {
                fail(context.get() + "\nCatalyst row: " + describe(expectedRow) + "\nExternalRows: "
                        + describe(actualRow) + "\n" + difference);
            }
            if (!schema.equals(((GenericRowWithSchema) actualRow).schema())) {
                fail(context.get() + "\nschema of the row: " + ((GenericRowWithSchema) actualRow).schema());
            }
            // Row.equals: not reflexive with NaN or byte[] inside a collection (Scala compares those as numbers
            // or by reference), so asked only where Catalyst's row equals another decoding of itself
            if (!actualRow.equals(expectedRow) && expectedRow.equals(catalyst.row(unsafe))) {
                fail(context.get() + "\nrows not equal: " + describe(expectedRow) + "\n" + describe(actualRow));
            }
        }
        System.out.printf("ExternalRowsPropertyTest %s: %d rows (%d rejected) in %d ms; to bytes: Catalyst %.2f µs/row "
                + "(encoder built in this time), native %.2f µs/row; to Row: Catalyst %.2f µs/row, native %.2f µs/row%n",
                schema.simpleString(), rows, failures, (System.nanoTime() - started) / 1_000_000,
                catalystNanos / 1e3 / rows, nativeNanos / 1e3 / rows, catalystReadNanos / 1e3 / (rows - failures),
                nativeReadNanos / 1e3 / (rows - failures));
        // the generator is meant to exercise failures too: one row in 16 may hold a fault
        assertThat(failures).as("rows Catalyst rejected, seed " + seed).isBetween(rows / 400, rows / 16);
    }

    private static void sameFailure(Supplier<String> context, Throwable expected, Throwable actual) {
        String difference = failureDifference(expected, actual);
        if (difference != null) {
            throw new AssertionError(context.get() + "\nCatalyst:     " + expected + "\nExternalRows: " + actual
                    + "\n" + difference, actual);
        }
    }

    /** Null if both failed alike: class, error class, parameters and message, then the same of the causes. */
    private static String failureDifference(Throwable expected, Throwable actual) {
        if (expected.getClass() != actual.getClass()) {
            return "exception class differs";
        }
        if (expected instanceof SparkThrowable e) {
            SparkThrowable a = (SparkThrowable) actual;
            if (!Objects.equals(a.getCondition(), e.getCondition())) {
                return "error class differs: expected " + e.getCondition() + " but was " + a.getCondition();
            }
            // EXPRESSION_ENCODING_FAILED names the serializer's expressions with their ids: not reproducible
            if (!"EXPRESSION_ENCODING_FAILED".equals(e.getCondition())) {
                if (!a.getMessageParameters().equals(e.getMessageParameters())) {
                    return "parameters differ: expected " + e.getMessageParameters() + " but was "
                            + a.getMessageParameters();
                }
                if (!Objects.equals(actual.getMessage(), expected.getMessage())) {
                    return "message differs";
                }
            }
        } else if (!(expected instanceof NullPointerException) && expected.getMessage() != null
                && actual.getMessage() != null && !expected.getMessage().equals(actual.getMessage())) {
            // an NPE's helpful message names a variable of Spark's generated code; the JIT drops the message
            // of an implicit exception thrown often (OmitStackTraceInFastThrow)
            return "message differs";
        }
        if (expected.getCause() == null || actual.getCause() == null) {
            return expected.getCause() == actual.getCause() ? null
                    : "cause differs: expected " + expected.getCause() + " but was " + actual.getCause();
        }
        String cause = failureDifference(expected.getCause(), actual.getCause());
        return cause == null ? null : "cause: " + cause;
    }

    /** Null if both hold the same classes at every level and equal values (byte arrays by content), else where not. */
    private static String difference(String path, Object expected, Object actual) {
        if (expected == null || actual == null) {
            return expected == actual ? null : path + ": expected " + describe(expected) + " but was " + describe(actual);
        }
        if (actual.getClass() != expected.getClass()) {
            return path + ": expected a " + expected.getClass().getName() + " but was a " + actual.getClass().getName();
        }
        if (expected instanceof Row e) {
            Row a = (Row) actual;
            if (a.length() != e.length()) {
                return path + ": expected " + e.length() + " fields but was " + a.length();
            }
            for (int i = 0; i < e.length(); i++) {
                String difference = difference(path + "." + i, e.get(i), a.get(i));
                if (difference != null) {
                    return difference;
                }
            }
            return null;
        }
        if (expected instanceof scala.collection.Seq<?> e) {
            List<?> es = CollectionConverters.asJava(e);
            List<?> as = CollectionConverters.asJava((scala.collection.Seq<?>) actual);
            if (as.size() != es.size()) {
                return path + ": expected " + es.size() + " elements but was " + as.size();
            }
            for (int i = 0; i < es.size(); i++) {
                String difference = difference(path + "[" + i + "]", es.get(i), as.get(i));
                if (difference != null) {
                    return difference;
                }
            }
            return null;
        }
        if (expected instanceof scala.collection.Map<?, ?> e) {
            // same entries in the same iteration order
            return difference(path + ".toSeq", e.toSeq(), ((scala.collection.Map<?, ?>) actual).toSeq());
        }
        if (expected instanceof scala.Tuple2<?, ?> e) {
            scala.Tuple2<?, ?> a = (scala.Tuple2<?, ?>) actual;
            String difference = difference(path + "._1", e._1(), a._1());
            return difference != null ? difference : difference(path + "._2", e._2(), a._2());
        }
        boolean same = expected instanceof byte[] e ? Arrays.equals(e, (byte[]) actual)
                : expected instanceof BigDecimal e ? e.equals(actual)   // scale included
                : expected.equals(actual);
        return same ? null : path + ": expected " + describe(expected) + " but was " + describe(actual);
    }

    /** A value with the classes inside it, to reproduce a failure by hand. */
    static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Row row) {
            StringBuilder out = new StringBuilder(value.getClass().getSimpleName()).append('[');
            for (int i = 0; i < row.length(); i++) {
                out.append(i == 0 ? "" : ", ").append(describe(row.get(i)));
            }
            return out.append(']').toString();
        }
        if (value instanceof scala.collection.Map<?, ?> map) {
            StringBuilder out = new StringBuilder(value.getClass().getSimpleName()).append('{');
            CollectionConverters.asJava(map.toSeq()).forEach(
                    t -> out.append(describe(t._1())).append(" -> ").append(describe(t._2())).append(", "));
            return out.append('}').toString();
        }
        if (value instanceof scala.collection.Iterable<?> seq) {
            StringBuilder out = new StringBuilder(value.getClass().getSimpleName()).append('(');
            CollectionConverters.asJava(seq).forEach(v -> out.append(describe(v)).append(", "));
            return out.append(')').toString();
        }
        if (value instanceof byte[] bytes) {
            return "byte[]" + HexFormat.of().formatHex(bytes);
        }
        if (value instanceof Object[] array) {
            return value.getClass().getSimpleName() + Arrays.stream(array).map(ExternalRowsPropertyTest::describe).toList();
        }
        if (value.getClass().isArray()) {
            return value.getClass().getSimpleName() + Arrays.deepToString(new Object[] {value});
        }
        String text = value instanceof Float f ? Integer.toHexString(Float.floatToRawIntBits(f)) + "/" + f
                : value instanceof Double d ? Long.toHexString(Double.doubleToRawLongBits(d)) + "/" + d
                : value.toString();
        return value.getClass().getSimpleName() + ":" + text;
    }

    /** Catalyst's lenient row encoder, as {@code RowCodec} builds it. */
    static final class Catalyst {
        final ExpressionEncoder.Serializer<Row> serializer;
        final ExpressionEncoder.Deserializer<Row> deserializer;
        final UnsafeProjection toUnsafe;

        Catalyst(StructType schema) {
            ExpressionEncoder<Row> rows = ExpressionEncoder.apply(schema, true);
            ExpressionEncoder<Row> bound = rows.resolveAndBind(rows.resolveAndBind$default$1(),
                    rows.resolveAndBind$default$2());
            serializer = bound.createSerializer();
            deserializer = bound.createDeserializer();
            toUnsafe = UnsafeProjection.create(schema);
        }

        byte[] bytes(Row row) {
            InternalRow internal = serializer.apply(row);
            UnsafeRow unsafe = internal instanceof UnsafeRow u ? u : toUnsafe.apply(internal);
            return unsafe.copy().getBytes();
        }

        Row row(UnsafeRow row) {
            return deserializer.apply(row);
        }
    }

    /**
     * Random external values for a type, in every form Spark's lenient encoder accepts, with nulls wherever
     * allowed and, at {@link #faultRate}, up to {@link #faultsLeft} faults per row: a null where none is allowed, a value of
     * a wrong external type, a decimal or time out of range, a struct row too short.
     */
    static final class Generator {
        final SplittableRandom random;
        double faultRate;
        int faultsLeft;

        Generator(SplittableRandom random) {
            this.random = random;
        }

        private boolean fault() {
            if (faultsLeft > 0 && random.nextDouble() < faultRate) {
                faultsLeft--;
                return true;
            }
            return false;
        }

        Row row(StructType schema) {
            StructField[] fields = schema.fields();
            int length = fields.length;
            if (fields.length > 0 && fault()) {
                length = random.nextInt(fields.length);   // too short: Row.get fails
            }
            Object[] values = new Object[length];
            for (int i = 0; i < length; i++) {
                values[i] = value(fields[i].dataType(), fields[i].nullable());
            }
            return random.nextBoolean() ? RowFactory.create(values) : new GenericRowWithSchema(values, schema);
        }

        Object value(DataType type, boolean nullable) {
            if (fault()) {
                return wrong(type, nullable);
            }
            if (nullable && random.nextInt(8) == 0) {
                return null;
            }
            if (type instanceof StructType s) {
                return row(s);
            }
            if (type instanceof ArrayType a) {
                return array(a);
            }
            if (type instanceof MapType m) {
                return map(m);
            }
            return atomic(type);
        }

        /** A fault for {@code type}: null if not nullable (sometimes), else a value Spark rejects. */
        private Object wrong(DataType type, boolean nullable) {
            if (!nullable && random.nextBoolean()) {
                return null;
            }
            int pick = random.nextInt(3);
            if (type instanceof DecimalType d && pick == 0) {
                return BigDecimal.TEN.pow(d.precision() - d.scale()).add(BigDecimal.valueOf(random.nextInt(1000)));
            }
            if (type instanceof TimestampType && pick == 0) {
                return Instant.MAX;
            }
            if (type instanceof TimestampNTZType && pick == 0) {
                return LocalDateTime.MIN;
            }
            if (type instanceof DayTimeIntervalType && pick == 0) {
                return java.time.Duration.ofSeconds(Long.MAX_VALUE / 100_000);
            }
            if (type instanceof YearMonthIntervalType && pick == 0) {
                return java.time.Period.ofYears(Integer.MAX_VALUE);
            }
            if (type instanceof ArrayType a) {
                return switch (pick) {
                    case 0 -> List.of(1);                     // validated, then cast to a Scala Seq: fails
                    case 1 -> a.elementType() instanceof IntegerType ? new long[] {1L} : new int[] {1};
                    default -> Map.of("k", "v");
                };
            }
            if (type instanceof MapType m) {
                return pick == 0 ? Map.of() : pick == 1 ? CollectionConverters.asScala(List.of(1)).toList() : 7;
            }
            if (type instanceof StructType) {
                return pick == 0 ? "row" : List.of();
            }
            Object[] wrongs = {1, 1L, "1", new byte[] {1}, 1.0, LocalDateTime.of(2020, 1, 1, 0, 0), BigInteger.ONE,
                    Instant.EPOCH, java.sql.Date.valueOf("2020-01-01"), (short) 1, true, java.time.Duration.ZERO,
                    java.time.Period.ZERO, new CalendarInterval(0, 0, 0)};
            while (true) {
                Object candidate = wrongs[random.nextInt(wrongs.length)];
                Object right = atomic(type);
                boolean accepted = right.getClass() == candidate.getClass()
                        || (type instanceof TimestampType && candidate instanceof Instant)
                        || (type instanceof DateType && candidate instanceof java.sql.Date);
                if (!accepted) {
                    return candidate;
                }
            }
        }

        private Object array(ArrayType type) {
            int size = random.nextInt(5);
            DataType e = type.elementType();
            if (!type.containsNull() || random.nextInt(3) == 0) {
                Object primitive = primitiveArray(e, size);
                if (primitive != null && random.nextBoolean()) {
                    return primitive;
                }
            }
            Object[] values = new Object[size];
            for (int i = 0; i < size; i++) {
                values[i] = value(e, type.containsNull());
            }
            return switch (random.nextInt(4)) {
                case 0 -> values;
                case 1 -> CollectionConverters.asScala(Arrays.asList(values)).toList();
                case 2 -> scala.collection.immutable.Vector$.MODULE$.from(CollectionConverters.asScala(Arrays.asList(values)));
                default -> scala.collection.mutable.ArraySeq$.MODULE$.make(values);
            };
        }

        private Object primitiveArray(DataType e, int size) {
            if (e instanceof BooleanType) {
                boolean[] a = new boolean[size];
                for (int i = 0; i < size; i++) a[i] = random.nextBoolean();
                return a;
            } else if (e instanceof ByteType) {
                byte[] a = new byte[size];
                for (int i = 0; i < size; i++) a[i] = (Byte) atomic(e);
                return a;
            } else if (e instanceof ShortType) {
                short[] a = new short[size];
                for (int i = 0; i < size; i++) a[i] = (Short) atomic(e);
                return a;
            } else if (e instanceof IntegerType) {
                return random.ints(size).toArray();
            } else if (e instanceof LongType) {
                return random.longs(size).toArray();
            } else if (e instanceof FloatType) {
                float[] a = new float[size];
                for (int i = 0; i < size; i++) a[i] = (Float) atomic(e);
                return a;
            } else if (e instanceof DoubleType) {
                double[] a = new double[size];
                for (int i = 0; i < size; i++) a[i] = (Double) atomic(e);
                return a;
            }
            return null;
        }

        private Object map(MapType type) {
            int size = random.nextInt(6);
            scala.collection.immutable.Map<Object, Object> map = scala.collection.immutable.Map$.MODULE$.empty();
            for (int i = 0; i < size; i++) {
                Object key = fault() ? null : value(type.keyType(), false);
                map = map.updated(key, value(type.valueType(), type.valueContainsNull()));
            }
            return map;
        }

        Object atomic(DataType type) {
            if (type instanceof BooleanType) {
                return random.nextBoolean();
            } else if (type instanceof ByteType) {
                return (byte) pickLong(Byte.MIN_VALUE, Byte.MAX_VALUE);
            } else if (type instanceof ShortType) {
                return (short) pickLong(Short.MIN_VALUE, Short.MAX_VALUE);
            } else if (type instanceof IntegerType) {
                return (int) pickLong(Integer.MIN_VALUE, Integer.MAX_VALUE);
            } else if (type instanceof LongType) {
                return pickLong(Long.MIN_VALUE, Long.MAX_VALUE);
            } else if (type instanceof FloatType) {
                float[] special = {Float.NaN, Float.intBitsToFloat(0x7fc00001), -0.0f, 0.0f, Float.MIN_VALUE,
                        Float.MAX_VALUE, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY};
                return random.nextInt(4) == 0 ? special[random.nextInt(special.length)]
                        : Float.intBitsToFloat(random.nextInt());
            } else if (type instanceof DoubleType) {
                double[] special = {Double.NaN, Double.longBitsToDouble(0x7ff8000000000001L), -0.0, 0.0,
                        Double.MIN_VALUE, Double.MAX_VALUE, Double.NEGATIVE_INFINITY};
                return random.nextInt(4) == 0 ? special[random.nextInt(special.length)]
                        : Double.longBitsToDouble(random.nextLong());
            } else if (type instanceof BinaryType) {
                byte[] bytes = new byte[random.nextInt(20)];
                for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) random.nextInt();
                return bytes;
            } else if (type instanceof DecimalType d) {
                return decimal(d);
            } else if (type instanceof DateType) {
                // years about -2700 to 6700: before 1582 and 1970 half the time
                long day = random.nextLong(-1_700_000, 1_750_000);
                LocalDate date = LocalDate.ofEpochDay(day);
                return random.nextBoolean() ? date
                        : new java.sql.Date(day * 86_400_000L + random.nextLong(-86_400_000L, 86_400_000L));
            } else if (type instanceof TimestampType) {
                long seconds = random.nextLong(-150_000_000_000L, 150_000_000_000L);
                int nanos = random.nextInt(4) == 0 ? random.nextInt(1000) * 1000 : random.nextInt(1_000_000_000);
                if (random.nextBoolean()) {
                    return Instant.ofEpochSecond(seconds, nanos);
                }
                java.sql.Timestamp ts = new java.sql.Timestamp(seconds * 1000);
                ts.setNanos(nanos);
                return ts;
            } else if (type instanceof TimestampNTZType) {
                long seconds = random.nextLong(-150_000_000_000L, 150_000_000_000L);
                return LocalDateTime.ofEpochSecond(seconds, random.nextInt(1_000_000_000), java.time.ZoneOffset.UTC);
            } else if (type instanceof DayTimeIntervalType) {
                return java.time.Duration.ofSeconds(random.nextLong(-9_000_000_000_000L, 9_000_000_000_000L),
                        random.nextInt(1_000_000_000));
            } else if (type instanceof YearMonthIntervalType) {
                return java.time.Period.of(random.nextInt(-100_000_000, 100_000_000), random.nextInt(-50, 50),
                        random.nextInt(-40, 40));
            } else if (type instanceof CalendarIntervalType) {
                return new CalendarInterval(random.nextInt(), random.nextInt(), random.nextLong());
            }
            return string();
        }

        private long pickLong(long min, long max) {
            return switch (random.nextInt(6)) {
                case 0 -> min;
                case 1 -> max;
                case 2 -> random.nextLong(-3, 4);
                default -> min + (long) (random.nextDouble() * ((double) max - min));
            };
        }

        private Object decimal(DecimalType type) {
            int digits = 1 + random.nextInt(type.precision());
            BigInteger unscaled = new BigInteger(digits * 4, new java.util.Random(random.nextLong()))
                    .mod(BigInteger.TEN.pow(digits));
            if (random.nextBoolean()) {
                unscaled = unscaled.negate();
            }
            BigDecimal value = new BigDecimal(unscaled, type.scale());
            if (random.nextInt(4) == 0) {
                // more fractional digits than the scale: Spark rounds half-up (up to an overflow, now and then)
                int extra = 1 + random.nextInt(3);
                value = value.add(new BigDecimal(BigInteger.valueOf(random.nextInt(1, 1000)), type.scale() + 3)
                        .movePointLeft(extra - 1));
            }
            return switch (random.nextInt(3)) {
                case 0 -> value;
                case 1 -> new scala.math.BigDecimal(value);
                default -> Decimal.apply(value);
            };
        }

        private String string() {
            int length = random.nextInt(12);
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < length; i++) {
                switch (random.nextInt(6)) {
                    case 0 -> out.append((char) ('a' + random.nextInt(26)));
                    case 1 -> out.append((char) random.nextInt(0x80, 0x800));
                    case 2 -> out.append((char) random.nextInt(0x800, 0xd800));
                    case 3 -> out.appendCodePoint(random.nextInt(0x10000, 0x110000));
                    case 4 -> out.append(random.nextInt(20) == 0 ? '\ud800' : '\u0000');
                    default -> out.append("žluťoučký kůň 🐎");
                }
            }
            return out.toString();
        }
    }
}
