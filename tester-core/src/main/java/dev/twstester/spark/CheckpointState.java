package dev.twstester.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.twstester.GroupsWithState;
import dev.twstester.TwsQuery;
import dev.twstester.internal.GroupStateTimeouts;
import dev.twstester.internal.RowCodec;
import dev.twstester.internal.Sneaky;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.SnapshotBuilder;
import dev.twstester.sim.StateSnapshot;

/**
 * Reads the state of one {@code transformWithState} operator from a Spark streaming checkpoint as
 * a {@link StateSnapshot}, so that a simulator can start from the state a query has in production:
 *
 * <pre>{@code
 * StateSnapshot production = CheckpointState.of(CartWatch.query()).read(Path.of("/checkpoints/carts"));
 * TwsSimulator<String, CartEvent, CartAlert> sim = new TwsSimulator<>(CartWatch.query());
 * sim.restore(production);                       // state, timers, watermark, next batch id
 * sim.runBatch(CartEvent.add("ana", "boots", at("10:00")));
 * }</pre>
 *
 * It reads with Spark's own state data source: {@code spark.read.format("state-metadata")} for the
 * operator's state variables, {@code format("statestore")} with {@code stateVarName} (and
 * {@code flattenCollectionTypes}) for each variable's rows, with {@code readRegisteredTimers} for
 * the timers; and the checkpoint's offset and commit logs for where the query stood. What the
 * snapshot holds, for the chosen batch (by default the last committed one):
 * <ul>
 * <li>every value, list element and map entry of every state variable, with the TTL expiration
 * the store keeps for it (the {@code ttlExpirationMs} column of a variable with TTL);</li>
 * <li>every registered timer;</li>
 * <li>the next batch id (the batch + 1), the next batch's watermark (the commit log's
 * {@code nextBatchWatermarkMs}, what Spark resumes with), the batch's own watermark (the offset
 * log's {@code batchWatermarkMs}: the next batch's late-row filter after a restart) and its
 * timestamp (the simulator's clock).</li>
 * </ul>
 * The query's processor declares its state variables in {@code init} (run once here, as the
 * driver does); a checkpoint written by another version of it (a variable of another kind or
 * schema, or one the processor no longer declares) fails with every difference named and both
 * schemas shown. A variable the processor declares and the checkpoint does not have starts empty,
 * as a new variable does in Spark.
 *
 * <p>A {@code mapGroupsWithState} / {@code flatMapGroupsWithState} query
 * ({@link TwsQuery#mapGroupsWithState}) reads its operator's one row per key: the state value
 * becomes the value state {@link GroupsWithState#STATE_VARIABLE} and a set timeout the key's timer,
 * as the simulator keeps them; a state encoder whose schema differs from the stored one fails with
 * both schemas. That is also where a migration to {@code transformWithState} takes its initial state
 * from (the old checkpoint's state).
 *
 * <p>A {@link TwsChain}'s query has two stateful operators in its checkpoint:
 * {@link #of(TwsChain)} reads both, at one batch, into the {@link ChainSnapshot} a
 * {@code ChainSimulator} restores (see {@link ChainCheckpointState}).
 *
 * <p>Spark runs on the shared session ({@link LiveSpark#session()}) unless {@link #session} gives
 * one. The state data source and options used exist in Spark 4.0, 4.1 and 4.2.
 *
 * @param <K> grouping key type
 */
public final class CheckpointState<K> {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TTL_COLUMN = "ttlExpirationMs";
    /** Threads for the state reader's jobs, which run at once (daemons: they never keep the JVM alive). */
    private static final ExecutorService READERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "twstester-checkpoint-reader");
        t.setDaemon(true);
        return t;
    });

    private final TwsQuery<K, ?, ?> query;
    private int operatorId;
    private Long batchId;
    private Fidelity fidelity = Fidelity.FULL;
    private SparkSession session;

    private CheckpointState(TwsQuery<K, ?, ?> query) {
        this.query = query;
    }

    /** A reader of {@code query}'s state: operator 0, the last committed batch, for a {@link Fidelity#FULL} simulator. */
    public static <K, I, O> CheckpointState<K> of(TwsQuery<K, I, O> query) {
        return new CheckpointState<>(Objects.requireNonNull(query, "query must not be null"));
    }


    /** The stateful operator's id in the query (0, the default, for a query with one stateful operator). */
    public CheckpointState<K> operatorId(int id) {
        if (id < 0) {
            throw new IllegalArgumentException("operatorId " + id + " must not be negative");
        }
        this.operatorId = id;
        return this;
    }

    /** Reads the state as batch {@code id} committed it, instead of the last committed batch. */
    public CheckpointState<K> batchId(long id) {
        if (id < 0) {
            throw new IllegalArgumentException("batchId " + id + " must not be negative");
        }
        this.batchId = id;
        return this;
    }

    /** The fidelity of the simulator the snapshot is for ({@link Fidelity#FULL} by default). */
    public CheckpointState<K> fidelity(Fidelity fidelity) {
        this.fidelity = Objects.requireNonNull(fidelity, "fidelity must not be null");
        return this;
    }

    /** Reads with {@code session} instead of the shared one. */
    public CheckpointState<K> session(SparkSession session) {
        this.session = Objects.requireNonNull(session, "session must not be null");
        return this;
    }

    /**
     * The operator's state in {@code checkpoint} (a streaming query's {@code checkpointLocation}).
     *
     * @throws IllegalArgumentException when the folder is no checkpoint, has no state of the
     *         operator, or the batch is not committed (each message says what the folder has)
     * @throws IllegalStateException when the checkpoint's state schema differs from what the
     *         query's processor declares (every difference, with both schemas)
     */
    public StateSnapshot read(Path checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint must not be null");
        Path dir = checkpoint.toAbsolutePath().normalize();
        requireCheckpoint(dir);
        SparkSession spark = session != null ? session : LiveSpark.session();
        CheckpointLogs.Position at = CheckpointLogs.read(spark, dir, batchId);
        SnapshotBuilder<K> builder = SnapshotBuilder.of(query, fidelity);
        if (query.groupsWithState().isPresent()) {
            readGroupsWithState(spark, dir, at.batchId(), builder);
            return builder.position(at.batchTimestampMs(), at.batchWatermarkMs(), at.nextBatchWatermarkMs(),
                    at.batchId() + 1).build();
        }
        Map<String, SnapshotBuilder.Declared> declared = new LinkedHashMap<>();
        builder.declared().forEach(d -> declared.put(d.name(), d));
        // one small Spark job each, run at once: the metadata, every declared variable, the timers
        CompletableFuture<Map<String, String>> metadata = async(() -> variables(spark, dir));
        Map<String, CompletableFuture<Read>> reads = new LinkedHashMap<>();
        for (SnapshotBuilder.Declared d : declared.values()) {
            reads.put(d.name(), async(() -> Read.of(stateReader(spark, at.batchId())
                    .option("stateVarName", d.name()).load(dir.toString()))));
        }
        CompletableFuture<Read> timerRead = query.timeMode().equals(TimeMode.None()) ? null
                : async(() -> Read.of(stateReader(spark, at.batchId()).option("readRegisteredTimers", "true")
                        .load(dir.toString())));
        Map<String, String> stored = join(metadata);
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
            // a variable the checkpoint does not have (its read fails) starts empty
            Read read = d.kind().equals(stored.get(d.name())) ? join(reads.get(d.name())) : null;
            if (read != null) {
                loads.add(variable(builder, d, read, problems));
            }
        }
        Read timers = timerRead == null ? null : join(timerRead);
        if (timers != null) {
            checkKey("timers", timers.schema(), problems);
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the checkpoint " + dir + " (operator " + operatorId + ", batch "
                    + at.batchId() + ") was not written by this version of the query's processor ("
                    + query.userClass().getName() + "):\n  " + String.join("\n  ", problems)
                    + "\nRead it with the processor version that wrote it, or change the processor back.");
        }
        loads.forEach(Runnable::run);
        if (timers != null) {
            RowCodec<K> keys = RowCodec.of(query.keyEncoder());
            int expiry = timers.schema().fieldIndex(timerColumn(timers.schema()));
            for (Row r : timers.rows()) {
                builder.timer(keys.fromExternalRow(r.getStruct(0)), r.getLong(expiry));
            }
        }
        return builder.position(at.batchTimestampMs(), at.batchWatermarkMs(), at.nextBatchWatermarkMs(),
                at.batchId() + 1).build();
    }

    /**
     * A {@code mapGroupsWithState} / {@code flatMapGroupsWithState} operator's state: one row per key
     * in the default column family, {@code value} holding {@code groupState} (the state encoder's
     * columns, or its one column for a primitive) and {@code timeoutTimestamp} (-1: none), which
     * become the simulator's value state {@code GroupsWithState.STATE_VARIABLE} and the key's timer.
     */
    private void readGroupsWithState(SparkSession spark, Path dir, long batch, SnapshotBuilder<K> builder) {
        Read read = Read.of(stateReader(spark, batch).load(dir.toString()));
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
    }

    /** One state reader's schema and rows. */
    private record Read(StructType schema, List<Row> rows) {
        static Read of(Dataset<Row> rows) {
            return new Read(rows.schema(), rows.collectAsList());
        }
    }

    static <T> CompletableFuture<T> async(java.util.function.Supplier<T> job) {
        return CompletableFuture.supplyAsync(job, READERS);
    }

    /** The job's result; its exception as it was thrown. */
    static <T> T join(CompletableFuture<T> job) {
        try {
            return job.join();
        } catch (CompletionException e) {
            throw Sneaky.raise(e.getCause());
        }
    }

    private org.apache.spark.sql.DataFrameReader stateReader(SparkSession spark, long batch) {
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

    /** The operator's state variables by name, as "value", "list" or "map", from the state metadata. */
    private Map<String, String> variables(SparkSession spark, Path dir) {
        List<Row> operators = spark.read().format("state-metadata").load(dir.toString()).collectAsList();
        Map<String, String> found = new LinkedHashMap<>();
        List<Integer> ids = new ArrayList<>();
        for (Row op : operators) {
            int id = ((Number) op.getAs("operatorId")).intValue();
            ids.add(id);
            if (id != operatorId || found.size() > 0) {
                continue;
            }
            String name = op.getAs("operatorName");
            if (!String.valueOf(name).startsWith("transformWithState")) {
                throw new IllegalArgumentException("operator " + operatorId + " of the checkpoint " + dir + " is "
                        + name + ", not transformWithState; give its operatorId(...)");
            }
            String properties = op.getAs("operatorProperties");
            try {
                JsonNode vars = JSON.readTree(properties).path("stateVariables");
                for (JsonNode v : vars) {
                    String type = v.path("stateVariableType").asText();
                    if (!type.equals("TimerState")) { // Spark's own timer column families, e.g. $procTimers_keyToTimestamp
                        found.put(v.path("stateName").asText(), kind(type));
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the state variables of operator " + operatorId
                        + " from the checkpoint's metadata: " + properties, e);
            }
        }
        if (!ids.contains(operatorId)) {
            throw new IllegalArgumentException("the checkpoint " + dir + " has no stateful operator " + operatorId
                    + "; its operators are " + ids);
        }
        return found;
    }

    private static String kind(String sparkType) {
        return switch (sparkType) {
            case "ValueState" -> "value";
            case "ListState" -> "list";
            case "MapState" -> "map";
            default -> sparkType;
        };
    }

    /** The stateful operators whose state {@code checkpoint} holds: the names of its state/ folder's entries, sorted. */
    static List<String> operators(Path checkpoint) {
        List<String> operators = new ArrayList<>();
        Path state = checkpoint.resolve("state");
        if (Files.isDirectory(state)) {
            try (Stream<Path> list = Files.list(state)) {
                list.map(p -> p.getFileName().toString()).sorted().forEach(operators::add);
            } catch (IOException e) {
                // reported without the list
            }
        }
        return operators;
    }

    private void requireCheckpoint(Path dir) {
        requireCheckpointFolder(dir);
        if (!Files.isDirectory(dir.resolve("state").resolve(String.valueOf(operatorId)))) {
            List<String> operators = operators(dir);
            throw new IllegalArgumentException("the checkpoint " + dir + " has no state of operator " + operatorId
                    + (operators.isEmpty() ? ": it has no state/ folder (no stateful batch was committed)"
                    : "; its state/ folder has operators " + operators));
        }
    }

    /** Throws unless {@code dir} is a streaming query's checkpoint folder (with offset and commit logs). */
    static void requireCheckpointFolder(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no checkpoint folder " + dir + ": give the folder the query was "
                    + "started with as its checkpointLocation");
        }
        if (!Files.isDirectory(dir.resolve("offsets")) || !Files.isDirectory(dir.resolve("commits"))) {
            throw new IllegalArgumentException(dir + " is no Spark streaming checkpoint: it has no offsets/ and "
                    + "commits/ folders; give the folder the query was started with as its checkpointLocation");
        }
    }
}
