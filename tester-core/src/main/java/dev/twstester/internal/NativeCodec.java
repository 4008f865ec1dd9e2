package dev.twstester.internal;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.QueryContext;
import org.apache.spark.SparkRuntimeException;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.encoders.AgnosticEncoder;
import org.apache.spark.sql.catalyst.encoders.AgnosticEncoders;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeArrayWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeWriter;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.catalyst.util.SparkDateTimeUtils$;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.hash.Murmur3_x86_32;
import org.apache.spark.unsafe.types.UTF8String;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The native codec: walks the encoder's {@code AgnosticEncoder} tree once into a tree of
 * {@link Node}s, then writes values with Spark's {@code UnsafeRowWriter} / {@code UnsafeArrayWriter}
 * in the layout of {@code GenerateUnsafeProjection}, converting as {@code SerializerBuildHelper} /
 * {@code DeserializerBuildHelper} do. Flat strings and boxed integers take a hand-written fast path
 * (the same bytes). Stateless per call: thread-safe.
 */
final class NativeCodec<T> extends RowCodec<T> {
    private static final SparkDateTimeUtils$ DTU = SparkDateTimeUtils$.MODULE$;
    private static final String PREFIX = "org.apache.spark.sql.catalyst.encoders.AgnosticEncoders$";
    private static final int HEADER = 16;

    /** What {@link #plan} found: the node tree, or why the encoder is not covered. */
    record Plan(Node root, boolean struct, String reason) {}

    private final Node root;
    private final boolean struct;
    private final StructType schema;
    private final Flat flat;
    private final Comparator<UnsafeRow> ordering;
    private final String description;
    private final ValueHash[] hashes;
    private volatile CatalystCodec<T> catalyst;
    private volatile Comparator<InternalRow> interpreted;

    NativeCodec(Encoder<T> encoder, Plan plan) {
        super(encoder);
        this.root = plan.root();
        this.struct = plan.struct();
        this.schema = encoder.schema();
        this.flat = struct ? null : Flat.of(root);
        this.ordering = orderable(schema) ? rowOrdering(schema) : null;
        this.description = encoder.clsTag().runtimeClass().getName();
        StructField[] columns = schema.fields();
        this.hashes = new ValueHash[columns.length];
        for (int i = 0; i < columns.length; i++) {
            hashes[i] = valueHash(columns[i].dataType());
        }
    }

    /** The hand-written fast path, or null. */
    Flat flat() {
        return flat;
    }

    // ---------------------------------------------------------------- plan

    /** The node tree for {@code encoder}, or the reason it needs Spark's encoder. */
    static Plan plan(Encoder<?> encoder) {
        if (!(encoder instanceof AgnosticEncoder<?> agnostic)) {
            return new Plan(null, false, "not an AgnosticEncoder (" + encoder.getClass().getName() + ")");
        }
        try {
            boolean struct = agnostic instanceof AgnosticEncoders.JavaBeanEncoder<?>
                    || agnostic instanceof AgnosticEncoders.ProductEncoder<?>;
            return new Plan(node(agnostic, "value"), struct, null);
        } catch (Uncovered u) {
            return new Plan(null, false, u.getMessage());
        } catch (RuntimeException e) {
            return new Plan(null, false, "the native path cannot read this encoder: " + e);
        }
    }

    /** An encoder part the native path does not cover. */
    private static final class Uncovered extends RuntimeException {
        Uncovered(String where, AgnosticEncoder<?> enc, String why) {
            super(where + ": " + kind(enc) + (why == null ? "" : " (" + why + ")"), null, false, false);
        }
    }

    private static String kind(AgnosticEncoder<?> enc) {
        String name = enc.getClass().getName();
        name = name.startsWith(PREFIX) ? name.substring(PREFIX.length()) : enc.getClass().getSimpleName();
        if (name.endsWith("$")) {
            name = name.substring(0, name.length() - 1);
        }
        if (enc instanceof AgnosticEncoders.TransformingEncoder<?, ?> t) {
            String codec = t.codecProvider().apply().getClass().getSimpleName();
            return name + " of " + t.clsTag().runtimeClass().getName() + " through " + codec;
        }
        return name;
    }

    private static Node node(AgnosticEncoder<?> enc, String where) {
        String name = enc.getClass().getName();
        String k = name.startsWith(PREFIX) ? name.substring(PREFIX.length()) : "";
        switch (k) {
            case "PrimitiveBooleanEncoder$": return new Leaf(Leaf.BOOLEAN, DataTypes.BooleanType, false, boolean.class, Boolean.class);
            case "PrimitiveByteEncoder$": return new Leaf(Leaf.BYTE, DataTypes.ByteType, false, byte.class, Byte.class);
            case "PrimitiveShortEncoder$": return new Leaf(Leaf.SHORT, DataTypes.ShortType, false, short.class, Short.class);
            case "PrimitiveIntEncoder$": return new Leaf(Leaf.INT, DataTypes.IntegerType, false, int.class, Integer.class);
            case "PrimitiveLongEncoder$": return new Leaf(Leaf.LONG, DataTypes.LongType, false, long.class, Long.class);
            case "PrimitiveFloatEncoder$": return new Leaf(Leaf.FLOAT, DataTypes.FloatType, false, float.class, Float.class);
            case "PrimitiveDoubleEncoder$": return new Leaf(Leaf.DOUBLE, DataTypes.DoubleType, false, double.class, Double.class);
            case "BoxedBooleanEncoder$": return new Leaf(Leaf.BOOLEAN, DataTypes.BooleanType, true, Boolean.class, Boolean.class);
            case "BoxedByteEncoder$": return new Leaf(Leaf.BYTE, DataTypes.ByteType, true, Byte.class, Byte.class);
            case "BoxedShortEncoder$": return new Leaf(Leaf.SHORT, DataTypes.ShortType, true, Short.class, Short.class);
            case "BoxedIntEncoder$": return new Leaf(Leaf.INT, DataTypes.IntegerType, true, Integer.class, Integer.class);
            case "BoxedLongEncoder$": return new Leaf(Leaf.LONG, DataTypes.LongType, true, Long.class, Long.class);
            case "BoxedFloatEncoder$": return new Leaf(Leaf.FLOAT, DataTypes.FloatType, true, Float.class, Float.class);
            case "BoxedDoubleEncoder$": return new Leaf(Leaf.DOUBLE, DataTypes.DoubleType, true, Double.class, Double.class);
            case "StringEncoder$": return new Leaf(Leaf.STRING, DataTypes.StringType, true, String.class, String.class);
            case "BinaryEncoder$": return new Leaf(Leaf.BINARY, DataTypes.BinaryType, true, byte[].class, byte[].class);
            case "LocalDateTimeEncoder$":
                return new Leaf(Leaf.LOCAL_DATE_TIME, DataTypes.TimestampNTZType, true, LocalDateTime.class, LocalDateTime.class);
            case "JavaBigIntEncoder$": return new DecimalLeaf((DecimalType) enc.dataType(), true);
            default:
                break;
        }
        if (enc.lenientSerialization() && !(enc instanceof AgnosticEncoders.IterableEncoder<?, ?>)) {
            throw new Uncovered(where, enc, "lenient serialization");
        }
        if (enc instanceof AgnosticEncoders.TimestampEncoder) {
            return new Leaf(Leaf.TIMESTAMP, DataTypes.TimestampType, true, Timestamp.class, Timestamp.class);
        }
        if (enc instanceof AgnosticEncoders.InstantEncoder) {
            return new Leaf(Leaf.INSTANT, DataTypes.TimestampType, true, Instant.class, Instant.class);
        }
        if (enc instanceof AgnosticEncoders.DateEncoder) {
            return new Leaf(Leaf.DATE, DataTypes.DateType, true, Date.class, Date.class);
        }
        if (enc instanceof AgnosticEncoders.LocalDateEncoder) {
            return new Leaf(Leaf.LOCAL_DATE, DataTypes.DateType, true, LocalDate.class, LocalDate.class);
        }
        if (enc instanceof AgnosticEncoders.JavaDecimalEncoder d) {
            return new DecimalLeaf(d.dt(), false);
        }
        if (enc instanceof AgnosticEncoders.JavaEnumEncoder<?> e) {
            return new EnumLeaf(e.clsTag().runtimeClass());
        }
        if (enc instanceof AgnosticEncoders.ArrayEncoder<?> a) {
            AgnosticEncoder<?> element = a.element();
            if (element.isPrimitive()) {
                return new PrimitiveArray(node(element, where + "[]"), enc.clsTag().runtimeClass());
            }
            return new ArrayNode(node(element, where + "[]"), a.containsNull(), enc.clsTag().runtimeClass(), true,
                    (ArrayType) a.dataType());
        }
        if (enc instanceof AgnosticEncoders.IterableEncoder<?, ?> it) {
            Class<?> cls = it.clsTag().runtimeClass();
            if (it.lenientSerialization()) {
                throw new Uncovered(where, enc, "lenient serialization");
            }
            if (cls != List.class && cls != ArrayList.class) {
                throw new Uncovered(where, enc, cls.getName() + "; only java.util.List is native");
            }
            return new ArrayNode(node(it.element(), where + "[]"), it.containsNull(), cls, false,
                    (ArrayType) it.dataType());
        }
        if (enc instanceof AgnosticEncoders.MapEncoder<?, ?, ?> m) {
            Class<?> cls = m.clsTag().runtimeClass();
            if (cls != Map.class) {
                throw new Uncovered(where, enc, cls.getName() + "; only java.util.Map is native");
            }
            return new MapNode(node(m.keyEncoder(), where + ".key"), m.keyEncoder().nullable(),
                    node(m.valueEncoder(), where + ".value"), m.valueContainsNull(), (MapType) m.dataType());
        }
        if (enc instanceof AgnosticEncoders.JavaBeanEncoder<?> bean) {
            return StructNode.bean(bean, where);
        }
        if (enc instanceof AgnosticEncoders.ProductEncoder<?> product) {
            Class<?> cls = product.clsTag().runtimeClass();
            if (!cls.getName().matches("scala\\.Tuple\\d+") || product.outerPointerGetter().isDefined()) {
                throw new Uncovered(where, enc, cls.getName() + ": a Scala case class");
            }
            return StructNode.tuple(product, where);
        }
        throw new Uncovered(where, enc, null);
    }

    // ---------------------------------------------------------------- nodes

    /** One part of the encoder: how a non-null external value is written and read back. */
    abstract static class Node {
        final DataType type;
        /** The external class Spark's {@code ValidateExternalType} expects of a collection element. */
        final Class<?> external;

        Node(DataType type, Class<?> external) {
            this.type = type;
            this.external = external;
        }

        /** Writes the non-null {@code value} at {@code ordinal}. */
        abstract void write(UnsafeWriter w, int ordinal, Object value);

        /** A null field of a row. */
        void writeNull(UnsafeRowWriter w, int ordinal) {
            w.setNullAt(ordinal);
        }

        /** Bytes per array element (8: offset and size, for variable-length types). */
        int elementSize() {
            return 8;
        }

        /** The non-null value at {@code ordinal}, as a new external object. */
        abstract Object read(SpecializedGetters data, int ordinal);

        /** Spark's {@code ValidateExternalType} for a collection element of this type. */
        void validate(Object element) {
            if (!external.isInstance(element)) {
                throw invalidExternalType(element);
            }
        }

        /** {@code ValidateExternalType}'s {@code INVALID_EXTERNAL_TYPE} (the expression is named more simply). */
        RuntimeException invalidExternalType(Object element) {
            return new SparkRuntimeException("INVALID_EXTERNAL_TYPE", scalaMap(Map.of(
                    "externalType", element.getClass().getName(),
                    "type", "\"" + type.sql() + "\"",
                    "expr", "\"element of " + external.getName() + "\"")), null, new QueryContext[0], "");
        }
    }

    /** Atomic values. */
    static final class Leaf extends Node {
        static final int BOOLEAN = 0, BYTE = 1, SHORT = 2, INT = 3, LONG = 4, FLOAT = 5, DOUBLE = 6, STRING = 7,
                BINARY = 8, TIMESTAMP = 9, INSTANT = 10, DATE = 11, LOCAL_DATE = 12, LOCAL_DATE_TIME = 13;
        final int kind;
        final boolean boxed;
        final Class<?> javaClass;

        Leaf(int kind, DataType type, boolean boxed, Class<?> javaClass, Class<?> external) {
            super(type, external);
            this.kind = kind;
            this.boxed = boxed;
            this.javaClass = javaClass;
        }

        @Override
        void write(UnsafeWriter w, int i, Object v) {
            switch (kind) {
                case BOOLEAN -> w.write(i, ((Boolean) v).booleanValue());
                case BYTE -> w.write(i, ((Byte) v).byteValue());
                case SHORT -> w.write(i, ((Short) v).shortValue());
                case INT -> w.write(i, ((Integer) v).intValue());
                case LONG -> w.write(i, ((Long) v).longValue());
                case FLOAT -> w.write(i, ((Float) v).floatValue());
                case DOUBLE -> w.write(i, ((Double) v).doubleValue());
                case STRING -> w.write(i, UTF8String.fromString((String) v));
                case BINARY -> w.write(i, (byte[]) v);
                case TIMESTAMP -> w.write(i, SparkTimes.fromJavaTimestamp((Timestamp) v));
                case INSTANT -> w.write(i, DTU.instantToMicros((Instant) v));
                case DATE -> w.write(i, DTU.fromJavaDate((Date) v));
                case LOCAL_DATE -> w.write(i, DTU.localDateToDays((LocalDate) v));
                case LOCAL_DATE_TIME -> w.write(i, DTU.localDateTimeToMicros((LocalDateTime) v));
                default -> throw new IllegalStateException("kind " + kind);
            }
        }

        @Override
        int elementSize() {
            return switch (kind) {
                case BOOLEAN, BYTE -> 1;
                case SHORT -> 2;
                case INT, FLOAT, DATE, LOCAL_DATE -> 4;
                default -> 8;
            };
        }

        @Override
        Object read(SpecializedGetters d, int i) {
            return switch (kind) {
                case BOOLEAN -> d.getBoolean(i);
                case BYTE -> d.getByte(i);
                case SHORT -> d.getShort(i);
                case INT -> d.getInt(i);
                case LONG -> d.getLong(i);
                case FLOAT -> d.getFloat(i);
                case DOUBLE -> d.getDouble(i);
                case STRING -> d.getUTF8String(i).toString();
                case BINARY -> d.getBinary(i);
                case TIMESTAMP -> SparkTimes.toJavaTimestamp(d.getLong(i));
                case INSTANT -> DTU.microsToInstant(d.getLong(i));
                case DATE -> DTU.toJavaDate(d.getInt(i));
                case LOCAL_DATE -> DTU.daysToLocalDate(d.getInt(i));
                case LOCAL_DATE_TIME -> DTU.microsToLocalDateTime(d.getLong(i));
                default -> throw new IllegalStateException("kind " + kind);
            };
        }

        @Override
        void validate(Object element) {
            boolean ok = switch (kind) {
                case TIMESTAMP, INSTANT -> element instanceof Timestamp || element instanceof Instant;
                case DATE, LOCAL_DATE -> element instanceof Date || element instanceof LocalDate;
                default -> external.isInstance(element);
            };
            if (!ok) {
                throw invalidExternalType(element);
            }
        }
    }

    /** BigDecimal (and BigInteger) as a decimal of the encoder's precision and scale. */
    static final class DecimalLeaf extends Node {
        final int precision;
        final int scale;
        final boolean bigInteger;

        DecimalLeaf(DecimalType type, boolean bigInteger) {
            super(type, bigInteger ? BigInteger.class : BigDecimal.class);
            this.precision = type.precision();
            this.scale = type.scale();
            this.bigInteger = bigInteger;
        }

        @Override
        void write(UnsafeWriter w, int i, Object v) {
            Decimal d = bigInteger ? Decimal.apply((BigInteger) v) : Decimal.apply((BigDecimal) v);
            // CheckOverflow with ANSI on (Spark 4's default): NUMERIC_VALUE_OUT_OF_RANGE on overflow
            d = d.toPrecision(precision, scale, Decimal.ROUND_HALF_UP(), false, null);
            w.write(i, d, precision, scale);
        }

        @Override
        void writeNull(UnsafeRowWriter w, int ordinal) {
            if (precision > Decimal.MAX_LONG_DIGITS()) {
                w.write(ordinal, (Decimal) null, precision, scale);
            } else {
                w.setNullAt(ordinal);
            }
        }

        @Override
        Object read(SpecializedGetters d, int i) {
            Decimal value = d.getDecimal(i, precision, scale);
            return bigInteger ? value.toJavaBigInteger() : value.toJavaBigDecimal();
        }

        @Override
        void validate(Object element) {
            if (!(element instanceof BigDecimal || element instanceof scala.math.BigDecimal || element instanceof Decimal)) {
                throw invalidExternalType(element);
            }
        }
    }

    /** A Java enum as its name. */
    static final class EnumLeaf extends Node {
        final Class<?> cls;

        EnumLeaf(Class<?> cls) {
            super(DataTypes.StringType, cls);
            this.cls = cls;
        }

        @Override
        void write(UnsafeWriter w, int i, Object v) {
            w.write(i, UTF8String.fromString(((Enum<?>) cls.cast(v)).name()));
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        Object read(SpecializedGetters d, int i) {
            return Enum.valueOf((Class) cls, d.getUTF8String(i).toString());
        }

    }

    /** int[], long[], ...: {@code UnsafeArrayData.fromPrimitiveArray}, copied as it is. */
    static final class PrimitiveArray extends Node {
        final int kind;

        PrimitiveArray(Node element, Class<?> cls) {
            super(DataTypes.createArrayType(element.type, false), cls);
            this.kind = ((Leaf) element).kind;
        }

        @Override
        void write(UnsafeWriter w, int i, Object v) {
            UnsafeArrayData data = switch (kind) {
                case Leaf.BOOLEAN -> UnsafeArrayData.fromPrimitiveArray((boolean[]) v);
                case Leaf.BYTE -> UnsafeArrayData.fromPrimitiveArray((byte[]) v);
                case Leaf.SHORT -> UnsafeArrayData.fromPrimitiveArray((short[]) v);
                case Leaf.INT -> UnsafeArrayData.fromPrimitiveArray((int[]) v);
                case Leaf.LONG -> UnsafeArrayData.fromPrimitiveArray((long[]) v);
                case Leaf.FLOAT -> UnsafeArrayData.fromPrimitiveArray((float[]) v);
                default -> UnsafeArrayData.fromPrimitiveArray((double[]) v);
            };
            int previous = w.cursor();
            w.write(data);
            w.setOffsetAndSizeFromPreviousCursor(i, previous);
        }

        @Override
        Object read(SpecializedGetters d, int i) {
            ArrayData a = d.getArray(i);
            return switch (kind) {
                case Leaf.BOOLEAN -> a.toBooleanArray();
                case Leaf.BYTE -> a.toByteArray();
                case Leaf.SHORT -> a.toShortArray();
                case Leaf.INT -> a.toIntArray();
                case Leaf.LONG -> a.toLongArray();
                case Leaf.FLOAT -> a.toFloatArray();
                default -> a.toDoubleArray();
            };
        }

        @Override
        void validate(Object element) {
            if (!(element.getClass().isArray() || element instanceof scala.collection.Seq<?>
                    || element instanceof scala.collection.immutable.Set<?> || element instanceof List<?>)) {
                throw invalidExternalType(element);
            }
        }
    }

    /** An object array or a java.util.List: an array of nullable elements. */
    static final class ArrayNode extends Node {
        final Node element;
        final boolean containsNull;
        final boolean javaArray;
        final Class<?> componentType;

        ArrayNode(Node element, boolean containsNull, Class<?> cls, boolean javaArray, ArrayType type) {
            super(type, cls);
            this.element = element;
            this.containsNull = containsNull;
            this.javaArray = javaArray;
            this.componentType = javaArray ? cls.getComponentType() : null;
        }

        @Override
        void write(UnsafeWriter w, int i, Object v) {
            Object[] elements = javaArray ? (Object[]) external.cast(v) : ((List<?>) v).toArray();
            int previous = w.cursor();
            writeElements(w, elements, element, containsNull);
            w.setOffsetAndSizeFromPreviousCursor(i, previous);
        }

        @Override
        Object read(SpecializedGetters d, int i) {
            ArrayData a = d.getArray(i);
            int n = a.numElements();
            if (javaArray) {
                Object[] out = (Object[]) java.lang.reflect.Array.newInstance(componentType, n);
                for (int k = 0; k < n; k++) {
                    out[k] = readElement(a, k, element, containsNull);
                }
                return out;
            }
            List<Object> out = new ArrayList<>(n);
            for (int k = 0; k < n; k++) {
                out.add(readElement(a, k, element, containsNull));
            }
            return out;
        }

        @Override
        void validate(Object e) {
            if (!(e.getClass().isArray() || e instanceof scala.collection.Seq<?>
                    || e instanceof scala.collection.immutable.Set<?> || e instanceof List<?>)) {
                throw invalidExternalType(e);
            }
        }
    }

    /** A java.util.Map: the key array's size in bytes, the key array, the value array. */
    static final class MapNode extends Node {
        final Node key;
        final boolean keyNullable;
        final Node value;
        final boolean valueContainsNull;

        MapNode(Node key, boolean keyNullable, Node value, boolean valueContainsNull, MapType type) {
            super(type, Map.class);
            this.key = key;
            this.keyNullable = keyNullable;
            this.value = value;
            this.valueContainsNull = valueContainsNull;
        }

        @Override
        void write(UnsafeWriter w, int i, Object v) {
            Map<?, ?> map = (Map<?, ?>) v;
            List<Object> keys = new ArrayList<>(map.size());
            List<Object> values = new ArrayList<>(map.size());
            UnsafeRowWriter scratch = null;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                Object k = e.getKey();
                if (k == null) {
                    throw new SparkRuntimeException("NULL_MAP_KEY", scalaMap(Map.of()), null, new QueryContext[0], "");
                }
                Object value = e.getValue();
                // Spark's ExternalMapToCatalyst converts entry by entry (key, then value) before anything is
                // written, so a failing value of an early entry wins over a failing key of a later one:
                // convert each entry once into a scratch row to fail in that order.
                if (scratch == null) {
                    scratch = new UnsafeRowWriter(1, 32);
                }
                scratch.reset();
                key.validate(k);
                key.write(scratch, 0, k);
                if (value == null) {
                    if (!valueContainsNull) {
                        throw notNull("map value");
                    }
                } else {
                    scratch.reset();
                    this.value.validate(value);
                    this.value.write(scratch, 0, value);
                }
                keys.add(k);
                values.add(value);
            }
            int previous = w.cursor();
            w.grow(8);
            w.increaseCursor(8);
            int keysStart = w.cursor();
            writeElements(w, keys.toArray(), key, keyNullable);
            Platform.putLong(w.getBuffer(), keysStart - 8, w.cursor() - keysStart);
            writeElements(w, values.toArray(), value, valueContainsNull);
            w.setOffsetAndSizeFromPreviousCursor(i, previous);
        }

        @Override
        Object read(SpecializedGetters d, int i) {
            MapData m = d.getMap(i);
            ArrayData ka = m.keyArray();
            ArrayData va = m.valueArray();
            int n = ka.numElements();
            Object[] keys = new Object[n];
            Object[] values = new Object[n];
            for (int k = 0; k < n; k++) {
                keys[k] = readElement(ka, k, key, true);
                values[k] = readElement(va, k, value, true);
            }
            return ArrayBasedMapData.toJavaMap(keys, values);
        }
    }

    /** Spark's {@code MapObjects} + {@code GenerateUnsafeProjection.writeArrayToBuffer}. */
    static void writeElements(UnsafeWriter w, Object[] elements, Node element, boolean containsNull) {
        int size = element.elementSize();
        UnsafeArrayWriter aw = new UnsafeArrayWriter(w, size);
        aw.initialize(elements.length);
        for (int k = 0; k < elements.length; k++) {
            Object e = elements[k];
            if (e == null) {
                if (!containsNull) {
                    throw notNull("array element");
                }
                switch (size) {
                    case 1 -> aw.setNull1Bytes(k);
                    case 2 -> aw.setNull2Bytes(k);
                    case 4 -> aw.setNull4Bytes(k);
                    default -> aw.setNull8Bytes(k);
                }
            } else {
                element.validate(e);
                element.write(aw, k, e);
            }
        }
    }

    static Object readElement(ArrayData a, int k, Node element, boolean containsNull) {
        if (a.isNullAt(k)) {
            if (!containsNull) {
                throw notNull("array element");
            }
            return null;
        }
        return element.read(a, k);
    }

    /** A bean or a Scala tuple: a nested row of its fields. */
    static final class StructNode extends Node {
        final String[] names;
        final Node[] fields;
        final boolean[] nullable;
        final Method[] getters;
        final Method[] setters;
        /** Setter indexes in the order Spark's {@code InitializeJavaBean} calls them (a Scala Map's order). */
        final int[] setterOrder;
        final Constructor<?> constructor;
        final boolean tuple;

        private StructNode(StructType type, Class<?> cls, String[] names, Node[] fields, boolean[] nullable,
                Method[] getters, Method[] setters, int[] setterOrder, Constructor<?> constructor, boolean tuple) {
            super(type, cls);
            this.names = names;
            this.fields = fields;
            this.nullable = nullable;
            this.getters = getters;
            this.setters = setters;
            this.setterOrder = setterOrder;
            this.constructor = constructor;
            this.tuple = tuple;
        }

        static StructNode bean(AgnosticEncoders.JavaBeanEncoder<?> bean, String where) {
            Class<?> cls = bean.clsTag().runtimeClass();
            List<AgnosticEncoders.EncoderField> list = CollectionConverters.asJava(bean.fields());
            int n = list.size();
            String[] names = new String[n];
            Node[] nodes = new Node[n];
            boolean[] nullable = new boolean[n];
            Method[] getters = new Method[n];
            Method[] setters = new Method[n];
            Map<String, Integer> setterIndex = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                AgnosticEncoders.EncoderField f = list.get(i);
                names[i] = f.name();
                nodes[i] = node(f.enc(), where.equals("value") ? f.name() : where + "." + f.name());
                nullable[i] = f.nullable();
                getters[i] = method(cls, f.readMethod().get(), 0, where);
                if (f.writeMethod().isDefined()) {
                    setters[i] = setter(cls, f.writeMethod().get(), getters[i].getReturnType(), where);
                    setterIndex.put(f.writeMethod().get(), i);
                }
            }
            int[] order = scalaMapOrder(setterIndex);
            Constructor<?> constructor;
            try {
                constructor = cls.getConstructor();
            } catch (NoSuchMethodException e) {
                throw new Uncovered(where, bean, cls.getName() + " has no public no-argument constructor");
            }
            return new StructNode((StructType) bean.dataType(), cls, names, nodes, nullable, getters, setters, order,
                    constructor, false);
        }

        static StructNode tuple(AgnosticEncoders.ProductEncoder<?> product, String where) {
            Class<?> cls = product.clsTag().runtimeClass();
            List<AgnosticEncoders.EncoderField> list = CollectionConverters.asJava(product.fields());
            int n = list.size();
            String[] names = new String[n];
            Node[] nodes = new Node[n];
            boolean[] nullable = new boolean[n];
            Class<?>[] params = new Class<?>[n];
            for (int i = 0; i < n; i++) {
                AgnosticEncoders.EncoderField f = list.get(i);
                names[i] = f.name();
                nodes[i] = node(f.enc(), where.equals("value") ? f.name() : where + "." + f.name());
                nullable[i] = f.nullable();
                params[i] = Object.class;
            }
            Constructor<?> constructor;
            try {
                constructor = cls.getConstructor(params);
            } catch (NoSuchMethodException e) {
                throw new Uncovered(where, product, cls.getName() + " has no constructor of " + n + " objects");
            }
            return new StructNode((StructType) product.dataType(), cls, names, nodes, nullable, null, null, null,
                    constructor, true);
        }

        private static Method method(Class<?> cls, String name, int params, String where) {
            for (Method m : cls.getMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == params && !m.isBridge()) {
                    return m;
                }
            }
            throw new IllegalArgumentException("no public method " + name + " with " + params + " parameters in "
                    + cls.getName() + " (" + where + ")");
        }

        /** The one-argument method {@code name}, preferring the one that takes what the getter returns. */
        private static Method setter(Class<?> cls, String name, Class<?> type, String where) {
            try {
                return cls.getMethod(name, type);
            } catch (NoSuchMethodException e) {
                return method(cls, name, 1, where);
            }
        }

        private static int[] scalaMapOrder(Map<String, Integer> setters) {
            scala.collection.immutable.Map<String, Integer> map =
                    scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(setters));
            int[] order = new int[setters.size()];
            int k = 0;
            for (Iterator<Integer> it = CollectionConverters.asJava(map.valuesIterator()); it.hasNext(); ) {
                order[k++] = it.next();
            }
            return order;
        }

        @Override
        void write(UnsafeWriter w, int i, Object v) {
            int previous = w.cursor();
            UnsafeRowWriter nested = new UnsafeRowWriter(w, fields.length);
            nested.resetRowWriter();
            writeFields(nested, v);
            w.setOffsetAndSizeFromPreviousCursor(i, previous);
        }

        void writeFields(UnsafeRowWriter w, Object v) {
            Object obj = external.cast(v);
            for (int j = 0; j < fields.length; j++) {
                Object f = tuple ? ((scala.Product) obj).productElement(j) : invoke(getters[j], obj);
                if (f == null) {
                    if (!nullable[j]) {
                        throw new NullPointerException("null in the non-nullable field " + names[j] + " of "
                                + external.getName());
                    }
                    fields[j].writeNull(w, j);
                } else {
                    fields[j].write(w, j, f);
                }
            }
        }

        @Override
        Object read(SpecializedGetters d, int i) {
            return readFields(d.getStruct(i, fields.length));
        }

        Object readFields(InternalRow row) {
            if (tuple) {
                Object[] args = new Object[fields.length];
                for (int j = 0; j < fields.length; j++) {
                    args[j] = readField(row, j);
                }
                return construct(args);
            }
            Object bean = construct();
            for (int j : setterOrder) {
                invoke(setters[j], bean, readField(row, j));
            }
            return bean;
        }

        private Object readField(InternalRow row, int j) {
            if (row.isNullAt(j)) {
                return nullable[j] ? null : defaultOf(fields[j]);
            }
            return fields[j].read(row, j);
        }

        private Object construct(Object... args) {
            try {
                return constructor.newInstance(args);
            } catch (InvocationTargetException e) {
                throw Sneaky.raise(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot create " + external.getName() + ": " + e, e);
            }
        }
    }

    /** What Spark's deserializer gives for a null column: null, or a primitive's default value (0, false). */
    static Object defaultOf(Node node) {
        if (!(node instanceof Leaf leaf) || leaf.boxed) {
            return null;
        }
        return switch (leaf.kind) {
            case Leaf.BOOLEAN -> false;
            case Leaf.BYTE -> (byte) 0;
            case Leaf.SHORT -> (short) 0;
            case Leaf.INT -> 0;
            case Leaf.LONG -> 0L;
            case Leaf.FLOAT -> 0f;
            default -> 0d;
        };
    }

    static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw Sneaky.raise(e.getCause());
        } catch (IllegalAccessException e) {
            m.setAccessible(true);
            return invoke(m, target, args);
        }
    }

    // ---------------------------------------------------------------- errors

    static SparkRuntimeException notNull(String walkedTypePath) {
        return new SparkRuntimeException("NOT_NULL_ASSERT_VIOLATION",
                scalaMap(Map.of("walkedTypePath", "\n" + walkedTypePath + "\n")), null, new QueryContext[0], "");
    }

    /** Spark's serializer and deserializer let {@code NOT_NULL_ASSERT_VIOLATION} through as it is and wrap the rest. */
    private static boolean notNullViolation(Throwable e) {
        return e instanceof SparkRuntimeException s && "NOT_NULL_ASSERT_VIOLATION".equals(s.getCondition());
    }

    private RuntimeException encodingFailed(Throwable cause) {
        if (notNullViolation(cause)) {
            return (RuntimeException) cause;
        }
        return new SparkRuntimeException("EXPRESSION_ENCODING_FAILED",
                scalaMap(Map.of("expressions", "native serializer of " + description)), cause, new QueryContext[0], "");
    }

    private RuntimeException decodingFailed(Throwable cause) {
        if (notNullViolation(cause)) {
            return (RuntimeException) cause;
        }
        return new SparkRuntimeException("EXPRESSION_DECODING_FAILED",
                scalaMap(Map.of("expressions", "native deserializer of " + description)), cause, new QueryContext[0], "");
    }

    static scala.collection.immutable.Map<String, String> scalaMap(Map<String, String> map) {
        return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(map));
    }

    // ---------------------------------------------------------------- codec

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
        if (flat != null) {
            try {
                return flat.encode(value);
            } catch (RuntimeException | Error e) {
                throw encodingFailed(e);
            }
        }
        try {
            if (struct) {
                if (value == null) {
                    throw notNull("top level Product or row object");
                }
                StructNode s = (StructNode) root;
                UnsafeRowWriter w = new UnsafeRowWriter(s.fields.length, 64);
                w.reset();
                s.writeFields(w, value);
                return Arrays.copyOf(w.getBuffer(), w.totalSize());
            }
            UnsafeRowWriter w = new UnsafeRowWriter(1, 32);
            w.reset();
            Object primitiveDefault = value == null ? defaultOf(root) : null;
            if (primitiveDefault != null) {
                // a null given to a primitive encoder (Encoders.scalaInt()...): Spark's generated code unboxes it to 0
                root.write(w, 0, primitiveDefault);
            } else if (value == null) {
                root.writeNull(w, 0);
            } else {
                root.write(w, 0, value);
            }
            return Arrays.copyOf(w.getBuffer(), w.totalSize());
        } catch (RuntimeException | Error e) {
            throw encodingFailed(e);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public T decode(byte[] bytes) {
        try {
            if (flat != null) {
                return (T) flat.decode(bytes);
            }
            UnsafeRow row = row(bytes);
            if (struct) {
                return (T) ((StructNode) root).readFields(row);
            }
            if (row.isNullAt(0)) {
                return (T) defaultOf(root);
            }
            return (T) root.read(row, 0);
        } catch (RuntimeException | Error e) {
            throw decodingFailed(e);
        }
    }

    @Override
    public int compareNatural(byte[] a, byte[] b) {
        if (flat != null) {
            return flat.compare(a, b);
        }
        if (ordering != null) {
            return ordering.compare(row(a), row(b));
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
        UnsafeRow row = row(bytes);
        int hash = HASH_SEED;
        for (int i = 0; i < hashes.length; i++) {
            if (!row.isNullAt(i)) {
                hash = hashes[i].hash(row, i, hash);
            }
        }
        return Math.floorMod(hash, partitions);
    }

    // ---------------------------------------------------------------- hash

    private interface ValueHash {
        int hash(SpecializedGetters d, int i, int seed);
    }

    /**
     * Spark's {@code Murmur3HashFunction} ({@code InterpretedHashFunction.hash}) per type, reading the
     * columns with typed getters ({@code UnsafeRow.get(i, type)} would load {@code SQLConf}).
     */
    private static ValueHash valueHash(DataType t) {
        if (t == DataTypes.BooleanType) {
            return (d, i, seed) -> Murmur3_x86_32.hashInt(d.getBoolean(i) ? 1 : 0, seed);
        }
        if (t == DataTypes.ByteType) {
            return (d, i, seed) -> Murmur3_x86_32.hashInt(d.getByte(i), seed);
        }
        if (t == DataTypes.ShortType) {
            return (d, i, seed) -> Murmur3_x86_32.hashInt(d.getShort(i), seed);
        }
        if (t == DataTypes.IntegerType || t == DataTypes.DateType) {
            return (d, i, seed) -> Murmur3_x86_32.hashInt(d.getInt(i), seed);
        }
        if (t == DataTypes.LongType || t == DataTypes.TimestampType || t == DataTypes.TimestampNTZType) {
            return (d, i, seed) -> Murmur3_x86_32.hashLong(d.getLong(i), seed);
        }
        if (t == DataTypes.FloatType) {
            return (d, i, seed) -> {
                float f = d.getFloat(i);
                return Murmur3_x86_32.hashInt(f == -0.0f ? 0 : Float.floatToIntBits(f), seed);
            };
        }
        if (t == DataTypes.DoubleType) {
            return (d, i, seed) -> {
                double x = d.getDouble(i);
                return Murmur3_x86_32.hashLong(x == -0.0d ? 0L : Double.doubleToLongBits(x), seed);
            };
        }
        if (t instanceof org.apache.spark.sql.types.StringType) {
            return (d, i, seed) -> {
                UTF8String u = d.getUTF8String(i);
                return Murmur3_x86_32.hashUnsafeBytes(u.getBaseObject(), u.getBaseOffset(), u.numBytes(), seed);
            };
        }
        if (t == DataTypes.BinaryType) {
            return (d, i, seed) -> {
                byte[] b = d.getBinary(i);
                return Murmur3_x86_32.hashUnsafeBytes(b, Platform.BYTE_ARRAY_OFFSET, b.length, seed);
            };
        }
        if (t instanceof DecimalType dt) {
            int p = dt.precision();
            int sc = dt.scale();
            return (d, i, seed) -> {
                Decimal dec = d.getDecimal(i, p, sc);
                if (p <= Decimal.MAX_LONG_DIGITS()) {
                    return Murmur3_x86_32.hashLong(dec.toUnscaledLong(), seed);
                }
                byte[] b = dec.toJavaBigDecimal().unscaledValue().toByteArray();
                return Murmur3_x86_32.hashUnsafeBytes(b, Platform.BYTE_ARRAY_OFFSET, b.length, seed);
            };
        }
        if (t instanceof StructType st) {
            int n = st.length();
            ValueHash[] fields = new ValueHash[n];
            for (int k = 0; k < n; k++) {
                fields[k] = valueHash(st.fields()[k].dataType());
            }
            return (d, i, seed) -> {
                InternalRow r = d.getStruct(i, n);
                int h = seed;
                for (int k = 0; k < n; k++) {
                    if (!r.isNullAt(k)) {
                        h = fields[k].hash(r, k, h);
                    }
                }
                return h;
            };
        }
        if (t instanceof ArrayType at) {
            ValueHash element = valueHash(at.elementType());
            return (d, i, seed) -> hashElements(d.getArray(i), element, seed);
        }
        if (t instanceof MapType mt) {
            ValueHash key = valueHash(mt.keyType());
            ValueHash value = valueHash(mt.valueType());
            return (d, i, seed) -> {
                MapData m = d.getMap(i);
                ArrayData keys = m.keyArray();
                ArrayData values = m.valueArray();
                int h = seed;
                for (int k = 0; k < m.numElements(); k++) {
                    if (!keys.isNullAt(k)) {
                        h = key.hash(keys, k, h);
                    }
                    if (!values.isNullAt(k)) {
                        h = value.hash(values, k, h);
                    }
                }
                return h;
            };
        }
        throw new IllegalArgumentException("no hash for " + t.simpleString());
    }

    private static int hashElements(ArrayData a, ValueHash element, int seed) {
        int h = seed;
        for (int k = 0; k < a.numElements(); k++) {
            if (!a.isNullAt(k)) {
                h = element.hash(a, k, h);
            }
        }
        return h;
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

    // ---------------------------------------------------------------- order

    private static boolean orderable(DataType t) {
        if (t instanceof StructType s) {
            for (StructField f : s.fields()) {
                if (!orderable(f.dataType())) {
                    return false;
                }
            }
            return true;
        }
        if (t instanceof ArrayType a) {
            return orderable(a.elementType());
        }
        return !(t instanceof MapType);
    }

    private interface ValueOrder {
        int compare(SpecializedGetters a, int i, SpecializedGetters b, int j);
    }

    private static Comparator<UnsafeRow> rowOrdering(StructType schema) {
        StructField[] fields = schema.fields();
        ValueOrder[] orders = new ValueOrder[fields.length];
        for (int i = 0; i < fields.length; i++) {
            orders[i] = valueOrder(fields[i].dataType());
        }
        return (a, b) -> compareColumns(orders, a, b);
    }

    private static int compareColumns(ValueOrder[] orders, InternalRow a, InternalRow b) {
        for (int i = 0; i < orders.length; i++) {
            boolean an = a.isNullAt(i);
            boolean bn = b.isNullAt(i);
            if (an || bn) {
                if (an != bn) {
                    return an ? -1 : 1;
                }
                continue;
            }
            int c = orders[i].compare(a, i, b, i);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Spark's {@code PhysicalDataType} orderings: SQL order, NaN largest, -0.0 equal to 0.0, unsigned bytes. */
    private static ValueOrder valueOrder(DataType t) {
        if (t == DataTypes.BooleanType) {
            return (a, i, b, j) -> Boolean.compare(a.getBoolean(i), b.getBoolean(j));
        }
        if (t == DataTypes.ByteType) {
            return (a, i, b, j) -> Byte.compare(a.getByte(i), b.getByte(j));
        }
        if (t == DataTypes.ShortType) {
            return (a, i, b, j) -> Short.compare(a.getShort(i), b.getShort(j));
        }
        if (t == DataTypes.IntegerType || t == DataTypes.DateType) {
            return (a, i, b, j) -> Integer.compare(a.getInt(i), b.getInt(j));
        }
        if (t == DataTypes.LongType || t == DataTypes.TimestampType || t == DataTypes.TimestampNTZType) {
            return (a, i, b, j) -> Long.compare(a.getLong(i), b.getLong(j));
        }
        if (t == DataTypes.FloatType) {
            return (a, i, b, j) -> {
                float x = a.getFloat(i);
                float y = b.getFloat(j);
                return x == y ? 0 : Float.compare(x, y);
            };
        }
        if (t == DataTypes.DoubleType) {
            return (a, i, b, j) -> {
                double x = a.getDouble(i);
                double y = b.getDouble(j);
                return x == y ? 0 : Double.compare(x, y);
            };
        }
        if (t instanceof org.apache.spark.sql.types.StringType) {
            return (a, i, b, j) -> a.getUTF8String(i).binaryCompare(b.getUTF8String(j));
        }
        if (t == DataTypes.BinaryType) {
            return (a, i, b, j) -> Arrays.compareUnsigned(a.getBinary(i), b.getBinary(j));
        }
        if (t instanceof DecimalType d) {
            int p = d.precision();
            int s = d.scale();
            return (a, i, b, j) -> a.getDecimal(i, p, s).compare(b.getDecimal(j, p, s));
        }
        if (t instanceof StructType s) {
            int n = s.length();
            ValueOrder[] orders = new ValueOrder[n];
            for (int k = 0; k < n; k++) {
                orders[k] = valueOrder(s.fields()[k].dataType());
            }
            return (a, i, b, j) -> compareColumns(orders, a.getStruct(i, n), b.getStruct(j, n));
        }
        if (t instanceof ArrayType at) {
            ValueOrder element = valueOrder(at.elementType());
            return (a, i, b, j) -> {
                ArrayData x = a.getArray(i);
                ArrayData y = b.getArray(j);
                int n = Math.min(x.numElements(), y.numElements());
                for (int k = 0; k < n; k++) {
                    boolean xn = x.isNullAt(k);
                    boolean yn = y.isNullAt(k);
                    if (xn || yn) {
                        if (xn != yn) {
                            return xn ? -1 : 1;
                        }
                        continue;
                    }
                    int c = element.compare(x, k, y, k);
                    if (c != 0) {
                        return c;
                    }
                }
                return Integer.compare(x.numElements(), y.numElements());
            };
        }
        throw new IllegalArgumentException("no order for " + t.simpleString());
    }

    // ---------------------------------------------------------------- flat fast path

    /**
     * Spark's UnsafeRow encoding of a one-column row for strings and boxed integers, written by hand:
     * an 8-byte null bitset, an 8-byte slot (the little-endian value, or offset and size of the UTF-8
     * bytes, which follow padded to 8 bytes).
     */
    enum Flat {
        STRING, LONG, INT, SHORT, BYTE, BOOLEAN;

        static Flat of(Node root) {
            if (!(root instanceof Leaf leaf) || !leaf.boxed) {
                return null;
            }
            return switch (leaf.kind) {
                case Leaf.STRING -> STRING;
                case Leaf.LONG -> LONG;
                case Leaf.INT -> INT;
                case Leaf.SHORT -> SHORT;
                case Leaf.BYTE -> BYTE;
                case Leaf.BOOLEAN -> BOOLEAN;
                default -> null;
            };
        }

        byte[] encode(Object value) {
            if (value == null) {
                byte[] row = new byte[HEADER];
                row[0] = 1;
                return row;
            }
            if (this == STRING) {
                byte[] utf8 = ((String) value).getBytes(StandardCharsets.UTF_8);
                byte[] row = new byte[HEADER + ((utf8.length + 7) & ~7)];
                putLong(row, 8, ((long) HEADER << 32) | utf8.length);
                System.arraycopy(utf8, 0, row, HEADER, utf8.length);
                return row;
            }
            byte[] row = new byte[HEADER];
            long bits = switch (this) {
                case LONG -> (Long) value;
                case INT -> ((Integer) value) & 0xFFFFFFFFL;
                case SHORT -> ((Short) value) & 0xFFFFL;
                case BYTE -> ((Byte) value) & 0xFFL;
                default -> ((Boolean) value) ? 1L : 0L;
            };
            putLong(row, 8, bits);
            return row;
        }

        Object decode(byte[] row) {
            if ((row[0] & 1) != 0) {
                return null;
            }
            long slot = getLong(row, 8);
            return switch (this) {
                case STRING -> new String(row, (int) (slot >>> 32), (int) slot, StandardCharsets.UTF_8);
                case LONG -> slot;
                case INT -> (int) slot;
                case SHORT -> (short) slot;
                case BYTE -> (byte) slot;
                case BOOLEAN -> slot != 0;
            };
        }

        int partition(byte[] row, int partitions) {
            if ((row[0] & 1) != 0) {
                return Math.floorMod(HASH_SEED, partitions);
            }
            long slot = getLong(row, 8);
            int hash = switch (this) {
                case STRING -> Murmur3_x86_32.hashUnsafeBytes(row, Platform.BYTE_ARRAY_OFFSET + (int) (slot >>> 32),
                        (int) slot, HASH_SEED);
                case LONG -> Murmur3_x86_32.hashLong(slot, HASH_SEED);
                case INT -> Murmur3_x86_32.hashInt((int) slot, HASH_SEED);
                case SHORT -> Murmur3_x86_32.hashInt((short) slot, HASH_SEED);
                case BYTE -> Murmur3_x86_32.hashInt((byte) slot, HASH_SEED);
                case BOOLEAN -> Murmur3_x86_32.hashInt(slot != 0 ? 1 : 0, HASH_SEED);
            };
            return Math.floorMod(hash, partitions);
        }

        int compare(byte[] a, byte[] b) {
            boolean aNull = (a[0] & 1) != 0;
            boolean bNull = (b[0] & 1) != 0;
            if (aNull || bNull) {
                return Boolean.compare(!aNull, !bNull);
            }
            if (this == STRING) {
                int lenA = (int) getLong(a, 8);
                int lenB = (int) getLong(b, 8);
                return Arrays.compareUnsigned(a, HEADER, HEADER + lenA, b, HEADER, HEADER + lenB);
            }
            @SuppressWarnings({"unchecked", "rawtypes"})
            int c = ((Comparable) decode(a)).compareTo(decode(b));
            return c;
        }

        private static void putLong(byte[] b, int at, long v) {
            for (int i = 0; i < 8; i++) {
                b[at + i] = (byte) (v >>> (8 * i));
            }
        }

        private static long getLong(byte[] b, int at) {
            long v = 0;
            for (int i = 7; i >= 0; i--) {
                v = (v << 8) | (b[at + i] & 0xFFL);
            }
            return v;
        }
    }
}
