package dev.twstester.internal;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayData;

import scala.collection.Iterator;

/**
 * An array of an external {@code Row}: the row encoder's {@code MapObjects} over a Java array or a Scala
 * {@code Seq} (a Java {@code List} or a Scala {@code Set} passes its type check, then fails its conversion
 * with a {@code ClassCastException}, as in Spark), or a primitive Java array copied as it is
 * ({@code ArrayData.toArrayData}); read back as a Scala {@code mutable.ArraySeq}.
 */
final class RowArrays extends RowValues<ArrayLayout> {
    private final RowValues<?> element;
    /** The primitive Java array class copied as it is ({@code int[]} for an array of int), or null. */
    private final Class<?> primitiveArray;

    RowArrays(ArrayLayout layout, RowSource source, int[] lambdaIds) {
        super(layout, source);
        int id = ++lambdaIds[0];
        this.element = RowValues.of(layout.element, new RowSource.Lambda("MapObject", true, id), lambdaIds);
        ExternalAtom atom = ExternalAtom.of(layout.element.type);
        this.primitiveArray = atom == null ? null : atom.primitiveArray;
    }

    @Override
    boolean accepts(Object value) {
        return ExternalAtom.isArray(value);
    }

    @Override
    Object convert(Object value) {
        if (primitiveArray != null && primitiveArray.isInstance(value)) {
            return ArrayLayout.copyOf(value);
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
        Object converted = value == null ? null : element.toInternal(value);
        if (converted == null && !layout.containsNull) {
            throw CodecErrors.notNull("");
        }
        return converted;
    }

    @Override
    Object read(SpecializedGetters data, int ordinal) {
        Object[] elements = readElements(element, (ArrayData) layout.read(data, ordinal));
        return scala.collection.mutable.ArraySeq$.MODULE$.make(elements);
    }

    /** The external values of {@code array}'s elements (null where an element is null). */
    static Object[] readElements(RowValues<?> element, ArrayData array) {
        Object[] out = new Object[array.numElements()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.isNullAt(i) ? null : element.read(array, i);
        }
        return out;
    }

    @Override
    String externalTypeSql() {
        return "ObjectType(class java.lang.Object)";
    }
}
