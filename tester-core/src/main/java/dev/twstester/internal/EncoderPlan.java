package dev.twstester.internal;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.catalyst.encoders.AgnosticEncoder;
import org.apache.spark.sql.catalyst.encoders.AgnosticEncoders;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;

import dev.twstester.internal.JavaValues.BigNumber;

import scala.jdk.javaapi.CollectionConverters;

/**
 * Reads an encoder's {@code AgnosticEncoder} tree once into the {@link JavaValues} of each part, each
 * over its part's {@link Layout}: the plan {@link NativeCodec} encodes and decodes with, or the reason
 * the encoder needs Spark's own encoder (the first part the native path does not cover).
 */
final class EncoderPlan {
    private EncoderPlan() {
    }

    private static final String PREFIX = "org.apache.spark.sql.catalyst.encoders.AgnosticEncoders$";

    /** What {@link #of} found: the root part and whether it is a struct of columns, or why the encoder is not covered. */
    record Plan(JavaValues<?> root, boolean struct, String reason) {}

    /** The plan of {@code encoder}, or the reason it needs Spark's encoder. */
    static Plan of(Encoder<?> encoder) {
        if (!(encoder instanceof AgnosticEncoder<?> agnostic)) {
            return new Plan(null, false, "not an AgnosticEncoder (" + encoder.getClass().getName() + ")");
        }
        try {
            boolean struct = agnostic instanceof AgnosticEncoders.JavaBeanEncoder<?>
                    || agnostic instanceof AgnosticEncoders.ProductEncoder<?>;
            return new Plan(part(agnostic, "value"), struct, null);
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

    /**
     * The atom of a leaf encoder of boxed values ({@code StringEncoder}, {@code BoxedLongEncoder}, ...,
     * {@code BinaryEncoder}, {@code LocalDateTimeEncoder}), or null; read from the encoder's class name.
     */
    static ExternalAtom boxedLeaf(Encoder<?> encoder) {
        String name = encoder.getClass().getName();
        return name.startsWith(PREFIX) && !name.startsWith("Primitive", PREFIX.length())
                ? atom(name.substring(PREFIX.length())) : null;
    }

    /** The atom of a leaf encoder's class name (after {@link #PREFIX}), or null. */
    private static ExternalAtom atom(String kind) {
        return switch (kind) {
            case "PrimitiveBooleanEncoder$", "BoxedBooleanEncoder$" -> ExternalAtom.BOOLEAN;
            case "PrimitiveByteEncoder$", "BoxedByteEncoder$" -> ExternalAtom.BYTE;
            case "PrimitiveShortEncoder$", "BoxedShortEncoder$" -> ExternalAtom.SHORT;
            case "PrimitiveIntEncoder$", "BoxedIntEncoder$" -> ExternalAtom.INT;
            case "PrimitiveLongEncoder$", "BoxedLongEncoder$" -> ExternalAtom.LONG;
            case "PrimitiveFloatEncoder$", "BoxedFloatEncoder$" -> ExternalAtom.FLOAT;
            case "PrimitiveDoubleEncoder$", "BoxedDoubleEncoder$" -> ExternalAtom.DOUBLE;
            case "StringEncoder$" -> ExternalAtom.STRING;
            case "BinaryEncoder$" -> ExternalAtom.BINARY;
            case "LocalDateTimeEncoder$" -> ExternalAtom.LOCAL_DATE_TIME;
            default -> null;
        };
    }

    private static JavaValues<?> part(AgnosticEncoder<?> enc, String where) {
        String name = enc.getClass().getName();
        String k = name.startsWith(PREFIX) ? name.substring(PREFIX.length()) : "";
        ExternalAtom atom = atom(k);
        if (atom != null) {
            return new JavaValues.Atom(AtomLayout.of(enc.dataType()), atom, k.startsWith("Primitive"));
        }
        if (k.equals("JavaBigIntEncoder$")) {
            return new BigNumber(new DecimalLayout((DecimalType) enc.dataType()), BigNumber.Kind.JAVA_INTEGER);
        }
        if (k.equals("ScalaBigIntEncoder$")) {
            return new BigNumber(new DecimalLayout((DecimalType) enc.dataType()), BigNumber.Kind.SCALA_INT);
        }
        if (enc.lenientSerialization() && !(enc instanceof AgnosticEncoders.IterableEncoder<?, ?>)) {
            throw new Uncovered(where, enc, "lenient serialization");
        }
        if (enc instanceof AgnosticEncoders.TimestampEncoder) {
            return new JavaValues.Atom(AtomLayout.of(enc.dataType()), ExternalAtom.TIMESTAMP, false);
        }
        if (enc instanceof AgnosticEncoders.InstantEncoder) {
            return new JavaValues.Atom(AtomLayout.of(enc.dataType()), ExternalAtom.INSTANT, false);
        }
        if (enc instanceof AgnosticEncoders.DateEncoder) {
            return new JavaValues.Atom(AtomLayout.of(enc.dataType()), ExternalAtom.DATE, false);
        }
        if (enc instanceof AgnosticEncoders.LocalDateEncoder) {
            return new JavaValues.Atom(AtomLayout.of(enc.dataType()), ExternalAtom.LOCAL_DATE, false);
        }
        if (enc instanceof AgnosticEncoders.JavaDecimalEncoder d) {
            return new BigNumber(new DecimalLayout(d.dt()), BigNumber.Kind.JAVA_DECIMAL);
        }
        if (enc instanceof AgnosticEncoders.JavaEnumEncoder<?> e) {
            return new JavaValues.EnumName(AtomLayout.of(enc.dataType()), e.clsTag().runtimeClass());
        }
        return scala(enc, where);
    }

    /** Scala's leaves and {@code Option}. */
    private static JavaValues<?> scala(AgnosticEncoder<?> enc, String where) {
        if (enc instanceof AgnosticEncoders.ScalaDecimalEncoder d) {
            return new BigNumber(new DecimalLayout(d.dt()), BigNumber.Kind.SCALA_DECIMAL);
        }
        if (enc instanceof AgnosticEncoders.ScalaEnumEncoder<?, ?> e) {
            try {
                return new ScalaValues.EnumerationValue(AtomLayout.of(enc.dataType()), e.parent());
            } catch (ReflectiveOperationException noWithName) {
                throw new Uncovered(where, enc, e.parent().getName() + " is not an object with withName(String)");
            }
        }
        if (enc instanceof AgnosticEncoders.OptionEncoder<?> o) {
            return new ScalaValues.Optional<>(part(o.elementEncoder(), where));
        }
        return nested(enc, where);
    }

    /** A class of {@code scala.collection.immutable}, or {@code scala.collection}'s own {@code Seq}, {@code Set} or {@code Map}. */
    private static boolean immutable(Class<?> cls) {
        return cls.getName().startsWith("scala.collection.immutable.") || cls == scala.collection.Seq.class
                || cls == scala.collection.Set.class || cls == scala.collection.Map.class;
    }

    /** The companion builders of a Scala collection class, or an {@link Uncovered} naming it. */
    private static ScalaValues.Builders builders(Class<?> cls, AgnosticEncoder<?> enc, String where) {
        try {
            return ScalaValues.Builders.of(cls);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new Uncovered(where, enc, cls.getName() + " has no companion object with newBuilder()");
        }
    }

    private static JavaValues<?> nested(AgnosticEncoder<?> enc, String where) {
        if (enc instanceof AgnosticEncoders.ArrayEncoder<?> a) {
            AgnosticEncoder<?> element = a.element();
            JavaValues<?> values = part(element, where + "[]");
            ArrayLayout layout = new ArrayLayout((ArrayType) a.dataType(), values.layout);
            Class<?> cls = enc.clsTag().runtimeClass();
            if (element.isPrimitive()) {
                return new JavaArrays.Primitives(layout, ((JavaValues.Atom) values).atom, cls);
            }
            return new JavaArrays.Objects(layout, values, cls);
        }
        if (enc instanceof AgnosticEncoders.IterableEncoder<?, ?> it) {
            Class<?> cls = it.clsTag().runtimeClass();
            if (it.lenientSerialization()) {
                throw new Uncovered(where, enc, "lenient serialization");
            }
            boolean scalaCollection = immutable(cls) && !scala.collection.immutable.ArraySeq.class.isAssignableFrom(cls)
                    && (scala.collection.Seq.class.isAssignableFrom(cls) || scala.collection.Set.class.isAssignableFrom(cls));
            if (cls != List.class && cls != ArrayList.class && !scalaCollection) {
                throw new Uncovered(where, enc, cls.getName()
                        + "; java.util.List and Scala's immutable Seq, List, Vector and Set (not ArraySeq) are native");
            }
            JavaValues<?> values = part(it.element(), where + "[]");
            ArrayLayout layout = new ArrayLayout((ArrayType) it.dataType(), values.layout);
            return new JavaArrays.Objects(layout, values, cls, scalaCollection ? builders(cls, enc, where) : null);
        }
        if (enc instanceof AgnosticEncoders.MapEncoder<?, ?, ?> m) {
            Class<?> cls = m.clsTag().runtimeClass();
            boolean scalaMap = scala.collection.Map.class.isAssignableFrom(cls) && immutable(cls);
            if (cls != Map.class && !scalaMap) {
                throw new Uncovered(where, enc, cls.getName() + "; only java.util.Map and Scala's immutable Map are native");
            }
            JavaValues<?> key = part(m.keyEncoder(), where + ".key");
            JavaValues<?> value = part(m.valueEncoder(), where + ".value");
            MapLayout layout = new MapLayout((MapType) m.dataType(), key.layout, value.layout);
            return scalaMap ? new JavaMaps(layout, key, value, cls, builders(cls, enc, where)) : new JavaMaps(layout, key, value);
        }
        if (enc instanceof AgnosticEncoders.JavaBeanEncoder<?> bean) {
            return bean(bean, where);
        }
        if (enc instanceof AgnosticEncoders.ProductEncoder<?> product) {
            Class<?> cls = product.clsTag().runtimeClass();
            if (product.outerPointerGetter().isDefined()) {
                throw new Uncovered(where, enc, cls.getName() + " is an inner class: its instances need their outer"
                        + " instance; define the case class at the top level or in an object");
            }
            return product(product, where);
        }
        throw new Uncovered(where, enc, null);
    }

    /** The fields of a bean or a tuple, read one by one: their names, parts and nullability. */
    private static final class Fields {
        final String[] names;
        final JavaValues<?>[] parts;
        final boolean[] nullable;

        Fields(int n) {
            names = new String[n];
            parts = new JavaValues<?>[n];
            nullable = new boolean[n];
        }

        void read(int i, AgnosticEncoders.EncoderField f, String where) {
            names[i] = f.name();
            parts[i] = part(f.enc(), where.equals("value") ? f.name() : where + "." + f.name());
            nullable[i] = f.nullable();
        }

        StructLayout layout(AgnosticEncoder<?> struct) {
            Layout[] layouts = new Layout[parts.length];
            for (int i = 0; i < parts.length; i++) {
                layouts[i] = parts[i].layout;
            }
            return new StructLayout((StructType) struct.dataType(), layouts);
        }
    }

    private static JavaValues<?> bean(AgnosticEncoders.JavaBeanEncoder<?> bean, String where) {
        Class<?> cls = bean.clsTag().runtimeClass();
        List<AgnosticEncoders.EncoderField> list = CollectionConverters.asJava(bean.fields());
        int n = list.size();
        Fields fields = new Fields(n);
        Method[] getters = new Method[n];
        Method[] setters = new Method[n];
        Map<String, Integer> setterIndex = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            AgnosticEncoders.EncoderField f = list.get(i);
            fields.read(i, f, where);
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
        return new JavaStructs.Bean(fields.layout(bean), cls, fields.names, fields.parts, fields.nullable,
                getters, setters, order, constructor);
    }

    /** A tuple or a case class: its fields' accessors (a tuple's by position) and the constructor of all fields. */
    private static JavaValues<?> product(AgnosticEncoders.ProductEncoder<?> product, String where) {
        Class<?> cls = product.clsTag().runtimeClass();
        boolean tuple = cls.getName().matches("scala\\.Tuple\\d+");
        List<AgnosticEncoders.EncoderField> list = CollectionConverters.asJava(product.fields());
        int n = list.size();
        Fields fields = new Fields(n);
        Class<?>[] params = new Class<?>[n];
        Method[] accessors = tuple ? null : new Method[n];
        for (int i = 0; i < n; i++) {
            AgnosticEncoders.EncoderField f = list.get(i);
            fields.read(i, f, where);
            params[i] = tuple ? Object.class : f.enc().clsTag().runtimeClass();
            if (!tuple) {
                accessors[i] = accessor(cls, f.name(), product, where);
            }
        }
        return new JavaStructs.Tuple(fields.layout(product), cls, fields.names, fields.parts, fields.nullable,
                accessors, constructor(cls, params, product, where));
    }

    /** The public constructor of {@code n} parameters, the one that takes {@code params} if there are several. */
    private static Constructor<?> constructor(Class<?> cls, Class<?>[] params, AgnosticEncoder<?> enc, String where) {
        List<Constructor<?>> candidates = new ArrayList<>();
        for (Constructor<?> c : cls.getConstructors()) {
            if (c.getParameterCount() == params.length) {
                candidates.add(c);
            }
        }
        for (Constructor<?> c : candidates) {
            if (candidates.size() == 1 || takes(c.getParameterTypes(), params)) {
                return c;
            }
        }
        throw new Uncovered(where, enc, cls.getName() + " has no public constructor of its " + params.length + " fields");
    }

    private static boolean takes(Class<?>[] declared, Class<?>[] params) {
        for (int i = 0; i < declared.length; i++) {
            if (!declared[i].isAssignableFrom(params[i])) {
                return false;
            }
        }
        return true;
    }

    /** A case class field's accessor, which Spark's serializer calls by the field's name (encoded as scalac encodes it). */
    private static Method accessor(Class<?> cls, String name, AgnosticEncoder<?> enc, String where) {
        try {
            return cls.getMethod(scala.reflect.NameTransformer.encode(name));
        } catch (NoSuchMethodException e) {
            throw new Uncovered(where, enc, cls.getName() + " has no public accessor " + name + "()");
        }
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
}
