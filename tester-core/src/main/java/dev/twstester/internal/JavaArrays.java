package dev.twstester.internal;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayData;

/**
 * Java arrays and {@code java.util.List}s as arrays ({@link ArrayLayout}): Spark's {@code MapObjects}
 * over the elements, or, for an array of primitives, {@code UnsafeArrayData.fromPrimitiveArray}.
 */
abstract class JavaArrays extends JavaValues<ArrayLayout> {
    JavaArrays(ArrayLayout layout, Class<?> arrayClass) {
        super(layout, arrayClass);
    }

    @Override
    final boolean accepts(Object element) {
        return ExternalAtom.isArray(element);
    }

    /** {@code int[]}, {@code long[]}, ...: copied as it is, read back with {@code ArrayData.toIntArray()} and the like. */
    static final class Primitives extends JavaArrays {
        private final ExternalAtom element;

        Primitives(ArrayLayout layout, ExternalAtom element, Class<?> arrayClass) {
            super(layout, arrayClass);
            this.element = element;
        }

        @Override
        Object toInternal(Object value) {
            return ArrayLayout.copyOf(value);
        }

        @Override
        Object read(SpecializedGetters data, int ordinal) {
            ArrayData a = (ArrayData) layout.read(data, ordinal);
            return switch (element) {
                case BOOLEAN -> a.toBooleanArray();
                case BYTE -> a.toByteArray();
                case SHORT -> a.toShortArray();
                case INT -> a.toIntArray();
                case LONG -> a.toLongArray();
                case FLOAT -> a.toFloatArray();
                default -> a.toDoubleArray();
            };
        }
    }

    /**
     * An object array ({@code String[]}, ...), a {@code java.util.List} or a Scala {@code Seq} or {@code Set}:
     * elements that may be null.
     */
    static final class Objects extends JavaArrays {
        private final JavaValues<?> element;
        /** The component type of a Java array, or null for a collection. */
        private final Class<?> componentType;
        /** The builders of a Scala collection, or null. */
        private final ScalaValues.Builders builders;

        Objects(ArrayLayout layout, JavaValues<?> element, Class<?> cls) {
            this(layout, element, cls, null);
        }

        Objects(ArrayLayout layout, JavaValues<?> element, Class<?> cls, ScalaValues.Builders builders) {
            super(layout, cls);
            this.element = element;
            this.componentType = cls.getComponentType();
            this.builders = builders;
        }

        @Override
        Object toInternal(Object value) {
            Object[] elements;
            Object[] values;
            if (componentType != null) {
                elements = (Object[]) external.cast(value);
                values = new Object[elements.length];
            } else if (builders != null) {
                elements = ScalaValues.elements(value);
                values = elements;
            } else {
                elements = ((List<?>) value).toArray();
                values = elements;   // a new array: converted in place
            }
            for (int k = 0; k < elements.length; k++) {
                values[k] = JavaArrays.toInternal(element, elements[k], layout.containsNull, "array element");
            }
            return values;
        }

        @Override
        Object read(SpecializedGetters data, int ordinal) {
            ArrayData a = (ArrayData) layout.read(data, ordinal);
            int n = a.numElements();
            boolean containsNull = layout.containsNull;
            if (componentType != null) {
                Object[] out = (Object[]) java.lang.reflect.Array.newInstance(componentType, n);
                for (int k = 0; k < n; k++) {
                    out[k] = JavaArrays.read(element, a, k, containsNull);
                }
                return out;
            }
            if (builders != null) {
                scala.collection.mutable.Builder<Object, Object> out = builders.start(n);
                for (int k = 0; k < n; k++) {
                    out.addOne(JavaArrays.read(element, a, k, containsNull));
                }
                return out.result();
            }
            List<Object> out = new ArrayList<>(n);
            for (int k = 0; k < n; k++) {
                out.add(JavaArrays.read(element, a, k, containsNull));
            }
            return out;
        }
    }

    /**
     * The layout's value of a collection element (or map value) {@code value}: null, if {@code nullable}
     * ({@code NOT_NULL_ASSERT_VIOLATION} at {@code path} if not), else validated and converted.
     */
    static Object toInternal(JavaValues<?> element, Object value, boolean nullable, String path) {
        if (value == null) {
            if (!nullable) {
                throw CodecErrors.notNull(path);
            }
            return null;
        }
        element.checkElement(value);
        return element.toInternal(value);
    }

    /**
     * The element {@code k} of {@code array} as a new Java object, or what a null reads as (null, {@code None});
     * an error if it may not be null.
     */
    static Object read(JavaValues<?> element, ArrayData array, int k, boolean containsNull) {
        if (array.isNullAt(k)) {
            if (!containsNull) {
                throw CodecErrors.notNull("array element");
            }
            return element.nullValue();
        }
        return element.read(array, k);
    }
}
