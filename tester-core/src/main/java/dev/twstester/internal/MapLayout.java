package dev.twstester.internal;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeWriter;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.unsafe.Platform;

/**
 * A map ({@code UnsafeMapData}): the key array's size in bytes (8 bytes), the key array, then the value
 * array, each an {@link ArrayLayout}; keys are never null. Spark SQL does not order maps.
 */
final class MapLayout extends Layout {
    /** A map's value to write: its keys' and its values' values, entry by entry. */
    record Entries(Object[] keys, Object[] values) {}

    final ArrayLayout keys;
    final ArrayLayout values;

    MapLayout(MapType type, Layout key, Layout value) {
        super(type);
        this.keys = new ArrayLayout(new ArrayType(type.keyType(), false), key);
        this.values = new ArrayLayout(new ArrayType(type.valueType(), type.valueContainsNull()), value);
    }

    @Override
    void write(UnsafeWriter w, int i, Object v) {
        Entries entries = (Entries) v;
        int previous = w.cursor();
        // 8 bytes for the key array's size, written once the key array is
        w.grow(8);
        w.increaseCursor(8);
        int keysStart = w.cursor();
        keys.writeElements(w, entries.keys());
        Platform.putLong(w.getBuffer(), keysStart - 8, w.cursor() - keysStart);
        values.writeElements(w, entries.values());
        w.setOffsetAndSizeFromPreviousCursor(i, previous);
    }

    @Override
    Object read(SpecializedGetters d, int i) {
        return d.getMap(i);
    }

    /** Entry by entry, the key then the value (a null value leaves the hash as it is). */
    @Override
    int hash(SpecializedGetters d, int i, int seed) {
        MapData map = d.getMap(i);
        ArrayData keyArray = map.keyArray();
        ArrayData valueArray = map.valueArray();
        int hash = seed;
        for (int k = 0; k < map.numElements(); k++) {
            hash = keys.element.hashNullable(keyArray, k, hash);
            hash = values.element.hashNullable(valueArray, k, hash);
        }
        return hash;
    }

    @Override
    boolean orderable() {
        return false;
    }

    @Override
    int compare(SpecializedGetters a, int i, SpecializedGetters b, int j) {
        throw unordered();
    }
}
