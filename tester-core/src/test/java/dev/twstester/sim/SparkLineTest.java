package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which line's rules a Spark version gets, and the warning outside the modelled lines. */
class SparkLineTest {
    @Test
    void eachModelledVersionGetsItsOwnLine() {
        assertThat(SparkLine.nearest("4.0.0")).isEqualTo(SparkLine.V4_0);
        assertThat(SparkLine.nearest("4.0.4")).isEqualTo(SparkLine.V4_0);
        assertThat(SparkLine.nearest("4.1.3")).isEqualTo(SparkLine.V4_1);
        assertThat(SparkLine.nearest("4.2.0")).isEqualTo(SparkLine.V4_2);
        assertThat(SparkLine.nearest("4.2.1-SNAPSHOT")).isEqualTo(SparkLine.V4_2);
        assertThat(SparkLine.warning("4.0.4")).isEmpty();
        assertThat(SparkLine.warning("4.2.1-SNAPSHOT")).isEmpty();
    }

    @Test
    void aVersionOutsideTheLinesGetsTheNearestAndOneWarningNamingIt() {
        assertThat(SparkLine.nearest("3.5.8")).isEqualTo(SparkLine.V4_0);
        assertThat(SparkLine.nearest("4.3.0")).isEqualTo(SparkLine.V4_2);
        assertThat(SparkLine.nearest("5.0.0")).isEqualTo(SparkLine.V4_2);
        assertThat(SparkLine.warning("3.5.8")).contains("twstester: Spark 3.5.8 is on the class path, but twstester"
                + " models Spark 4.0, 4.1 and 4.2; it simulates the nearest, Spark 4.0. Use a Spark 4.0.x, 4.1.x or"
                + " 4.2.x spark-sql to have its own rules.");
        assertThat(SparkLine.warning("4.3.0")).hasValueSatisfying(w -> assertThat(w).contains("simulates the nearest, Spark 4.2."));
    }

    @Test
    void theClassPathsSparkIsTheOneThisBuildRuns() {
        String version = SparkLine.classPathVersion();
        assertThat(version).isEqualTo(org.apache.spark.package$.MODULE$.SPARK_VERSION());
        assertThat(SparkLine.onClassPath()).isEqualTo(SparkLine.nearest(version));
    }
}
