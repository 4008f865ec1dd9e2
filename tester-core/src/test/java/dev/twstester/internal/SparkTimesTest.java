package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.util.SplittableRandom;

import org.apache.spark.sql.catalyst.util.RebaseDateTime$;
import org.apache.spark.sql.catalyst.util.SparkDateTimeUtils$;
import org.junit.jupiter.api.Test;

/** {@link SparkTimes} gives Spark's results, and its 1900 bound is Spark's own. */
class SparkTimesTest {
    private static final SparkDateTimeUtils$ SPARK = SparkDateTimeUtils$.MODULE$;

    @Test
    void the_bounds_are_sparks_last_calendar_switches() {
        assertThat(SparkTimes.LAST_SWITCH_JULIAN_MICROS).isEqualTo(RebaseDateTime$.MODULE$.lastSwitchJulianTs());
        assertThat(SparkTimes.LAST_SWITCH_GREGORIAN_MICROS).isEqualTo(RebaseDateTime$.MODULE$.lastSwitchGregorianTs());
    }

    @Test
    void timestamps_on_both_sides_of_the_bound_convert_as_spark_converts_them() {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        long bound = SparkTimes.LAST_SWITCH_JULIAN_MICROS / 1000;
        for (int i = 0; i < 20_000; i++) {
            long millis = switch (i % 4) {
                case 0 -> bound + random.nextLong(-86_400_000L * 2, 86_400_000L * 2);   // around 1900
                case 1 -> random.nextLong(-62_135_596_800_000L, 0);                       // year 1 to 1970
                case 2 -> random.nextLong(0, 4_102_444_800_000L);                         // 1970 to 2100
                default -> random.nextLong(-200_000_000_000_000L, 200_000_000_000_000L);
            };
            Timestamp t = new Timestamp(millis);
            t.setNanos((int) (Math.floorMod(millis, 1000) * 1_000_000 + random.nextInt(1_000_000)));
            long micros = SPARK.fromJavaTimestamp(t);
            assertThat(SparkTimes.fromJavaTimestamp(t)).as("seed %d: %s", seed, t).isEqualTo(micros);
            assertThat(SparkTimes.anyToMicros(t)).as("seed %d: %s", seed, t).isEqualTo(micros);
            assertThat(SparkTimes.toJavaTimestamp(micros)).as("seed %d: %d", seed, micros)
                    .isEqualTo(SPARK.toJavaTimestamp(micros));
        }
    }
}
