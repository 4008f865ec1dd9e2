package dev.twstester.internal;

import java.util.Map;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;

/**
 * A {@code java.util.Map} as a map ({@link MapLayout}): Spark's {@code ExternalMapToCatalyst}, which
 * converts entry by entry (the key, then the value) before anything is written, so a failing value of
 * an early entry wins over a failing key of a later one; read back with
 * {@code ArrayBasedMapData.toJavaMap}.
 */
final class JavaMaps extends JavaValues<MapLayout> {
    private final JavaValues<?> key;
    private final JavaValues<?> value;

    JavaMaps(MapLayout layout, JavaValues<?> key, JavaValues<?> value) {
        super(layout, Map.class);
        this.key = key;
        this.value = value;
    }

    @Override
    Object toInternal(Object external) {
        Map<?, ?> map = (Map<?, ?>) external;
        Object[] keys = new Object[map.size()];
        Object[] values = new Object[keys.length];
        int k = 0;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            Object entryKey = entry.getKey();
            if (entryKey == null) {
                throw CodecErrors.nullMapKey();
            }
            key.checkElement(entryKey);
            keys[k] = key.toInternal(entryKey);
            values[k] = JavaArrays.toInternal(value, entry.getValue(), layout.values.containsNull, "map value");
            k++;
        }
        return new MapLayout.Entries(keys, values);
    }

    @Override
    Object read(SpecializedGetters data, int ordinal) {
        MapData map = (MapData) layout.read(data, ordinal);
        ArrayData keyArray = map.keyArray();
        ArrayData valueArray = map.valueArray();
        int n = keyArray.numElements();
        Object[] keys = new Object[n];
        Object[] values = new Object[n];
        for (int k = 0; k < n; k++) {
            keys[k] = JavaArrays.read(key, keyArray, k, true);
            values[k] = JavaArrays.read(value, valueArray, k, true);
        }
        return ArrayBasedMapData.toJavaMap(keys, values);
    }
}
