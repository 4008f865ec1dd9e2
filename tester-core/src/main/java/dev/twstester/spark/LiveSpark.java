package dev.twstester.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.spark.sql.SparkSession;

import dev.twstester.internal.SparkLogs;

/**
 * The one SparkSession of this JVM that live runs share: local by default, RocksDB state store
 * (transformWithState needs it), UTC session time zone, no UI, and the {@link #FAST_SETTINGS}.
 * Created on first use and stopped when the JVM exits. Each live run gets its own clone of the
 * session (so concurrent runs can differ in {@code spark.sql.shuffle.partitions}). Spark's loggers
 * log warnings and errors only, unless configured otherwise ({@link SparkLogs}). Thread-safe: tests
 * running in parallel share the one session, and their runs run at the same time ({@link LiveRunner}).
 *
 * <pre>{@code
 * SparkSession spark = LiveSpark.session();   // local[2] unless -Dtwstester.spark.master=... is set
 * }</pre>
 *
 * <p>Any master URL works: live runs collect what the processors' tasks report through Spark
 * accumulators, so executors may run in other JVMs. A {@code local-cluster[2,1,1024]} master (two
 * workers of one core and 1024 MB, each starting its executor as a separate JVM on this machine)
 * needs the environment variable {@code SPARK_HOME} ({@link #localClusterSettings}). On a remote
 * master ({@code spark://host:7077}) the executors need the processors' classes
 * ({@link #standaloneSettings}) and the run's checkpoint folder at the same path
 * ({@value #CHECKPOINT_ROOT_PROPERTY}, a shared file system).
 */
public final class LiveSpark {
    /** System property naming the master URL, e.g. {@code local[4]} or {@code spark://host:7077}. */
    public static final String MASTER_PROPERTY = "twstester.spark.master";
    /**
     * System property naming the folder live runs create their checkpoints in (default
     * {@code /dev/shm}, else {@code java.io.tmpdir}). Executors write the state store's files
     * there, so with executors on other machines it must be a shared folder mounted at the same path.
     */
    public static final String CHECKPOINT_ROOT_PROPERTY = "twstester.live.checkpointRoot";
    static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

    /**
     * Session settings that make a live run quicker without changing what it computes (a test runs
     * generated scenarios with and without them and requires identical results):
     * <ul>
     * <li>{@code spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled=true}: a
     * commit writes the batch's changes as a changelog file instead of a RocksDB checkpoint of
     * the whole store (folder, hard links, file uploads, zip); snapshots are left to the
     * background maintenance. Production RocksDB users turn it on for the same reason.</li>
     * <li>{@code spark.sql.leafNodeDefaultParallelism=1}: the memory source's few rows are read
     * by one task instead of one per core; the shuffle to {@code spark.sql.shuffle.partitions}
     * after it is unchanged.</li>
     * <li>{@code fs.file.impl} = a local file system that sets permissions through
     * {@code java.nio} instead of forking {@code chmod} for every checkpoint file and folder
     * (Hadoop does so without its native library), with the file system cache off for these
     * sessions only ({@code fs.file.impl.disable.cache}).</li>
     * </ul>
     * Checkpoints also go to a memory-backed folder ({@code /dev/shm}) when there is one
     * ({@link LiveRunner#checkpointRoot}). {@link #sparkDefaultsSession()} has none of these.
     */
    public static final Map<String, String> FAST_SETTINGS = fastSettings();

    /**
     * The shared sessions, created on first use: read and written only in this class's
     * {@code synchronized} methods, so tests on several threads get one session between them.
     */
    private static SparkSession session;
    private static SparkSession defaults;
    /** Deleted checkpoints that maintenance may have written to again since; deleted again on {@link #stop()} (a concurrent set). */
    private static final java.util.Set<Path> LEFT_OVER = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private LiveSpark() {}

    private static Map<String, String> fastSettings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled", "true");
        s.put("spark.sql.leafNodeDefaultParallelism", "1");
        s.put("fs.file.impl", NoForkLocalFileSystem.class.getName());
        s.put("fs.file.impl.disable.cache", "true");
        return Map.copyOf(s);
    }

    /** The shared session, created on first call, with the {@link #FAST_SETTINGS}. */
    public static synchronized SparkSession session() {
        if (session == null) {
            SparkLogs.live();
            String master = System.getProperty(MASTER_PROPERTY, "local[2]");
            SparkSession.Builder builder = SparkSession.builder();
            if (master.startsWith("local-cluster")) {
                localClusterSettings(System.getenv("SPARK_HOME")).forEach(builder::config);
            } else if (master.startsWith("spark://")) {
                standaloneSettings().forEach(builder::config);
            }
            session = builder
                    .appName("twstester")
                    .master(master)
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "1")
                    .config("spark.sql.session.timeZone", "UTC")
                    .config("spark.sql.streaming.stateStore.providerClass", ROCKSDB)
                    .config("spark.sql.streaming.numRecentProgressUpdates", "1000")
                    // speed only, no semantic effect: checkpoint renames without Hadoop's shell
                    // readlink, and executors without the per-session class loader that asks the
                    // driver over RPC for every class name Janino probes
                    .config("spark.sql.streaming.checkpointFileManagerClass",
                            SparkStreaming.fileSystemCheckpointFileManager())
                    .config("spark.sql.artifact.isolation.enabled", "false")
                    // no effect: a streaming query runs without adaptive execution whatever this
                    // says; set, Spark warns twice per query start that it turned it off
                    .config("spark.sql.adaptive.enabled", "false")
                    .getOrCreate();
            // session settings, not the context's: sparkDefaultsSession() runs without them
            FAST_SETTINGS.forEach(session.conf()::set);
            Runtime.getRuntime().addShutdownHook(new Thread(LiveSpark::stop, "twstester-spark-stop"));
        }
        return session;
    }

    /**
     * What a {@code local-cluster[workers,cores,memoryMB]} master needs from this JVM (Spark's
     * workers run in it and start each executor as a separate JVM through Spark's launcher):
     * <ul>
     * <li>{@code spark.executor.extraClassPath}: this JVM's class path (Spark, twstester, the
     * processors and their tests), as Spark's own test suites give it; SparkContext adds the
     * {@code --add-opens} flags Spark needs on Java 17 to the executors' command line itself;</li>
     * <li>{@code spark.executor.extraJavaOptions}: {@code -Duser.timezone} of this JVM, so that
     * executors run in the time zone local executors run in;</li>
     * <li>{@code spark.executorEnv.SPARK_SCALA_VERSION}: the launcher asks for it (or a build
     * folder of a Spark source tree) before it looks for the Spark home's {@code jars/}
     * folder.</li>
     * </ul>
     * The launcher also requires a Spark home with a {@code jars/} folder: the worker's Spark home
     * is the {@code SPARK_HOME} environment variable ({@code sparkHome}), which may name an empty
     * folder; its {@code jars/} folder is created when missing (empty: the class path above has the
     * jars), and executors write their logs under its {@code work/} folder. Settings given as
     * {@code -Dspark...} system properties are left as they are.
     *
     * @throws IllegalStateException when {@code sparkHome} is null, saying what to set
     */
    static Map<String, String> localClusterSettings(String sparkHome) {
        if (sparkHome == null || sparkHome.isBlank()) {
            throw new IllegalStateException("-D" + MASTER_PROPERTY + "=" + System.getProperty(MASTER_PROPERTY)
                    + ": Spark's workers start each executor JVM with Spark's launcher, which needs a Spark home "
                    + "with a jars/ folder; set the environment variable SPARK_HOME to a Spark 4 distribution or "
                    + "to an empty folder (its jars/ folder is then created empty: executors get this JVM's class path)");
        }
        Path jars = Path.of(sparkHome, "jars");
        try {
            Files.createDirectories(jars);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create " + jars + ", the jars/ folder Spark's launcher needs in "
                    + "SPARK_HOME: " + e + "; set SPARK_HOME to a writable folder or a Spark distribution", e);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("spark.executor.extraClassPath", System.getProperty("java.class.path"));
        settings.put("spark.executor.extraJavaOptions", "-Duser.timezone=" + java.util.TimeZone.getDefault().getID());
        String scalaVersion = scala.util.Properties.versionNumberString();
        settings.put("spark.executorEnv.SPARK_SCALA_VERSION", scalaVersion.substring(0, scalaVersion.lastIndexOf('.')));
        settings.keySet().removeIf(key -> System.getProperty(key) != null);
        return settings;
    }

    /**
     * What a standalone master ({@code spark://host:port}) needs from this JVM: the executors get
     * this JVM's class path as {@code spark.executor.extraClassPath} (its folders and jars must
     * exist at the same paths on the workers), unless {@code -Dspark.executor.extraClassPath} is set.
     */
    static Map<String, String> standaloneSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        if (System.getProperty("spark.executor.extraClassPath") == null) {
            settings.put("spark.executor.extraClassPath", System.getProperty("java.class.path"));
        }
        return settings;
    }

    /**
     * A session on the shared session's Spark context with Spark's defaults for everything the
     * {@link #FAST_SETTINGS} tune (the context's settings above stay: local master, RocksDB,
     * UTC, ...), for checking that those settings change no result:
     * {@code LiveRunner.of(query).session(LiveSpark.sparkDefaultsSession())}.
     */
    public static synchronized SparkSession sparkDefaultsSession() {
        SparkSession shared = session();
        if (defaults == null) {
            defaults = shared.newSession();
        }
        return defaults;
    }

    /** Stops the shared session (the next {@link #session()} call starts a new one). */
    public static synchronized void stop() {
        if (session != null) {
            session.stop();
            session = null;
            defaults = null;
        }
        for (Path dir : LEFT_OVER) {
            if (Files.exists(dir)) {
                LiveRunner.deleteRecursively(dir);
            }
        }
        LEFT_OVER.clear();
    }

    /**
     * {@code dir}, a run's checkpoint already deleted, is deleted again when the session stops:
     * with changelog checkpointing the state store's background maintenance uploads snapshots
     * (a few KB) into checkpoints of stopped queries.
     */
    static void deleteWhenStopped(Path dir) {
        LEFT_OVER.add(dir);
    }

    /**
     * A copy of {@code base} (its settings, not its streaming queries or listeners) with
     * {@code spark.sql.shuffle.partitions} set for one run, so concurrent runs do not share it. The
     * memory source does not support {@code Trigger.AvailableNow()} itself; the copy lets Spark wrap
     * it, so that such a run behaves as with a source that does (Kafka, files): every batch until
     * none is left, instead of falling back to a single batch.
     */
    static SparkSession forRun(SparkSession base, int shufflePartitions) {
        SparkLogs.live(); // also for a session of the caller's own
        SparkSession run = ((org.apache.spark.sql.classic.SparkSession) base).cloneSession();
        run.conf().set("spark.sql.shuffle.partitions", String.valueOf(shufflePartitions));
        run.conf().set("spark.sql.streaming.triggerAvailableNowWrapper.enabled", "true");
        return run;
    }

    /**
     * {@code -D}{@value #CHECKPOINT_ROOT_PROPERTY} when set, else {@code /dev/shm} when it is a
     * writable folder (memory-backed on Linux), else the JVM's temp folder.
     */
    static Path defaultCheckpointRoot() {
        String root = System.getProperty(CHECKPOINT_ROOT_PROPERTY);
        if (root != null && !root.isBlank()) {
            return Path.of(root);
        }
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return shm;
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }
}
