package dev.twstester.internal;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.QueryContext;
import org.apache.spark.SparkRuntimeException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeArrayWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeWriter;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.catalyst.util.SparkDateTimeUtils$;
import org.apache.spark.sql.catalyst.util.SparkIntervalUtils$;
import org.apache.spark.sql.internal.SQLConf;
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
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.CalendarInterval;
import org.apache.spark.unsafe.types.UTF8String;

import scala.Tuple2;
import scala.collection.Iterator;
import scala.collection.mutable.Builder;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Internal, not API: may change in any release.
 *
 * <p>External {@link Row}s (what a DataFrame shows) converted to and from the bytes of an {@link UnsafeRow}
 * for a {@link StructType}, without Catalyst's analyzer, expressions or code generation. The result is what
 * Spark 4.2.0's lenient row encoder ({@code ExpressionEncoder.apply(schema, true)}, resolved and bound) and
 * {@code UnsafeProjection.create(schema)} produce, and the failures are Spark's:
 * <ul>
 *   <li>{@link #toExternal} returns {@link GenericRowWithSchema}s (also for nested structs),
 *   {@code java.sql.Date}, {@code java.sql.Timestamp}, {@code java.time.LocalDateTime} for
 *   {@code timestamp_ntz}, {@code java.math.BigDecimal}, {@code byte[]}, Scala
 *   {@code mutable.ArraySeq} for arrays and immutable Scala {@code Map}s for maps;</li>
 *   <li>{@link #fromExternal} accepts what Spark's {@code ValidateExternalType} accepts: {@code Timestamp}
 *   or {@code Instant}, {@code Date} or {@code LocalDate}, Java, Scala or Spark decimals (rounded half-up to
 *   the field's scale), Scala {@code Seq}s or Java arrays for arrays (a Java {@code List} or a Scala {@code Set}
 *   passes Spark's type check and then fails its conversion with a {@code ClassCastException}, here too), Scala
 *   {@code Map}s for maps (not Java ones), {@link Row}s for structs; and fails with Spark's exceptions ({@code EXPRESSION_ENCODING_FAILED} around
 *   {@code INVALID_EXTERNAL_TYPE}, {@code NUMERIC_VALUE_OUT_OF_RANGE}, {@code NULL_MAP_KEY}, a null in a
 *   non-nullable field, ...; {@code NOT_NULL_ASSERT_VIOLATION} unwrapped).</li>
 * </ul>
 * Types other than the atomic ones (boolean to double, string, binary, decimal, date, timestamp,
 * timestamp_ntz, the three interval types as {@code Duration}, {@code Period} and {@code CalendarInterval}),
 * arrays, maps and structs are not covered: check {@link #supports(StructType)} first
 * (the conversions throw {@link UnsupportedOperationException} naming the type) and use Catalyst's encoder.
 *
 * <p>Thread-safe: a schema's conversion plan is built once and shared.
 *
 * <p>Faults are checked in the order Spark's generated code evaluates them (fields in order, depth first; a map
 * entry's key, its null check, then its value), so a row holding several faults fails on the same one.
 *
 * <p>Known difference: a null {@code CalendarInterval} in a struct field keeps 16 bytes that Spark leaves as its
 * reused buffer held them (stale bytes of an earlier row); this class zeroes them.
 */
final class ExternalRows {
    private ExternalRows() {}

    private static final SparkDateTimeUtils$ TIME = SparkDateTimeUtils$.MODULE$;
    private static final SparkIntervalUtils$ INTERVALS = SparkIntervalUtils$.MODULE$;
    private static final String TOP_ROW = "assertnotnull(input[0, org.apache.spark.sql.Row, true])";

    /** Whether every field of {@code schema}, at any depth, has a type this class converts. */
    public static boolean supports(StructType schema) {
        Objects.requireNonNull(schema, "schema must not be null");
        return unsupported(schema) == null;
    }

    /**
     * The external row Spark's row encoder deserializes from {@code row}, a row of {@code schema}: a
     * {@link GenericRowWithSchema} holding the default external types.
     *
     * @throws UnsupportedOperationException if {@code schema} holds a type this class does not cover
     */
    public static Row toExternal(UnsafeRow row, StructType schema) {
        Objects.requireNonNull(row, "row must not be null");
        plan(schema);
        return readStruct(row, schema);
    }

    /**
     * The bytes of the {@link UnsafeRow} Spark's lenient row encoder and {@code UnsafeProjection} make of
     * {@code row} for {@code schema}; fails where and as that encoder fails.
     *
     * @throws UnsupportedOperationException if {@code schema} holds a type this class does not cover
     */
    public static byte[] fromExternal(Row row, StructType schema) {
        StructNode plan = plan(schema);
        if (row == null) {
            throw notNullViolation("\ntop level Product or row object\n");
        }
        Object[] values;
        try {
            values = plan.serializeFields(row);
        } catch (SparkRuntimeException e) {
            if ("NOT_NULL_ASSERT_VIOLATION".equals(e.getCondition())) {
                throw e;
            }
            throw encodingFailed(e, plan);
        } catch (RuntimeException e) {
            throw encodingFailed(e, plan);
        }
        UnsafeRowWriter writer = plan.writer();
        writer.reset();
        writer.zeroOutNullBytes();
        plan.writeFields(writer, values);
        return Arrays.copyOf(writer.getBuffer(), writer.totalSize());
    }

    // ---------------------------------------------------------------- plans

    private static final Map<StructType, StructNode> PLANS = new ConcurrentHashMap<>();

    /** The last schema's plan, found by identity: hashing a StructType walks all of it. */
    private static volatile Last last;

    private record Last(StructType schema, StructNode plan) {}

    private static StructNode plan(StructType schema) {
        Objects.requireNonNull(schema, "schema must not be null");
        Last cached = last;
        if (cached != null && cached.schema == schema) {
            return cached.plan;
        }
        StructNode plan = PLANS.get(schema);
        if (plan == null) {
            DataType bad = unsupported(schema);
            if (bad != null) {
                throw new UnsupportedOperationException("twstester converts external rows of atomic, interval, "
                        + "array, map and struct types natively, not " + bad.sql() + " (in " + schema.sql()
                        + "); convert it with Spark's encoder (ExpressionEncoder.apply(schema, true)) instead");
            }
            plan = new StructNode(schema, new Source.Top(), new int[] {0});
            PLANS.putIfAbsent(schema, plan);
        }
        last = new Last(schema, plan);
        return plan;
    }

    private static DataType unsupported(DataType type) {
        if (type instanceof StructType struct) {
            for (StructField field : struct.fields()) {
                DataType bad = unsupported(field.dataType());
                if (bad != null) {
                    return bad;
                }
            }
            return null;
        }
        if (type instanceof ArrayType array) {
            return unsupported(array.elementType());
        }
        if (type instanceof MapType map) {
            DataType bad = unsupported(map.keyType());
            return bad != null ? bad : unsupported(map.valueType());
        }
        boolean atomic = type instanceof BooleanType || type instanceof ByteType || type instanceof ShortType
                || type instanceof IntegerType || type instanceof LongType || type instanceof FloatType
                || type instanceof DoubleType || DataTypes.StringType.equals(type) || type instanceof BinaryType
                || type instanceof DecimalType || type instanceof DateType || type instanceof TimestampType
                || type instanceof TimestampNTZType || type instanceof CalendarIntervalType
                || type instanceof DayTimeIntervalType || type instanceof YearMonthIntervalType;
        return atomic ? null : type;
    }

    /** Spark's {@code nullOnOverflow} of {@code CheckOverflow}: decimals overflow to null unless ANSI mode is on. */
    private static boolean ansiEnabled() {
        SparkLogs.simulator();
        return SQLConf.get().ansiEnabled();
    }

    /**
     * Where a value comes from, rendered as the Catalyst expression Spark's {@code INVALID_EXTERNAL_TYPE}
     * names ({@code getexternalrowfield(...)}, {@code lambdavariable(...)}); only rendered on failure.
     */
    private abstract static sealed class Source permits Source.Top, Source.Field, Source.Lambda {
        abstract String sql();

        static final class Top extends Source {
            @Override
            String sql() {
                return TOP_ROW;
            }
        }

        static final class Field extends Source {
            private final Node parentStruct;
            private final int index;
            private final String name;

            Field(Node parentStruct, int index, String name) {
                this.parentStruct = parentStruct;
                this.index = index;
                this.name = name;
            }

            @Override
            String sql() {
                String row = parentStruct.source instanceof Top ? TOP_ROW : parentStruct.validatedSql();
                return "getexternalrowfield(" + row + ", " + index + ", " + name + ")";
            }
        }

        static final class Lambda extends Source {
            private final String name;
            private final boolean nullable;
            private final int id;

            Lambda(String name, boolean nullable, int id) {
                this.name = name;
                this.nullable = nullable;
                this.id = id;
            }

            @Override
            String sql() {
                return "lambdavariable(" + name + ", ObjectType(class java.lang.Object), " + nullable + ", -" + id + ")";
            }
        }
    }

    /** One value position of the schema: validates an external value, converts it, writes it. */
    private abstract static class Node {
        final DataType type;
        final Source source;

        Node(DataType type, Source source) {
            this.type = type;
            this.source = source;
        }

        /** {@code value} (not null) in Catalyst's internal form, or null where Spark's conversion yields null. */
        abstract Object serialize(Object value);

        /** Writes a non-null internal value at {@code ordinal}. */
        abstract void write(UnsafeWriter writer, int ordinal, Object value);

        /** Bytes an array of this element type reserves per element (GenerateUnsafeProjection's rule). */
        int elementSize() {
            return 8;
        }

        /** The external class Spark's lenient encoder declares, as {@code ValidateExternalType} prints it. */
        abstract String externalTypeSql();

        final String validatedSql() {
            DataType type = encoderType(this.type);
            String expected = type instanceof StructType struct
                    ? String.join(", ", Arrays.stream(struct.fields()).map(StructField::toString).toList())
                    : type.toString();
            return "validateexternaltype(" + source.sql() + ", " + expected + ", " + externalTypeSql() + ")";
        }

        final SparkRuntimeException invalidType(Object value) {
            return sparkRuntime("INVALID_EXTERNAL_TYPE", null,
                    "externalType", value.getClass().getName(),
                    "type", "\"" + encoderType(type).sql() + "\"",
                    "expr", "\"" + source.sql() + "\"");
        }
    }

    /**
     * The type Spark's row encoder declares for {@code type}, as its errors name it: every day-time interval
     * is {@code INTERVAL DAY TO SECOND} and every year-month one {@code INTERVAL YEAR TO MONTH}.
     */
    static DataType encoderType(DataType type) {
        if (type instanceof DayTimeIntervalType) {
            return DayTimeIntervalType.apply();
        }
        if (type instanceof YearMonthIntervalType) {
            return YearMonthIntervalType.apply();
        }
        if (type instanceof ArrayType array) {
            return new ArrayType(encoderType(array.elementType()), array.containsNull());
        }
        if (type instanceof MapType map) {
            return new MapType(encoderType(map.keyType()), encoderType(map.valueType()), map.valueContainsNull());
        }
        if (type instanceof StructType struct) {
            return new StructType(Arrays.stream(struct.fields())
                    .map(f -> new StructField(f.name(), encoderType(f.dataType()), f.nullable(), f.metadata()))
                    .toArray(StructField[]::new));
        }
        return type;
    }

    private static Node node(DataType type, Source source, int[] lambdaIds) {
        if (type instanceof StructType struct) {
            return new StructNode(struct, source, lambdaIds);
        }
        if (type instanceof ArrayType array) {
            return new ArrayNode(array, source, lambdaIds);
        }
        if (type instanceof MapType map) {
            return new MapNode(map, source, lambdaIds);
        }
        if (type instanceof DecimalType decimal) {
            return new DecimalNode(decimal, source);
        }
        return new AtomicNode(type, source);
    }

    private static final class AtomicNode extends Node {
        private final Class<?> external;
        private final int size;

        AtomicNode(DataType type, Source source) {
            super(type, source);
            if (type instanceof BooleanType) {
                external = Boolean.class;
            } else if (type instanceof ByteType) {
                external = Byte.class;
            } else if (type instanceof ShortType) {
                external = Short.class;
            } else if (type instanceof IntegerType) {
                external = Integer.class;
            } else if (type instanceof LongType) {
                external = Long.class;
            } else if (type instanceof FloatType) {
                external = Float.class;
            } else if (type instanceof DoubleType) {
                external = Double.class;
            } else if (type instanceof BinaryType) {
                external = byte[].class;
            } else if (type instanceof TimestampNTZType) {
                external = java.time.LocalDateTime.class;
            } else if (type instanceof DayTimeIntervalType) {
                external = java.time.Duration.class;
            } else if (type instanceof YearMonthIntervalType) {
                external = java.time.Period.class;
            } else if (type instanceof CalendarIntervalType) {
                external = CalendarInterval.class;
            } else if (type instanceof DateType || type instanceof TimestampType) {
                external = Object.class;
            } else {
                external = String.class;
            }
            // an array's slot: the value of a primitive (Java) type, else an offset and size
            size = type instanceof BinaryType || DataTypes.StringType.equals(type) || type instanceof CalendarIntervalType
                    ? 8 : type.defaultSize();
        }

        @Override
        Object serialize(Object value) {
            if (type instanceof DateType) {
                if (value instanceof java.sql.Date || value instanceof java.time.LocalDate) {
                    return TIME.anyToDays(value);
                }
                throw invalidType(value);
            }
            if (type instanceof TimestampType) {
                if (value instanceof java.sql.Timestamp || value instanceof java.time.Instant) {
                    return SparkTimes.anyToMicros(value);
                }
                throw invalidType(value);
            }
            if (!external.isInstance(value)) {
                throw invalidType(value);
            }
            if (value instanceof String s) {
                return UTF8String.fromString(s);
            }
            if (value instanceof java.time.LocalDateTime t) {
                return TIME.localDateTimeToMicros(t);
            }
            if (value instanceof java.time.Duration d) {
                return INTERVALS.durationToMicros(d);
            }
            if (value instanceof java.time.Period p) {
                return INTERVALS.periodToMonths(p);
            }
            return value;
        }

        @Override
        void write(UnsafeWriter writer, int ordinal, Object value) {
            if (value instanceof Boolean v) {
                writer.write(ordinal, (boolean) v);
            } else if (value instanceof Byte v) {
                writer.write(ordinal, (byte) v);
            } else if (value instanceof Short v) {
                writer.write(ordinal, (short) v);
            } else if (value instanceof Integer v) {
                writer.write(ordinal, (int) v);
            } else if (value instanceof Long v) {
                writer.write(ordinal, (long) v);
            } else if (value instanceof Float v) {
                writer.write(ordinal, (float) v);
            } else if (value instanceof Double v) {
                writer.write(ordinal, (double) v);
            } else if (value instanceof UTF8String v) {
                writer.write(ordinal, v);
            } else if (value instanceof CalendarInterval v) {
                writer.write(ordinal, v);
            } else {
                writer.write(ordinal, (byte[]) value);
            }
        }

        @Override
        int elementSize() {
            return size;
        }

        @Override
        String externalTypeSql() {
            return type instanceof BinaryType || type instanceof CalendarIntervalType ? type.toString()
                    : "ObjectType(" + external + ")";
        }
    }

    private static final class DecimalNode extends Node {
        private final int precision;
        private final int scale;

        DecimalNode(DecimalType type, Source source) {
            super(type, source);
            this.precision = type.precision();
            this.scale = type.scale();
        }

        @Override
        Object serialize(Object value) {
            if (!(value instanceof java.math.BigDecimal || value instanceof scala.math.BigDecimal
                    || value instanceof Decimal)) {
                throw invalidType(value);
            }
            // Decimal.fromDecimal, then CheckOverflow: half-up to the scale, null or (ANSI mode) an error on overflow
            Decimal decimal = Decimal.fromDecimal(value);
            Decimal rounded = decimal.toPrecision(precision, scale, Decimal.ROUND_HALF_UP(), true, null);
            if (rounded == null && ansiEnabled()) {
                decimal.toPrecision(precision, scale, Decimal.ROUND_HALF_UP(), false, null);   // throws Spark's error
            }
            return rounded;
        }

        @Override
        void write(UnsafeWriter writer, int ordinal, Object value) {
            writer.write(ordinal, (Decimal) value, precision, scale);
        }

        @Override
        String externalTypeSql() {
            return "ObjectType(class java.lang.Object)";
        }
    }

    private static final class StructNode extends Node {
        final StructField[] fields;
        final Node[] children;
        /** The top-level row's writer, one per thread: its buffer keeps its size from row to row. */
        private final ThreadLocal<UnsafeRowWriter> writers;

        StructNode(StructType type, Source source, int[] lambdaIds) {
            super(type, source);
            this.fields = type.fields();
            this.children = new Node[fields.length];
            for (int i = 0; i < fields.length; i++) {
                children[i] = node(fields[i].dataType(), new Source.Field(this, i, fields[i].name()), lambdaIds);
            }
            int width = fields.length;
            this.writers = source instanceof Source.Top ? ThreadLocal.withInitial(() -> new UnsafeRowWriter(width, 64))
                    : null;
        }

        UnsafeRowWriter writer() {
            return writers.get();
        }

        @Override
        Object serialize(Object value) {
            if (!(value instanceof Row row)) {
                throw invalidType(value);
            }
            return serializeFields(row);
        }

        /** RowEncoder's serializer: field by field, in order, each validated then converted. */
        Object[] serializeFields(Row row) {
            Object[] out = new Object[fields.length];
            for (int i = 0; i < fields.length; i++) {
                boolean nullable = fields[i].nullable();
                if (nullable && row.isNullAt(i)) {
                    continue;
                }
                // GetExternalRowField
                if (row.isNullAt(i)) {
                    throw new RuntimeException("The " + i + "th field '" + fields[i].name()
                            + "' of input row cannot be null.");
                }
                Object converted = children[i].serialize(row.get(i));
                if (converted == null && !nullable) {
                    throw notNullViolation("\n\n");
                }
                out[i] = converted;
            }
            return out;
        }

        void writeFields(UnsafeRowWriter writer, Object[] values) {
            for (int i = 0; i < fields.length; i++) {
                Object value = values[i];
                if (value != null) {
                    children[i].write(writer, i, value);
                } else if (children[i] instanceof DecimalNode d && d.precision > Decimal.MAX_LONG_DIGITS()) {
                    // GenerateUnsafeProjection cannot call setNullAt for a wide decimal: it keeps its 16 bytes
                    writer.write(i, (Decimal) null, d.precision, d.scale);
                } else if (children[i].type instanceof CalendarIntervalType) {
                    // as GenerateUnsafeProjection: 16 bytes kept for the null interval; Spark leaves whatever its
                    // reused buffer held there, this class zeroes them
                    writer.write(i, (CalendarInterval) null);
                    Platform.putLong(writer.getBuffer(), writer.cursor() - 16, 0L);
                    Platform.putLong(writer.getBuffer(), writer.cursor() - 8, 0L);
                } else {
                    writer.setNullAt(i);
                }
            }
        }

        @Override
        void write(UnsafeWriter writer, int ordinal, Object value) {
            int previousCursor = writer.cursor();
            UnsafeRowWriter nested = new UnsafeRowWriter(writer, fields.length);
            nested.resetRowWriter();
            writeFields(nested, (Object[]) value);
            writer.setOffsetAndSizeFromPreviousCursor(ordinal, previousCursor);
        }

        @Override
        String externalTypeSql() {
            return "ObjectType(interface org.apache.spark.sql.Row)";
        }
    }

    /** A primitive Java array Spark copies as is ({@code ArrayData.toArrayData}). */
    private record PrimitiveArray(Object array) {}

    private static final class ArrayNode extends Node {
        private final Node element;
        private final boolean containsNull;
        private final Class<?> primitiveArray;

        ArrayNode(ArrayType type, Source source, int[] lambdaIds) {
            super(type, source);
            int id = ++lambdaIds[0];
            this.element = node(type.elementType(), new Source.Lambda("MapObject", true, id), lambdaIds);
            this.containsNull = type.containsNull();
            DataType e = type.elementType();
            primitiveArray = e instanceof BooleanType ? boolean[].class
                    : e instanceof ByteType ? byte[].class
                    : e instanceof ShortType ? short[].class
                    : e instanceof IntegerType ? int[].class
                    : e instanceof LongType ? long[].class
                    : e instanceof FloatType ? float[].class
                    : e instanceof DoubleType ? double[].class
                    : null;
        }

        @Override
        Object serialize(Object value) {
            if (!(value.getClass().isArray() || value instanceof scala.collection.Seq
                    || value instanceof scala.collection.immutable.Set || value instanceof java.util.List)) {
                throw invalidType(value);
            }
            if (primitiveArray != null && primitiveArray.isInstance(value)) {
                return new PrimitiveArray(value);
            }
            // MapObjects over an input of ObjectType(Object): an Object[], else a Scala Seq (casts as Spark's do)
            Object[] out;
            if (value.getClass().isArray()) {
                Object[] in = (Object[]) value;
                out = new Object[in.length];
                for (int i = 0; i < in.length; i++) {
                    out[i] = element(in[i]);
                }
            } else {
                scala.collection.Seq<?> in = (scala.collection.Seq<?>) value;
                out = new Object[in.length()];
                Iterator<?> it = in.iterator();
                for (int i = 0; it.hasNext(); i++) {
                    out[i] = element(it.next());
                }
            }
            return out;
        }

        private Object element(Object value) {
            Object converted = value == null ? null : element.serialize(value);
            if (converted == null && !containsNull) {
                throw notNullViolation("\n\n");
            }
            return converted;
        }

        @Override
        void write(UnsafeWriter writer, int ordinal, Object value) {
            int previousCursor = writer.cursor();
            writeArray(writer, element, containsNull, value);
            writer.setOffsetAndSizeFromPreviousCursor(ordinal, previousCursor);
        }

        @Override
        String externalTypeSql() {
            return "ObjectType(class java.lang.Object)";
        }
    }

    private record MapEntries(Object[] keys, Object[] values) {}

    private static final class MapNode extends Node {
        private final Node key;
        private final Node value;
        private final boolean valueContainsNull;

        MapNode(MapType type, Source source, int[] lambdaIds) {
            super(type, source);
            int keyId = ++lambdaIds[0];
            this.key = node(type.keyType(), new Source.Lambda("ExternalMapToCatalyst_key", true, keyId), lambdaIds);
            int valueId = ++lambdaIds[0];
            this.valueContainsNull = type.valueContainsNull();
            this.value = node(type.valueType(),
                    new Source.Lambda("ExternalMapToCatalyst_value", valueContainsNull, valueId), lambdaIds);
        }

        @Override
        Object serialize(Object external) {
            if (!(external instanceof scala.collection.Map<?, ?> map)) {
                throw invalidType(external);
            }
            // ExternalMapToCatalyst: per entry the key, the null-key check, then the value
            int size = map.size();
            Object[] keys = new Object[size];
            Object[] values = new Object[size];
            Iterator<? extends Tuple2<?, ?>> entries = map.iterator();
            for (int i = 0; entries.hasNext(); i++) {
                Tuple2<?, ?> entry = entries.next();
                Object k = entry._1() == null ? null : key.serialize(entry._1());
                if (k == null) {
                    throw sparkRuntime("NULL_MAP_KEY", null);
                }
                Object v = entry._2();
                if (v == null && !valueContainsNull) {
                    // Spark's generated code calls getClass() on the value it declared non-null
                    throw new NullPointerException("Cannot invoke \"Object.getClass()\" because the value of the "
                            + "map entry for key " + entry._1() + " is null");
                }
                v = v == null ? null : value.serialize(v);
                if (v == null && !valueContainsNull) {
                    throw notNullViolation("\n\n");
                }
                keys[i] = k;
                values[i] = v;
            }
            return new MapEntries(keys, values);
        }

        @Override
        void write(UnsafeWriter writer, int ordinal, Object internal) {
            MapEntries map = (MapEntries) internal;
            int previousCursor = writer.cursor();
            // 8 bytes for the key array's size, written once the key array is
            writer.grow(8);
            writer.increaseCursor(8);
            int keysStart = writer.cursor();
            writeArray(writer, key, false, map.keys());
            Platform.putLong(writer.getBuffer(), keysStart - 8, writer.cursor() - keysStart);
            writeArray(writer, value, valueContainsNull, map.values());
            writer.setOffsetAndSizeFromPreviousCursor(ordinal, previousCursor);
        }

        @Override
        String externalTypeSql() {
            return "ObjectType(interface scala.collection.Map)";
        }
    }

    /** GenerateUnsafeProjection's {@code writeArrayToBuffer}, at the writer's cursor. */
    private static void writeArray(UnsafeWriter parent, Node element, boolean containsNull, Object internal) {
        if (internal instanceof PrimitiveArray primitive) {
            parent.write((UnsafeArrayData) ArrayData.toArrayData(primitive.array()));
            return;
        }
        Object[] values = (Object[]) internal;
        int size = element.elementSize();
        UnsafeArrayWriter writer = new UnsafeArrayWriter(parent, size);
        writer.initialize(values.length);
        for (int i = 0; i < values.length; i++) {
            Object value = values[i];
            if (value != null) {
                element.write(writer, i, value);
            } else if (containsNull) {
                switch (size) {
                    case 1 -> writer.setNull1Bytes(i);
                    case 2 -> writer.setNull2Bytes(i);
                    case 4 -> writer.setNull4Bytes(i);
                    default -> writer.setNull8Bytes(i);
                }
            }
        }
    }

    // ---------------------------------------------------------------- reading

    private static GenericRowWithSchema readStruct(InternalRow row, StructType schema) {
        StructField[] fields = schema.fields();
        Object[] values = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            values[i] = row.isNullAt(i) ? null : read(row, i, fields[i].dataType());
        }
        return new GenericRowWithSchema(values, schema);
    }

    private static Object read(SpecializedGetters data, int i, DataType type) {
        if (type instanceof BooleanType) {
            return data.getBoolean(i);
        } else if (type instanceof ByteType) {
            return data.getByte(i);
        } else if (type instanceof ShortType) {
            return data.getShort(i);
        } else if (type instanceof IntegerType) {
            return data.getInt(i);
        } else if (type instanceof LongType) {
            return data.getLong(i);
        } else if (type instanceof FloatType) {
            return data.getFloat(i);
        } else if (type instanceof DoubleType) {
            return data.getDouble(i);
        } else if (type instanceof BinaryType) {
            return data.getBinary(i);
        } else if (type instanceof DecimalType d) {
            return data.getDecimal(i, d.precision(), d.scale()).toJavaBigDecimal();
        } else if (type instanceof DateType) {
            return TIME.toJavaDate(data.getInt(i));
        } else if (type instanceof TimestampType) {
            return SparkTimes.toJavaTimestamp(data.getLong(i));
        } else if (type instanceof TimestampNTZType) {
            return TIME.microsToLocalDateTime(data.getLong(i));
        } else if (type instanceof DayTimeIntervalType) {
            return INTERVALS.microsToDuration(data.getLong(i));
        } else if (type instanceof YearMonthIntervalType) {
            return INTERVALS.monthsToPeriod(data.getInt(i));
        } else if (type instanceof CalendarIntervalType) {
            return data.getInterval(i);
        } else if (type instanceof StructType struct) {
            return readStruct(data.getStruct(i, struct.length()), struct);
        } else if (type instanceof ArrayType array) {
            return scala.collection.mutable.ArraySeq$.MODULE$.make(readArray(data.getArray(i), array.elementType()));
        } else if (type instanceof MapType map) {
            return readMap(data.getMap(i), map);
        }
        return data.getUTF8String(i).toString();
    }

    private static Object[] readArray(ArrayData array, DataType elementType) {
        Object[] out = new Object[array.numElements()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.isNullAt(i) ? null : read(array, i, elementType);
        }
        return out;
    }

    private static scala.collection.immutable.Map<Object, Object> readMap(MapData map, MapType type) {
        Object[] keys = readArray(map.keyArray(), type.keyType());
        Object[] values = readArray(map.valueArray(), type.valueType());
        Builder<Tuple2<Object, Object>, scala.collection.immutable.Map<Object, Object>> builder =
                scala.collection.immutable.Map$.MODULE$.newBuilder();
        for (int i = 0; i < keys.length; i++) {
            builder.addOne(new Tuple2<>(keys[i], values[i]));
        }
        return builder.result();
    }

    // ---------------------------------------------------------------- errors

    /** Spark's {@code AssertNotNull}: the walked type path, one line each, framed by line breaks. */
    private static SparkRuntimeException notNullViolation(String walkedTypePath) {
        return sparkRuntime("NOT_NULL_ASSERT_VIOLATION", null, "walkedTypePath", walkedTypePath);
    }

    private static SparkRuntimeException encodingFailed(Exception cause, StructNode plan) {
        return sparkRuntime("EXPRESSION_ENCODING_FAILED", cause,
                "expressions", "the lenient row encoder's serializer of " + plan.type.sql()
                        + " (the external row converted natively by twstester)");
    }

    private static SparkRuntimeException sparkRuntime(String condition, Throwable cause, String... keyValues) {
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            params.put(keyValues[i], keyValues[i + 1]);
        }
        return new SparkRuntimeException(condition,
                scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(params)),
                cause, new QueryContext[0], "");
    }
}
