package dev.twstester.spark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import dev.twstester.GroupsWithState;
import dev.twstester.TwsQuery;
import dev.twstester.internal.GroupStateTimeouts;
import dev.twstester.internal.RowCodec;
import dev.twstester.sim.SnapshotBuilder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads one stateful operator's state from a checkpoint for {@link CheckpointState}: the
 * operator's id in the checkpoint, its one-operator query (whose processor declares the state
 * variables, or whose legacy function's state encoder gives the state's schema) and the builder
 * of its part of the snapshot. {@link #read} runs the operator's state reader jobs at once and checks
 * what they return against the query; the load it returns fills the builder.
 *
 * @param <K> the operator's grouping key type
 */
final class OperatorStateReader<K> {
    private static final String TTL_COLUMN = "ttlExpirationMs";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TwsQuery<K, ?, ?> query;
    private final int operatorId;
    private final SnapshotBuilder<K> builder;
    private final SparkSession spark;
    private final Path dir;
    private final long batch;

    OperatorStateReader(TwsQuery<K, ?, ?> query, int operatorId, SnapshotBuilder<K> builder, SparkSession spark,
            Path dir, long batch) {
        this.query = query;
        this.operatorId = operatorId;
        this.builder = builder;
        this.spark = spark;
        this.dir = dir;
        this.batch = batch;
    }

    /**
     * Reads the operator's state at the batch and checks it against the query; returns the load that
     * puts it into the builder. {@code metadata}: the checkpoint's state metadata, read once for
     * every operator ({@link #metadata}).
     *
     * @throws IllegalStateException when the stored schema differs from the query's (every difference, with both)
     */
    Runnable read(CompletableFuture<Metadata> metadata) {
        if (query.groupsWithState().isPresent()) {
            return readGroupsWithState();
        }
        Map<String, SnapshotBuilder.Declared> declared = new LinkedHashMap<>();
        builder.declared().forEach(d -> declared.put(d.name(), d));
        // one small Spark job each, run at once: every declared variable, the timers
        Map<String, CompletableFuture<Read>> reads = new LinkedHashMap<>();
        for (SnapshotBuilder.Declared d : declared.values()) {
            reads.put(d.name(), CheckpointState.async(() -> read("state variable '" + d.name() + "'",
                    stateReader().option("stateVarName", d.name()))));
        }
        CompletableFuture<Read> timerRead = query.timeMode().equals(TimeMode.None()) ? null
                : CheckpointState.async(() -> read("timers", stateReader().option("readRegisteredTimers", "true")));
        Metadata operators = CheckpointState.join(metadata);
        if (!operators.names().containsKey(operatorId)) {
            throw new IllegalArgumentException("the checkpoint " + dir + " has no stateful operator " + operatorId
                    + (operators.ids().isEmpty() ? ": Spark's state metadata names no operator (state/" + operatorId
                    + "/_metadata/ is missing, empty or unreadable)" : "; its operators are " + operators.ids()));
        }
        Map<String, String> stored = operators.variables().get(operatorId);
        if (stored == null) {
            throw new IllegalArgumentException("operator " + operatorId + " of the checkpoint " + dir + " is "
                    + operators.names().get(operatorId) + ", not transformWithState; give its operatorId(...)");
        }
        List<String> problems = new ArrayList<>();
        stored.forEach((name, kind) -> {
            SnapshotBuilder.Declared d = declared.get(name);
            if (d == null) {
                problems.add("state variable '" + name + "': the checkpoint has " + kind + " state '" + name
                        + "', the query's processor declares none (it declares " + declared.keySet() + ")");
            } else if (!d.kind().equals(kind)) {
                problems.add("state variable '" + name + "': the checkpoint has a " + kind
                        + " state, the query's processor declares a " + d.kind() + " state");
            }
        });
        List<Runnable> loads = new ArrayList<>();
        for (SnapshotBuilder.Declared d : declared.values()) {
            // a variable the checkpoint's metadata does not list starts empty: Spark's reader cannot read it
            Read read = d.kind().equals(stored.get(d.name())) ? CheckpointState.join(reads.get(d.name())) : null;
            if (read != null) {
                loads.add(variable(builder, d, read, problems));
            }
        }
        Read timers = timerRead == null ? null : CheckpointState.join(timerRead);
        if (timers != null) {
            checkKey("timers", timers.schema(), problems);
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the checkpoint " + dir + " (operator " + operatorId + ", batch "
                    + batch + ") was not written by this version of the query's processor ("
                    + query.userClass().getName() + "), or is another query's:\n  " + String.join("\n  ", problems)
                    + "\nRead it with the processor version that wrote it, or change the processor back.");
        }
        if (timers != null) {
            loads.add(() -> {
                RowCodec<K> keys = RowCodec.of(query.keyEncoder());
                int expiry = timers.schema().fieldIndex(timerColumn(timers.schema()));
                for (Row r : timers.rows()) {
                    builder.timer(keys.fromExternalRow(r.getStruct(0)), r.getLong(expiry));
                }
            });
        }
        return () -> loads.forEach(Runnable::run);
    }

    /**
     * A {@code mapGroupsWithState} / {@code flatMapGroupsWithState} operator's state: one row per key
     * in the default column family, {@code value} holding {@code groupState} (the state encoder's
     * columns, or its one column for a primitive) and {@code timeoutTimestamp} (-1: none), which
     * become the simulator's value state {@code GroupsWithState.STATE_VARIABLE} and the key's timer.
     */
    private Runnable readGroupsWithState() {
        Read read = read("state", stateReader());
        List<String> problems = new ArrayList<>();
        checkKey("the " + query.groupsWithState().get().operatorName() + " state", read.schema(), problems);
        StructType value = struct(read.schema(), "value");
        Encoder<?> stateEncoder = query.groupsWithState().get().stateEncoder();
        StructType expected = RowCodec.of(stateEncoder).schema();
        DataType stored = value == null || !Arrays.asList(value.fieldNames())
                .contains("groupState") ? null : value.apply("groupState").dataType();
        boolean flat = expected.fields().length == 1 && !(stored instanceof StructType);
        String storedText = stored == null ? "(no column value.groupState)" : stored.catalogString();
        String expectedText = flat ? expected.fields()[0].dataType().catalogString() : expected.catalogString();
        if (!storedText.equals(expectedText)) {
            problems.add("the checkpoint stores the state as " + storedText + ", the query's state encoder gives "
                    + expectedText);
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the checkpoint " + dir + " (operator " + operatorId + ", batch " + batch
                    + ") was not written by this query's " + query.groupsWithState().get().operatorName() + " ("
                    + query.userClass().getName() + "):\n  " + String.join("\n  ", problems)
                    + "\nRead it with the state encoder that wrote it.");
        }
        return () -> {
            RowCodec<K> keys = RowCodec.of(query.keyEncoder());
            RowCodec<?> states = RowCodec.of(stateEncoder);
            int valueIndex = read.schema().fieldIndex("value");
            int stateIndex = value.fieldIndex("groupState");
            int timeoutIndex = Arrays.asList(value.fieldNames()).indexOf("timeoutTimestamp");
            for (Row r : read.rows()) {
                K key = keys.fromExternalRow(r.getStruct(0));
                Row v = r.getStruct(valueIndex);
                Row state = flat ? RowFactory.create(v.get(stateIndex)) : v.getStruct(stateIndex);
                builder.value(GroupsWithState.STATE_VARIABLE, key, states.fromExternalRow(state), SnapshotBuilder.NO_EXPIRY);
                if (timeoutIndex >= 0 && !v.isNullAt(timeoutIndex)
                        && v.getLong(timeoutIndex) != GroupStateTimeouts.NO_TIMESTAMP) {
                    builder.timer(key, v.getLong(timeoutIndex));
                }
            }
        };
    }


    /**
     * What Spark's state metadata says of a checkpoint's stateful operators: their ids (in the
     * metadata's order), each one's name, and the state variables of each {@code transformWithState}
     * operator, by name as "value", "list" or "map".
     */
    record Metadata(List<Integer> ids, Map<Integer, String> names, Map<Integer, Map<String, String>> variables) {}

    /**
     * The checkpoint's {@link Metadata} as of {@code batch} (without it, Spark's reader gives the
     * last batch's): one job for every operator.
     */
    static Metadata metadata(SparkSession spark, Path dir, long batch) {
        Metadata all = new Metadata(new ArrayList<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
        List<Row> operators = CheckpointState.sparkRead(dir, "the state metadata (state/*/_metadata/)",
                () -> spark.read().format("state-metadata").option("batchId", String.valueOf(batch))
                        .load(dir.toString()).collectAsList());
        for (Row op : operators) {
            int id = ((Number) op.getAs("operatorId")).intValue();
            all.ids().add(id);
            String name = op.getAs("operatorName");
            if (all.names().putIfAbsent(id, String.valueOf(name)) != null
                    || !String.valueOf(name).startsWith("transformWithState")) {
                continue;
            }
            Map<String, String> found = new LinkedHashMap<>();
            String properties = op.getAs("operatorProperties");
            try {
                for (JsonNode v : JSON.readTree(properties).path("stateVariables")) {
                    String type = v.path("stateVariableType").asText();
                    if (!type.equals("TimerState")) { // Spark's own timer column families, e.g. $procTimers_keyToTimestamp
                        found.put(v.path("stateName").asText(), kind(type));
                    }
                }
            } catch (java.io.IOException e) {
                throw new IllegalStateException("cannot read the state variables of operator " + id
                        + " from the checkpoint's metadata: " + properties, e);
            }
            all.variables().put(id, found);
        }
        return all;
    }

    /** One state reader's schema and rows. */
    private record Read(StructType schema, List<Row> rows) {
        static Read of(Dataset<Row> rows) {
            return new Read(rows.schema(), rows.collectAsList());
        }
    }

    /** {@code reader}'s rows of the checkpoint; a failure of Spark's reader names the folder, operator and {@code what}. */
    private Read read(String what, org.apache.spark.sql.DataFrameReader reader) {
        return CheckpointState.sparkRead(dir, "operator " + operatorId + "'s " + what + " (state/" + operatorId + "/)",
                () -> Read.of(reader.load(dir.toString())));
    }

    private org.apache.spark.sql.DataFrameReader stateReader() {
        return spark.read().format("statestore").option("operatorId", String.valueOf(operatorId))
                .option("batchId", String.valueOf(batch)).option("flattenCollectionTypes", "true");
    }

    /** Checks a variable's columns against the declared encoders; returns the load to run when none differ. */
    private Runnable variable(SnapshotBuilder<K> builder, SnapshotBuilder.Declared d, Read rows,
            List<String> problems) {
        StructType schema = rows.schema();
        int before = problems.size();
        checkKey("state variable '" + d.name() + "'", schema, problems);
        String valueColumn = switch (d.kind()) {
            case "map" -> "user_map_value";
            case "list" -> "list_element"; // a flattened list's column, one row per element (Spark 4.0 to 4.2)
            default -> "value";
        };
        Encoder<?> valueEncoder = d.encoders().get(d.kind().equals("map") ? 1 : 0);
        checkStruct(d, valueColumn, schema, valueEncoder, problems);
        if (d.kind().equals("map")) {
            checkStruct(d, "user_map_key", schema, d.encoders().get(0), problems);
        }
        if (problems.size() > before) {
            return () -> {};
        }
        return () -> {
            RowCodec<K> keys = RowCodec.of(query.keyEncoder());
            RowCodec<?> values = RowCodec.of(valueEncoder);
            RowCodec<?> mapKeys = d.kind().equals("map") ? RowCodec.of(d.encoders().get(0)) : null;
            int mapKeyIndex = mapKeys == null ? -1 : schema.fieldIndex("user_map_key");
            int valueIndex = schema.fieldIndex(valueColumn);
            boolean ttl = withTtl(struct(schema, valueColumn));
            for (Row r : rows.rows()) {
                K key = keys.fromExternalRow(r.getStruct(0));
                Row stored = r.getStruct(valueIndex);
                long expiry = SnapshotBuilder.NO_EXPIRY;
                if (ttl) {
                    expiry = stored.isNullAt(1) ? SnapshotBuilder.NO_EXPIRY : stored.getLong(1);
                    stored = stored.getStruct(0);
                }
                Object value = values.fromExternalRow(stored);
                switch (d.kind()) {
                    case "value" -> builder.value(d.name(), key, value, expiry);
                    case "list" -> builder.listElement(d.name(), key, value, expiry);
                    default -> builder.mapEntry(d.name(), key, mapKeys.fromExternalRow(r.getStruct(mapKeyIndex)),
                            value, expiry);
                }
            }
        };
    }

    private void checkKey(String what, StructType schema, List<String> problems) {
        StructType expected = RowCodec.of(query.keyEncoder()).schema();
        StructType actual = struct(schema, "key");
        if (actual == null || !actual.catalogString().equals(expected.catalogString())) {
            problems.add(what + ": the checkpoint's grouping key is " + (actual == null ? "missing" : actual.catalogString())
                    + ", the query's key encoder gives " + expected.catalogString());
        }
    }

    private static void checkStruct(SnapshotBuilder.Declared d, String column, StructType schema, Encoder<?> encoder,
            List<String> problems) {
        StructType expected = RowCodec.of(encoder).schema();
        StructType actual = struct(schema, column);
        if (withTtl(actual)) {
            actual = (StructType) actual.fields()[0].dataType();
        }
        if (actual == null || !actual.catalogString().equals(expected.catalogString())) {
            String part = column.equals("user_map_key") ? "map key" : "value";
            problems.add("state variable '" + d.name() + "' (" + d.kind() + " state): the checkpoint stores its "
                    + part + " as " + (actual == null ? "(no column " + column + ")" : actual.catalogString())
                    + ", the query's processor declares " + expected.catalogString());
        }
    }

    /**
     * Whether a stored value has a TTL: Spark then stores {@code struct<value: struct<the encoder's
     * schema>, ttlExpirationMs: bigint>}, without TTL the encoder's schema itself.
     */
    private static boolean withTtl(StructType stored) {
        return stored != null && stored.fields().length == 2 && stored.fields()[0].name().equals("value")
                && stored.fields()[0].dataType() instanceof StructType && stored.fields()[1].name().equals(TTL_COLUMN);
    }

    private static StructType struct(StructType schema, String column) {
        for (StructField f : schema.fields()) {
            if (f.name().equals(column) && f.dataType() instanceof StructType s) {
                return s;
            }
        }
        return null;
    }

    /** The timers' expiry column: the reader's one long column besides the key and partition. */
    private static String timerColumn(StructType schema) {
        for (StructField f : schema.fields()) {
            if (!f.name().equals("key") && !f.name().equals("partition_id")
                    && f.dataType() instanceof org.apache.spark.sql.types.LongType) {
                return f.name();
            }
        }
        throw new IllegalStateException("this Spark's state reader gives registered timers as " + schema.catalogString()
                + ", with no expiry column; twstester reads Spark 4.0, 4.1 and 4.2");
    }

    private static String kind(String sparkType) {
        return switch (sparkType) {
            case "ValueState" -> "value";
            case "ListState" -> "list";
            case "MapState" -> "map";
            default -> sparkType;
        };
    }

}
