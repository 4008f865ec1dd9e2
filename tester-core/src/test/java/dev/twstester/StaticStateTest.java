package dev.twstester;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.twstester.testing.StaticState;

/**
 * tester-core's static mutable fields, each with why tests running in parallel (simulators,
 * live runs, JUnit classes and methods at once in one JVM) can share it. A new one fails here:
 * make it final and immutable, or thread-safe, say so in its Javadoc, and list it.
 */
class StaticStateTest {
    private static final String NEVER_WRITTEN = "a private array filled when the class initializes and never written after";
    private static final String SNAPSHOT_FORMAT =
            "a constant of the snapshot file format, filled when the class initializes; SnapshotWriter and SnapshotReader only read it";
    private static final String NEVER_WRITTEN_IN_PACKAGE =
            "an array filled when the class initializes; its package only reads it (Metrics, NamedCounts)";

    @Test
    void every_static_mutable_field_is_listed_with_why_it_is_safe() {
        StaticState.assertExactly(Path.of("target/classes"), Map.ofEntries(
                Map.entry("dev.twstester.internal.CatalystCodec#RESOLVED", "a concurrent map of immutable resolved encoders"),
                Map.entry("dev.twstester.internal.ContiguousPartitions#ONE_PARTITION", NEVER_WRITTEN),
                Map.entry("dev.twstester.internal.ExternalRows#PLANS", "a concurrent map of immutable plans"),
                Map.entry("dev.twstester.internal.ExternalRows#last", "a volatile reference to an immutable pair"),
                Map.entry("dev.twstester.internal.RowCodec#SHARED", "a concurrent map of thread-safe codecs"),
                Map.entry("dev.twstester.internal.SparkLogs#OURS", "used only under the class's lock (apply)"),
                Map.entry("dev.twstester.internal.SparkLogs#applied", "used only under the class's lock (apply)"),
                Map.entry("dev.twstester.internal.SparkLogs#configuration", "used only under the class's lock (apply)"),
                Map.entry("dev.twstester.report.KeyIsolationCheck#DEFAULT_PARTITIONS", NEVER_WRITTEN),
                Map.entry("dev.twstester.sim.AvroKeyOrder#WRITERS", "a concurrent map of writers that keep no state"),
                Map.entry("dev.twstester.sim.Metric#ALL", NEVER_WRITTEN_IN_PACKAGE),
                Map.entry("dev.twstester.sim.Metric#SORTED_ORDINALS", NEVER_WRITTEN_IN_PACKAGE),
                Map.entry("dev.twstester.sim.Metric#ZEROS", "a NamedCounts map, which refuses every write"),
                Map.entry("dev.twstester.sim.SnapshotWriter#ENCODINGS", SNAPSHOT_FORMAT),
                Map.entry("dev.twstester.sim.SnapshotWriter#KINDS", SNAPSHOT_FORMAT),
                Map.entry("dev.twstester.sim.SnapshotWriter#MAGIC", SNAPSHOT_FORMAT),
                Map.entry("dev.twstester.sim.SnapshotWriter#VALUE_FORMATS", SNAPSHOT_FORMAT),
                Map.entry("dev.twstester.spark.LiveSpark#LEFT_OVER", "a concurrent set"),
                Map.entry("dev.twstester.spark.LiveSpark#defaults", "used only in the class's synchronized methods"),
                Map.entry("dev.twstester.spark.LiveSpark#session", "used only in the class's synchronized methods"),
                Map.entry("dev.twstester.spark.NoForkLocalFileSystem#BITS", NEVER_WRITTEN)));
    }
}
