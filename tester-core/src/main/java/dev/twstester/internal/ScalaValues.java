package dev.twstester.internal;

import java.lang.reflect.Method;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.unsafe.types.UTF8String;

import scala.Option;
import scala.Some;

/**
 * The Scala leaves and wrappers of an encoder ({@link EncoderPlan}): {@code Option} at any level (Spark's
 * {@code UnwrapOption} / {@code WrapOption}), enumeration values ({@code toString} / {@code withName}) and
 * the builders of Scala collections ({@code scala.math.BigDecimal} and {@code BigInt} are
 * {@link JavaValues.BigNumber}s).
 */
final class ScalaValues {
    private ScalaValues() {
    }

    /**
     * An {@code Option} over the part of its content, in the content's layout: {@code None} (or a null
     * Option) is written as null; a null reads back as {@code None}, or, when the content is itself an
     * Option, as {@code Some} of what the content reads a null as ({@code WrapOption} wraps the inner
     * {@code WrapOption}'s {@code None}).
     */
    static final class Optional<L extends Layout> extends JavaValues<L> {
        private final JavaValues<L> content;
        private final Object ofNull;

        Optional(JavaValues<L> content) {
            super(content.layout, Option.class);
            this.content = content;
            this.ofNull = content instanceof Optional<?> inner ? new Some<>(inner.nullValue()) : Option.empty();
        }

        /** The content's layout value, or null for {@code None}; {@code Some(null)} fails as Spark's generated code does. */
        @Override
        Object toInternal(Object value) {
            Option<?> option = (Option<?>) value;
            if (option.isEmpty()) {
                return null;
            }
            Object content = option.get();
            if (content == null) {
                throw new NullPointerException("Some(null) in an Option of " + layout.type.sql());
            }
            return this.content.toInternal(content);
        }

        @Override
        Object read(SpecializedGetters data, int ordinal) {
            return new Some<>(content.read(data, ordinal));
        }

        @Override
        Object nullValue() {
            return ofNull;
        }
    }

    /**
     * A value of a Scala {@code Enumeration} as its name ({@code toString}); read back with the enumeration
     * object's {@code withName}.
     */
    static final class EnumerationValue extends JavaValues<AtomLayout> {
        private final Object enumeration;
        private final Method withName;

        /** {@code module}: the enumeration object's class ({@code Color$}), as Spark's encoder names it. */
        EnumerationValue(AtomLayout layout, Class<?> module) throws ReflectiveOperationException {
            super(layout, scala.Enumeration.Value.class);
            this.enumeration = module.getField("MODULE$").get(null);
            this.withName = module.getMethod("withName", String.class);
        }

        @Override
        Object toInternal(Object value) {
            return UTF8String.fromString(value.toString());
        }

        @Override
        Object read(SpecializedGetters data, int ordinal) {
            return JavaStructs.invoke(withName, enumeration, layout.read(data, ordinal).toString());
        }
    }

    /**
     * The builder of a Scala collection class, as Spark's {@code MapObjects} and {@code CatalystToExternalMap}
     * get it: {@code newBuilder()} of the class's companion object, so a decoded {@code Seq} is a {@code List},
     * a {@code Set} a {@code Set1}..{@code HashSet}, a {@code Map} a {@code Map1}..{@code HashMap}, as Spark's.
     */
    static final class Builders {
        private final Object companion;
        private final Method newBuilder;

        private Builders(Object companion, Method newBuilder) {
            this.companion = companion;
            this.newBuilder = newBuilder;
        }

        /** The builders of {@code cls}; throws if it has no companion with {@code newBuilder()}. */
        static Builders of(Class<?> cls) throws ReflectiveOperationException {
            Class<?> module = Class.forName(cls.getName() + "$", false, cls.getClassLoader());
            return new Builders(module.getField("MODULE$").get(null), module.getMethod("newBuilder"));
        }

        /** A new builder, sized for {@code size} elements. */
        @SuppressWarnings("unchecked")
        scala.collection.mutable.Builder<Object, Object> start(int size) {
            scala.collection.mutable.Builder<Object, Object> b =
                    (scala.collection.mutable.Builder<Object, Object>) JavaStructs.invoke(newBuilder, companion);
            b.sizeHint(size);
            return b;
        }
    }

    /** The elements of a Scala collection in its iteration order (a {@code Set}'s {@code toSeq} order). */
    static Object[] elements(Object collection) {
        scala.collection.Iterable<?> iterable = (scala.collection.Iterable<?>) collection;
        Object[] elements = new Object[iterable.size()];
        iterable.copyToArray(elements);
        return elements;
    }
}
