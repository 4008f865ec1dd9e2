package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TimeZone;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link LiveSpark} gives a {@code local-cluster} or standalone master, without starting one. */
class LiveClusterSettingsTest {

    @Test
    void a_local_cluster_gets_this_jvms_class_path_time_zone_and_scala_version_and_a_jars_folder(@TempDir Path home)
            throws Exception {
        Map<String, String> settings = LiveSpark.localClusterSettings(home.toString());

        assertThat(settings).containsExactly(
                Map.entry("spark.executor.extraClassPath", System.getProperty("java.class.path")),
                Map.entry("spark.executor.extraJavaOptions", "-Duser.timezone=" + TimeZone.getDefault().getID()),
                Map.entry("spark.executorEnv.SPARK_SCALA_VERSION", "2.13"));
        assertThat(home.resolve("jars")).isEmptyDirectory();
        // a Spark home that has its jars/ folder keeps it as it is
        Files.writeString(home.resolve("jars").resolve("x.jar"), "x");
        LiveSpark.localClusterSettings(home.toString());
        assertThat(home.resolve("jars").resolve("x.jar")).hasContent("x");
    }

    @Test
    void a_local_cluster_without_spark_home_is_refused_saying_what_to_set() {
        assertThatThrownBy(() -> LiveSpark.localClusterSettings(null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("set the environment variable SPARK_HOME to a Spark 4 distribution or to an "
                        + "empty folder (its jars/ folder is then created empty: executors get this JVM's class path)");
    }

    @Test
    void a_spark_home_that_is_a_file_is_refused_naming_it(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("home"), "not a folder");
        assertThatThrownBy(() -> LiveSpark.localClusterSettings(file.toString()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("cannot create " + file.resolve("jars") + ", the jars/ folder Spark's launcher "
                        + "needs in SPARK_HOME: ")
                .hasMessageEndingWith("; set SPARK_HOME to a writable folder or a Spark distribution");
    }

    @Test
    void a_standalone_master_gets_this_jvms_class_path() {
        assertThat(LiveSpark.standaloneSettings())
                .containsExactly(Map.entry("spark.executor.extraClassPath", System.getProperty("java.class.path")));
    }
}
