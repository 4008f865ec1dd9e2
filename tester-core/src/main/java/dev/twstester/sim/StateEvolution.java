package dev.twstester.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

import org.apache.avro.Schema;
import org.apache.avro.SchemaValidationException;
import org.apache.avro.SchemaValidatorBuilder;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.avro.SchemaConverters$;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.execution.streaming.state.StateStoreErrors;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataType$;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;
import dev.twstester.internal.RowCodec;

import scala.collection.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A restart with a new version of the query on the state of the old one: the checks Spark 4.2.0
 * runs when the first batch of the new run is planned, and how the new version's encoders read the
 * stored values.
 *
 * <p>The checks, in Spark's order:
 * <ol>
 *   <li>Per state variable the new version shares with the checkpoint (by name), the schemas of
 *       its column family ({@code StateSchemaCompatibilityChecker}): the key schema (the grouping
 *       key; for map state the grouping key and the map key) may change only in field names and
 *       in nullability from nullable to not null ({@code DataType.equalsIgnoreNameAndCompatibleNullability}),
 *       else {@code STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE}. The value schema (the value encoder's
 *       schema, wrapped as {@code struct<value, ttlExpirationMs>} with TTL) likewise with
 *       {@code unsaferow} encoding ({@code STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE}); with
 *       {@code avro}, where Spark makes every value schema nullable, the new schema must be able to
 *       read the old one by Avro's schema resolution ({@code STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION}).
 *       Variables added or dropped are not checked; a variable asked for again after a version
 *       dropped it is checked against the schema it had (Spark keeps its rows and reads them).</li>
 *   <li>The operator's properties ({@code TransformWithStateOperatorProperties.validateOperatorProperties}):
 *       the time mode and the output mode must stay ({@code STATE_STORE_INVALID_CONFIG_AFTER_RESTART}),
 *       and a variable kept by name must keep its kind ({@code STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE}).</li>
 * </ol>
 * The errors are Spark's own ({@code StateStoreErrors}). Reading: with {@code unsaferow} the new
 * encoder reads the old bytes as they are (by position); with {@code avro} by field name, at each
 * read with the schema the value was written with ({@link WrittenValue}): a field the old value lacks
 * reads as null (0 or false for a primitive field of a bean), a field the new schema lacks is dropped, and Avro's promotions
 * ({@code int} to {@code long}, {@code float}, {@code double}; {@code long} to {@code float},
 * {@code double}; {@code float} to {@code double}; {@code string} and {@code binary} both ways) apply.
 */
final class StateEvolution {
    private StateEvolution() {}

    /** One state variable as the checkpoint or the new version has it. */
    record Declared(String name, String kind, long ttlMs, Encoder<?>[] encoders) {}

    /**
     * Throws Spark's error for the first change Spark refuses; returns normally when the new version
     * may run on the snapshot. {@code declared} are the variables the new version's driver-side
     * {@code init} asked for.
     */
    static void check(StateSnapshot.OperatorData snapshot, Encoder<?> newKeyEncoder, List<Declared> declared, TwsQuery<?, ?, ?> next,
            StateEncoding encoding) {
        boolean avro = encoding == StateEncoding.AVRO;
        Map<String, Declared> byName = new TreeMap<>();
        declared.forEach(d -> byName.put(d.name(), d));
        StructType oldKey = snapshot.keyEncoder().schema();
        StructType newKey = newKeyEncoder.schema();
        for (Declared d : byName.values()) {
            StateSnapshot.Variable old = find(snapshot, d.name());
            if (old == null) {
                continue;
            }
            checkKey(keySchema(oldKey, old.kind(), old.encoders()), keySchema(newKey, d.kind(), d.encoders()));
            StructType stored = valueSchema(old.encoders(), old.ttlMs() > 0, avro);
            StructType proposed = valueSchema(d.encoders(), d.ttlMs() > 0, avro);
            if (stored.equals(proposed)) {
                continue;
            }
            if (avro) {
                checkAvro(stored, proposed);
            } else if (!compatible(proposed, stored)) {
                throw StateStoreErrors.stateStoreValueSchemaNotCompatible(stored.toString(), proposed.toString());
            }
        }
        // a grouping key change shows in the column families of every variable and the timers alike
        if (!oldKey.equals(newKey) && !compatible(newKey, oldKey)) {
            throw StateStoreErrors.stateStoreKeySchemaNotCompatible(oldKey.toString(), newKey.toString());
        }
        StateSnapshot.Settings operator = snapshot.settings();
        if (operator != null) {
            String timeMode = next.timeMode().toString();
            if (!operator.timeMode().equals(timeMode)) {
                throw StateStoreErrors.invalidConfigChangedAfterRestart("timeMode", operator.timeMode(), timeMode);
            }
            String outputMode = next.outputMode().toString();
            if (!operator.outputMode().equals(outputMode)) {
                throw StateStoreErrors.invalidConfigChangedAfterRestart("outputMode", operator.outputMode(), outputMode);
            }
        }
        // against the last run's variables only (Spark's operator metadata), not the dropped ones
        for (StateSnapshot.Variable old : snapshot.variables()) {
            Declared d = byName.get(old.name());
            if (d != null && !d.kind().equals(old.kind())) {
                throw StateStoreErrors.invalidVariableTypeChange(old.name(), sparkType(old.kind()), sparkType(d.kind()));
            }
        }
    }

    /** The checkpoint's variable {@code name}: a current one, else a dropped one whose rows Spark kept. */
    private static StateSnapshot.Variable find(StateSnapshot.OperatorData snapshot, String name) {
        for (StateSnapshot.Variable v : snapshot.variables()) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        for (StateSnapshot.Variable v : snapshot.dropped()) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        return null;
    }

    /** Spark's {@code StateVariableType} name of a kind. */
    static String sparkType(String kind) {
        return switch (kind) {
            case "value" -> "ValueState";
            case "list" -> "ListState";
            default -> "MapState";
        };
    }

    private static void checkKey(StructType stored, StructType proposed) {
        if (!stored.equals(proposed) && !compatible(proposed, stored)) {
            throw StateStoreErrors.stateStoreKeySchemaNotCompatible(stored.toString(), proposed.toString());
        }
    }

    /** Spark's {@code schemasCompatible}: the new schema read as the stored one, names ignored. */
    private static boolean compatible(StructType proposed, StructType stored) {
        return DataType$.MODULE$.equalsIgnoreNameAndCompatibleNullability(proposed, stored);
    }

    /** The column family's key schema: the grouping key, or for map state {@code struct<key, userKey>}. */
    static StructType keySchema(StructType groupingKey, String kind, Encoder<?>[] encoders) {
        if (!kind.equals("map")) {
            return groupingKey;
        }
        return new StructType()
                .add("key", new StructType(groupingKey.fields()))
                .add("userKey", new StructType(encoders[0].schema().fields()));
    }

    /** The column family's value schema: with TTL {@code struct<value, ttlExpirationMs>}; all nullable with avro. */
    static StructType valueSchema(Encoder<?>[] encoders, boolean ttl, boolean avro) {
        StructType value = encoders[encoders.length - 1].schema();
        if (ttl) {
            value = new StructType().add("value", value).add("ttlExpirationMs", DataTypes.LongType);
        }
        return avro ? value.toNullable() : value;
    }

    /** Avro's "can read" rule as Spark 4.2.0 applies it, with Spark's own Avro schemas (nullable fields default to null). */
    private static void checkAvro(StructType stored, StructType proposed) {
        Schema reader = SchemaConverters$.MODULE$.toAvroTypeWithDefaults(proposed);
        Schema writer = SchemaConverters$.MODULE$.toAvroTypeWithDefaults(stored);
        try {
            new SchemaValidatorBuilder().canReadStrategy().validateAll().validate(reader, List.of(writer));
        } catch (SchemaValidationException e) {
            throw StateStoreErrors.stateStoreInvalidValueSchemaEvolution(stored.toString(), proposed.toString());
        }
    }

    /**
     * How a stored form of {@code from}'s encoder becomes one of {@code to}'s, as the new version reads
     * it; null when nothing changes (the same encoder). {@code target} stores a value of {@code to}.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static UnaryOperator<Object> reader(Encoder<?> from, Encoder<?> to, Codec<?> target, boolean avro) {
        if (from.equals(to)) {
            return null;
        }
        RowCodec<Object> old = (RowCodec) RowCodec.of(from);
        RowCodec<Object> neu = (RowCodec) RowCodec.of(to);
        Codec<Object> store = (Codec) target;
        if (!avro) {
            // the same bytes, read by position with the new encoder
            return stored -> store.store(neu.decode(stored instanceof byte[] b ? b : old.encode(stored)));
        }
        StructType fromSchema = old.schema();
        StructType toSchema = neu.schema();
        return stored -> {
            Object value = stored instanceof byte[] b ? old.decode(b) : stored;
            Row row = old.toExternalRow(value);
            return store.store(neu.fromExternalRow((Row) resolve(row, fromSchema, toSchema)));
        };
    }

    /** Avro's schema resolution of one external value of type {@code from} as type {@code to}. */
    static Object resolve(Object value, DataType from, DataType to) {
        if (value == null || from.equals(to)) {
            return value;
        }
        if (to instanceof StructType toStruct && from instanceof StructType fromStruct) {
            Row row = (Row) value;
            Object[] values = new Object[toStruct.fields().length];
            for (int i = 0; i < values.length; i++) {
                StructField field = toStruct.fields()[i];
                int at = indexOf(fromStruct, field.name());
                Object read = at < 0 ? null : resolve(row.get(at), fromStruct.fields()[at].dataType(), field.dataType());
                values[i] = read == null && !field.nullable() ? zero(field.dataType()) : read;
            }
            return new GenericRowWithSchema(values, toStruct);
        }
        if (to instanceof ArrayType toArray && from instanceof ArrayType fromArray) {
            List<Object> out = new ArrayList<>();
            for (Object element : CollectionConverters.asJava((Seq<Object>) value)) {
                out.add(resolve(element, fromArray.elementType(), toArray.elementType()));
            }
            return CollectionConverters.asScala(out).toSeq();
        }
        if (to instanceof MapType toMap && from instanceof MapType fromMap) {
            Map<Object, Object> out = new java.util.LinkedHashMap<>();
            CollectionConverters.asJava((scala.collection.Map<Object, Object>) value).forEach((k, v) -> out.put(
                    resolve(k, fromMap.keyType(), toMap.keyType()), resolve(v, fromMap.valueType(), toMap.valueType())));
            return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(out));
        }
        if (value instanceof Number n) {
            if (to instanceof LongType) {
                return n.longValue();
            } else if (to instanceof DoubleType) {
                return n.doubleValue();
            } else if (to instanceof FloatType) {
                return n.floatValue();
            } else if (to instanceof IntegerType) {
                return n.intValue();
            } else if (to instanceof ShortType) {
                return n.shortValue();
            } else if (to instanceof ByteType) {
                return n.byteValue();
            }
        }
        if (to instanceof StringType && value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (to instanceof BinaryType && value instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        return value;
    }

    /**
     * What the new encoder reads for a null in a field it declares not nullable (a primitive of a
     * bean): Spark's deserializer reads the row's slot without a null check, so 0 or false.
     */
    private static Object zero(DataType type) {
        if (type instanceof IntegerType) {
            return 0;
        } else if (type instanceof LongType) {
            return 0L;
        } else if (type instanceof DoubleType) {
            return 0.0d;
        } else if (type instanceof FloatType) {
            return 0.0f;
        } else if (type instanceof ShortType) {
            return (short) 0;
        } else if (type instanceof ByteType) {
            return (byte) 0;
        } else if (type instanceof BooleanType) {
            return false;
        }
        return null;
    }

    private static int indexOf(StructType struct, String name) {
        StructField[] fields = struct.fields();
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
