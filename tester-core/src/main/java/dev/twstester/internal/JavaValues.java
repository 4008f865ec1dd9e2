package dev.twstester.internal;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * How the Java objects of one part of an encoder map to and from the values of its {@link Layout}, as
 * Spark's {@code SerializerBuildHelper} and {@code DeserializerBuildHelper} convert them: a tree of these
 * ({@link EncoderPlan} builds it from the encoder) is the encoder-driven side of {@link NativeCodec}.
 * This file holds the atomic parts; {@link JavaArrays}, {@link JavaMaps} and {@link JavaStructs} the rest.
 */
abstract class JavaValues<L extends Layout> {
    /** The part's layout, typed: a call to it is one the JIT can inline (each layout class is final). */
    final L layout;
    /** The external class Spark's {@code ValidateExternalType} expects of a collection element. */
    final Class<?> external;

    JavaValues(L layout, Class<?> external) {
        this.layout = layout;
        this.external = external;
    }

    /** The layout's value of the non-null {@code value}; fails as Spark's serializer does. */
    abstract Object toInternal(Object value);

    /** The non-null value at {@code ordinal} ({@link Layout#read}), as a new Java object. */
    abstract Object read(SpecializedGetters data, int ordinal);

    /** What Spark's deserializer gives for a null: null, or a primitive's default value (0, false). */
    Object nullValue() {
        return null;
    }

    /** Spark's {@code ValidateExternalType} of a collection element of this part: whether its class is accepted. */
    boolean accepts(Object element) {
        return external.isInstance(element);
    }

    /** {@link #accepts}, or {@code ValidateExternalType}'s {@code INVALID_EXTERNAL_TYPE} (the expression named more simply). */
    final void checkElement(Object element) {
        if (!accepts(element)) {
            throw CodecErrors.invalidExternalType(element, layout.type, "element of " + external.getName());
        }
    }

    /** A primitive, its box, a string, a byte[], a date or a time. */
    static final class Atom extends JavaValues<AtomLayout> {
        final ExternalAtom atom;
        /** A primitive ({@code int}): null decodes to 0, and a null given to a flat encoder encodes as 0. */
        final boolean primitive;

        Atom(AtomLayout layout, ExternalAtom atom, boolean primitive) {
            super(layout, atom.javaClass);
            this.atom = atom;
            this.primitive = primitive;
        }

        @Override
        Object toInternal(Object value) {
            return atom.toInternal(value);
        }

        @Override
        Object read(SpecializedGetters data, int ordinal) {
            return atom.toExternal(layout.read(data, ordinal));
        }

        @Override
        Object nullValue() {
            return primitive ? atom.primitiveDefault : null;
        }

        @Override
        boolean accepts(Object element) {
            return atom.accepts(element);
        }
    }

    /**
     * A {@code BigDecimal}, {@code BigInteger}, {@code scala.math.BigDecimal} or {@code BigInt} as a decimal
     * of the encoder's precision and scale ({@code Decimal.apply}), rounded half-up; an overflow fails as
     * {@code CheckOverflow} with ANSI mode on (Spark 4's default): {@code NUMERIC_VALUE_OUT_OF_RANGE}.
     */
    static final class BigNumber extends JavaValues<DecimalLayout> {
        /** The class of the numbers, and how Spark's deserializer reads them back. */
        enum Kind {
            JAVA_DECIMAL(BigDecimal.class), JAVA_INTEGER(BigInteger.class),
            SCALA_DECIMAL(scala.math.BigDecimal.class), SCALA_INT(scala.math.BigInt.class);

            final Class<?> cls;

            Kind(Class<?> cls) {
                this.cls = cls;
            }

            Decimal toDecimal(Object value) {
                return switch (this) {
                    case JAVA_DECIMAL -> Decimal.apply((BigDecimal) value);
                    case JAVA_INTEGER -> Decimal.apply((BigInteger) value);
                    case SCALA_DECIMAL -> Decimal.apply((scala.math.BigDecimal) value);
                    case SCALA_INT -> Decimal.apply((scala.math.BigInt) value);
                };
            }

            /** {@code toJavaBigDecimal}, {@code toJavaBigInteger}, {@code toBigDecimal}, {@code toScalaBigInt}. */
            Object fromDecimal(Decimal d) {
                return switch (this) {
                    case JAVA_DECIMAL -> d.toJavaBigDecimal();
                    case JAVA_INTEGER -> d.toJavaBigInteger();
                    case SCALA_DECIMAL -> d.toBigDecimal();
                    case SCALA_INT -> d.toScalaBigInt();
                };
            }
        }

        private final Kind kind;

        BigNumber(DecimalLayout layout, Kind kind) {
            super(layout, kind.cls);
            this.kind = kind;
        }

        @Override
        Object toInternal(Object value) {
            return kind.toDecimal(value).toPrecision(layout.precision, layout.scale, Decimal.ROUND_HALF_UP(), false, null);
        }

        @Override
        Object read(SpecializedGetters data, int ordinal) {
            return kind.fromDecimal((Decimal) layout.read(data, ordinal));
        }

        /** {@code ValidateExternalType} of a decimal element: a decimal class (so a big integer element fails, as Spark's). */
        @Override
        boolean accepts(Object element) {
            return ExternalAtom.isDecimal(element);
        }
    }

    /** A Java enum as its name. */
    static final class EnumName extends JavaValues<AtomLayout> {
        EnumName(AtomLayout layout, Class<?> enumClass) {
            super(layout, enumClass);
        }

        @Override
        Object toInternal(Object value) {
            return UTF8String.fromString(((Enum<?>) external.cast(value)).name());
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        Object read(SpecializedGetters data, int ordinal) {
            return Enum.valueOf((Class) external, layout.read(data, ordinal).toString());
        }
    }
}
