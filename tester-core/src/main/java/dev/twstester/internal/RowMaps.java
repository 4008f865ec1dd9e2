package dev.twstester.internal;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.MapData;

import scala.Tuple2;
import scala.collection.Iterator;
import scala.collection.mutable.Builder;

/**
 * A map of an external {@code Row}: a Scala {@code Map} (not a Java one) converted by the row encoder's
 * {@code ExternalMapToCatalyst}, per entry the key, the null-key check, then the value; read back as an
 * immutable Scala {@code Map}.
 */
final class RowMaps extends RowValues<MapLayout> {
    private final RowValues<?> key;
    private final RowValues<?> value;
    private final boolean valueContainsNull;

    RowMaps(MapLayout layout, RowSource source, int[] lambdaIds) {
        super(layout, source);
        int keyId = ++lambdaIds[0];
        this.key = RowValues.of(layout.keys.element,
                new RowSource.Lambda("ExternalMapToCatalyst_key", true, keyId), lambdaIds);
        int valueId = ++lambdaIds[0];
        this.valueContainsNull = layout.values.containsNull;
        this.value = RowValues.of(layout.values.element,
                new RowSource.Lambda("ExternalMapToCatalyst_value", valueContainsNull, valueId), lambdaIds);
    }

    @Override
    boolean accepts(Object external) {
        return external instanceof scala.collection.Map<?, ?>;
    }

    @Override
    Object convert(Object external) {
        scala.collection.Map<?, ?> map = (scala.collection.Map<?, ?>) external;
        int size = map.size();
        Object[] keys = new Object[size];
        Object[] values = new Object[size];
        Iterator<? extends Tuple2<?, ?>> entries = map.iterator();
        for (int i = 0; entries.hasNext(); i++) {
            Tuple2<?, ?> entry = entries.next();
            Object k = entry._1() == null ? null : key.toInternal(entry._1());
            if (k == null) {
                throw CodecErrors.nullMapKey();
            }
            Object v = entry._2();
            if (v == null && !valueContainsNull) {
                // Spark's generated code calls getClass() on the value it declared non-null
                throw new NullPointerException("Cannot invoke \"Object.getClass()\" because the value of the "
                        + "map entry for key " + entry._1() + " is null");
            }
            v = v == null ? null : value.toInternal(v);
            if (v == null && !valueContainsNull) {
                throw CodecErrors.notNull("");
            }
            keys[i] = k;
            values[i] = v;
        }
        return new MapLayout.Entries(keys, values);
    }

    @Override
    Object read(SpecializedGetters data, int ordinal) {
        MapData map = (MapData) layout.read(data, ordinal);
        Object[] keys = RowArrays.readElements(key, map.keyArray());
        Object[] values = RowArrays.readElements(value, map.valueArray());
        Builder<Tuple2<Object, Object>, scala.collection.immutable.Map<Object, Object>> builder =
                scala.collection.immutable.Map$.MODULE$.newBuilder();
        for (int i = 0; i < keys.length; i++) {
            builder.addOne(new Tuple2<>(keys[i], values[i]));
        }
        return builder.result();
    }

    @Override
    String externalTypeSql() {
        return "ObjectType(interface scala.collection.Map)";
    }
}
