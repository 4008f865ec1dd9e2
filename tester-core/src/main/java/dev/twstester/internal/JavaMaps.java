package dev.twstester.internal;

import java.util.Map;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;

/**
 * A {@code java.util.Map} or a Scala {@code Map} as a map ({@link MapLayout}): Spark's {@code ExternalMapToCatalyst}, which
 * converts entry by entry (the key, then the value) before anything is written, so a failing value of
 * an early entry wins over a failing key of a later one; read back with
 * {@code ArrayBasedMapData.toJavaMap}, or, for a Scala map, with its companion's builder
 * ({@code CatalystToExternalMap}).
 */
final class JavaMaps extends JavaValues<MapLayout> {
    private final JavaValues<?> key;
    private final JavaValues<?> value;
    /** The builders of a Scala map, or null for a {@code java.util.Map}. */
    private final ScalaValues.Builders builders;

    JavaMaps(MapLayout layout, JavaValues<?> key, JavaValues<?> value) {
        super(layout, Map.class);
        this.key = key;
        this.value = value;
        this.builders = null;
    }

    JavaMaps(MapLayout layout, JavaValues<?> key, JavaValues<?> value, Class<?> scalaMap, ScalaValues.Builders builders) {
        super(layout, scalaMap);
        this.key = key;
        this.value = value;
        this.builders = builders;
    }

    @Override
    Object toInternal(Object external) {
        if (builders != null) {
            Object[] entries = ScalaValues.elements(external);
            Entries converted = new Entries(entries.length);
            for (Object entry : entries) {
                scala.Tuple2<?, ?> pair = (scala.Tuple2<?, ?>) entry;
                converted.add(pair._1(), pair._2());
            }
            return converted.done();
        }
        Map<?, ?> map = (Map<?, ?>) external;
        Entries converted = new Entries(map.size());
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            converted.add(entry.getKey(), entry.getValue());
        }
        return converted.done();
    }

    /** The entries' values, converted one by one in the map's order. */
    private final class Entries {
        private final Object[] keys;
        private final Object[] values;
        private int k;

        Entries(int size) {
            keys = new Object[size];
            values = new Object[size];
        }

        void add(Object entryKey, Object entryValue) {
            if (entryKey == null) {
                // a primitive key (a Scala Map[Int, _]) is not null-checked: Spark's type check of it dereferences it
                throw key instanceof JavaValues.Atom atom && atom.primitive
                        ? new NullPointerException("null key in a map of " + layout.type.sql()) : CodecErrors.nullMapKey();
            }
            key.checkElement(entryKey);
            Object internalKey = key.toInternal(entryKey);
            if (internalKey == null) {   // a None key
                throw CodecErrors.nullMapKey();
            }
            keys[k] = internalKey;
            values[k] = JavaArrays.toInternal(value, entryValue, layout.values.containsNull, "map value");
            k++;
        }

        MapLayout.Entries done() {
            return new MapLayout.Entries(keys, values);
        }
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
        if (builders != null) {
            scala.collection.mutable.Builder<Object, Object> out = builders.start(n);
            for (int k = 0; k < n; k++) {
                out.addOne(new scala.Tuple2<>(keys[k], values[k]));
            }
            return out.result();
        }
        return ArrayBasedMapData.toJavaMap(keys, values);
    }
}
