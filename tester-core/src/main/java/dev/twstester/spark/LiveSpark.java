package dev.twstester.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The one SparkSession of this JVM that live runs share: local by default, RocksDB state store
 * (transformWithState needs it), UTC session time zone, no UI. Created on first use and stopped
 * when the JVM exits.
 *
 * <pre>{@code
 * SparkSession spark = LiveSpark.session();   // local[2] unless -Dtwstester.spark.master=... is set
 * }</pre>
 */
public final class LiveSpark {
    /** System property naming the master URL, e.g. {@code local[4]} or {@code spark://host:7077}. */
    public static final String MASTER_PROPERTY = "twstester.spark.master";
    static final String ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

    private static SparkSession session;

    private LiveSpark() {}

    /** The shared session, created on first call. */
    public static synchronized SparkSession session() {
        if (session == null) {
            session = SparkSession.builder()
                    .appName("twstester")
                    .master(System.getProperty(MASTER_PROPERTY, "local[2]"))
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "1")
                    .config("spark.sql.session.timeZone", "UTC")
                    .config("spark.sql.streaming.stateStore.providerClass", ROCKSDB)
                    .config("spark.sql.streaming.numRecentProgressUpdates", "1000")
                    // speed only, no semantic effect: checkpoint renames without Hadoop's shell
                    // readlink, and executors without the per-session class loader that asks the
                    // driver over RPC for every class name Janino probes
                    .config("spark.sql.streaming.checkpointFileManagerClass",
                            "org.apache.spark.sql.execution.streaming.checkpointing.FileSystemBasedCheckpointFileManager")
                    .config("spark.sql.artifact.isolation.enabled", "false")
                    .getOrCreate();
            session.sparkContext().setLogLevel("ERROR");
            Runtime.getRuntime().addShutdownHook(new Thread(LiveSpark::stop, "twstester-spark-stop"));
        }
        return session;
    }

    /** Stops the shared session (the next {@link #session()} call starts a new one). */
    public static synchronized void stop() {
        if (session != null) {
            session.stop();
            session = null;
        }
    }
}
