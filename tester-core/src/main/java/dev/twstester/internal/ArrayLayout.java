package dev.twstester.internal;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeArrayWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeWriter;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.ArrayType;

/**
 * An array ({@code UnsafeArrayData}): the element count, a null bitset, a slot of the element's size
 * per element ({@link Layout#elementSize}), then the elements' variable-length parts, written after
 * the parent's fixed part ({@code GenerateUnsafeProjection.writeArrayToBuffer}). A primitive Java array
 * is copied as it is ({@link #copyOf}).
 */
final class ArrayLayout extends Layout {
    final Layout element;
    final boolean containsNull;

    ArrayLayout(ArrayType type, Layout element) {
        super(type);
        this.element = element;
        this.containsNull = type.containsNull();
    }

    /**
     * A primitive Java array ({@code boolean[]} to {@code double[]}) as the array value Spark's serializers
     * make of it ({@code UnsafeArrayData.fromPrimitiveArray}, as {@code ArrayData.toArrayData} calls it).
     */
    static UnsafeArrayData copyOf(Object primitiveArray) {
        return (UnsafeArrayData) ArrayData.toArrayData(primitiveArray);
    }

    @Override
    void write(UnsafeWriter w, int i, Object v) {
        int previous = w.cursor();
        writeElements(w, v);
        w.setOffsetAndSizeFromPreviousCursor(i, previous);
    }

    /** Writes the array {@code value} (an {@code Object[]} of element values, or an {@code UnsafeArrayData}) at the cursor. */
    void writeElements(UnsafeWriter parent, Object value) {
        if (value instanceof UnsafeArrayData copied) {
            parent.write(copied);
            return;
        }
        Object[] values = (Object[]) value;
        UnsafeArrayWriter writer = new UnsafeArrayWriter(parent, element.elementSize());
        writer.initialize(values.length);
        for (int k = 0; k < values.length; k++) {
            if (values[k] == null) {
                element.writeNullElement(writer, k);
            } else {
                Layout.writeValue(element, writer, k, values[k]);
            }
        }
    }

    @Override
    Object read(SpecializedGetters d, int i) {
        return d.getArray(i);
    }

    @Override
    int hash(SpecializedGetters d, int i, int seed) {
        ArrayData array = d.getArray(i);
        int hash = seed;
        for (int k = 0; k < array.numElements(); k++) {
            hash = element.hashNullable(array, k, hash);
        }
        return hash;
    }

    @Override
    boolean orderable() {
        return element.orderable();
    }

    /** Element by element, nulls first; then the shorter first. */
    @Override
    int compare(SpecializedGetters a, int i, SpecializedGetters b, int j) {
        ArrayData x = a.getArray(i);
        ArrayData y = b.getArray(j);
        int n = Math.min(x.numElements(), y.numElements());
        for (int k = 0; k < n; k++) {
            int c = element.compareNullable(x, k, y, k);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.numElements(), y.numElements());
    }
}
