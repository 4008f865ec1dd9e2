package dev.twstester.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import org.apache.spark.sql.SparkSession;


import dev.twstester.GroupsWithState;
import dev.twstester.TwsQuery;
import dev.twstester.internal.Sneaky;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.SnapshotBuilder;
import dev.twstester.sim.StateSnapshot;

/**
 * Reads the state of a query's stateful operators from its Spark streaming checkpoint as a
 * {@link StateSnapshot}, so that a simulator can start from the state a query has in production:
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
 * <p>A query of several stateful operators ({@link TwsQuery#then}) is read whole: every operator's
 * state, at one batch, into one snapshot, with the query's one position. Spark numbers a
 * checkpoint's stateful operators from the sink back to the source, so the query's last operator
 * is operator 0 there and its first operator {@code n - 1}; each is checked against its own
 * processor, and an error names the operator.
 * <pre>{@code
 * StateSnapshot production = CheckpointState.of(sessions.then(alerts)).read(Path.of("/checkpoints/alerts"));
 * TwsSimulator<String, Click, PageAlert> sim = new TwsSimulator<>(sessions.then(alerts));
 * sim.restore(production);                  // every operator's state and timers, the watermark, the next batch id
 * }</pre>
 *
 * <p>Spark runs on the shared session ({@link LiveSpark#session()}) unless {@link #session} gives
 * one. The state data source and options used exist in Spark 4.0, 4.1 and 4.2.
 *
 * @param <K> grouping key type
 */
public final class CheckpointState<K> {
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


    /**
     * For a query of one stateful operator: the id of the operator to read, when the checkpoint's
     * query has others too (0, the default, is the operator nearest the sink). A query of several
     * operators reads each from its own id, so it refuses this.
     */
    public CheckpointState<K> operatorId(int id) {
        if (id < 0) {
            throw new IllegalArgumentException("operatorId " + id + " must not be negative");
        }
        if (query.operators().size() > 1) {
            throw new IllegalArgumentException("operatorId(" + id + "): the query has " + query.operators().size()
                    + " stateful operators, each read from its own id (from the sink back to the source); "
                    + "operatorId(...) picks the operator a query of one operator reads");
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
     * The query's state in {@code checkpoint} (a streaming query's {@code checkpointLocation}):
     * every stateful operator's, at one batch, with where the query stood then.
     *
     * @throws IllegalArgumentException when the folder is no checkpoint, has no state of an
     *         operator (or, for a query of several operators, holds another number of them), or the
     *         batch is not committed (each message says what the folder has)
     * @throws IllegalStateException when the checkpoint's state schema differs from what an
     *         operator's processor declares (every difference, with both schemas; for a query of
     *         several operators the message starts with the operator)
     */
    public StateSnapshot read(Path checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint must not be null");
        Path dir = checkpoint.toAbsolutePath().normalize();
        List<TwsQuery<?, ?, ?>> operators = query.operators();
        requireOperators(dir, operators.size());
        SparkSession spark = session != null ? session : LiveSpark.session();
        CheckpointLogs.Position at = CheckpointLogs.read(spark, dir, batchId); // one batch for every operator
        SnapshotBuilder<K> builder = SnapshotBuilder.of(query, fidelity);
        boolean anyProcessor = operators.stream().anyMatch(op -> op.groupsWithState().isEmpty());
        CompletableFuture<OperatorStateReader.Metadata> metadata = anyProcessor
                ? async(() -> OperatorStateReader.metadata(spark, dir, at.batchId())) : CompletableFuture.completedFuture(null);
        List<CompletableFuture<Runnable>> reads = new ArrayList<>();
        for (int i = 0; i < operators.size(); i++) {
            OperatorStateReader<?> reader = reader(operators.get(i), checkpointId(i, operators.size()),
                    builder.operator(i), spark, dir, at.batchId());
            String where = operators.size() == 1 ? "" : "the query's operator " + i + " ("
                    + operators.get(i).userClass().getSimpleName() + ", operator " + checkpointId(i, operators.size())
                    + " in the checkpoint): ";
            reads.add(async(() -> named(where, () -> reader.read(metadata))));
        }
        reads.forEach(read -> join(read).run());
        return builder.position(at.batchTimestampMs(), at.batchWatermarkMs(), at.nextBatchWatermarkMs(),
                at.batchId() + 1).build();
    }

    private static <Q> OperatorStateReader<Q> reader(TwsQuery<Q, ?, ?> operator, int id, SnapshotBuilder<?> builder,
            SparkSession spark, Path dir, long batch) {
        @SuppressWarnings("unchecked")
        SnapshotBuilder<Q> typed = (SnapshotBuilder<Q>) builder;
        return new OperatorStateReader<>(operator, id, typed, spark, dir, batch);
    }

    /**
     * The checkpoint's id of operator {@code index} (plan order) of a query of {@code count}: Spark
     * numbers stateful operators from the sink back to the source; {@link #operatorId} for one.
     */
    private int checkpointId(int index, int count) {
        return count == 1 ? operatorId : count - 1 - index;
    }

    /** {@code read}'s result; its errors, of a query of several operators, start with {@code where}. */
    private static Runnable named(String where, java.util.function.Supplier<Runnable> read) {
        try {
            return read.get();
        } catch (IllegalArgumentException e) {
            throw where.isEmpty() ? e : new IllegalArgumentException(where + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw where.isEmpty() ? e : new IllegalStateException(where + e.getMessage(), e);
        }
    }

    /**
     * {@code read}'s result: a read by Spark of the checkpoint {@code dir}; any failure (a damaged,
     * truncated or foreign file) is an {@link IllegalArgumentException} naming the folder, what was
     * read and Spark's first line.
     */
    static <T> T sparkRead(Path dir, String what, java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (Exception e) {   // Spark's, checked ones included (thrown through reflection)
            String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            throw new IllegalArgumentException("the checkpoint " + dir + ": " + what + " cannot be read: "
                    + e.getClass().getSimpleName() + ": " + (message.length() > 300 ? message.substring(0, 300) + "..."
                    : message) + "; the folder is damaged or not this query's checkpoint (give the folder the query"
                    + " was started with as its checkpointLocation)", e);
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

    /**
     * Throws unless {@code dir} is a checkpoint with the state of this reader's operator (one) or
     * of exactly {@code count} operators, numbered 0 to {@code count - 1}.
     */
    private void requireOperators(Path dir, int count) {
        requireCheckpointFolder(dir);
        List<String> operators = operators(dir);
        if (count == 1 && !Files.isDirectory(dir.resolve("state").resolve(String.valueOf(operatorId)))) {
            throw new IllegalArgumentException("the checkpoint " + dir + " has no state of operator " + operatorId
                    + (!operators.isEmpty() ? "; its state/ folder has operators " + operators
                    : Files.isDirectory(dir.resolve("state")) ? ": its state/ folder is empty"
                    : ": it has no state/ folder (no stateful batch was committed)"));
        }
        List<String> expected = java.util.stream.IntStream.range(0, count).mapToObj(String::valueOf).toList();
        if (count > 1 && !operators.equals(expected)) {
            throw new IllegalArgumentException("the checkpoint " + dir + (operators.isEmpty()
                    ? " has no state/ folder (no stateful batch was committed)"
                    : " holds the state of stateful operators " + operators) + ", the query has " + count + ": "
                    + expected + ", numbered from the sink back to the source (its last operator is 0)"
                    + (operators.size() == 1 ? "; read a query of one stateful operator with a query of one" : ""));
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
