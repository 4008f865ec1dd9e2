package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import org.junit.jupiter.api.Test;

/**
 * SerialFields decides, without serializing, exactly what comparing serialized forms decides: for a
 * driver instance holding plain values, a fresh instance stands in for its copy if and only if both
 * serialize to the same bytes and the fresh one's transient fields are at their defaults.
 */
class SerialFieldsTest {

    /** Plain values of every kind, in fields of several declared types, a superclass's field and transient ones. */
    public static class Plain extends Base {
        long limit;
        int count;
        double ratio;
        float share;
        char mark = 'x';
        boolean on;
        Duration gap = Duration.ofMinutes(10);
        Instant since = Instant.EPOCH;
        String name = "a";
        String alias = "b";
        Object boxed = 5;
        transient ValueState<Long> state;
        transient int calls;

        Plain() {
            super(1);
        }
    }

    /** A serializable superclass with a field of its own. */
    public abstract static class Base extends StatefulProcessor<String, String, String> {
        long base;

        Base(long base) {
            this.base = base;
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {}

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            return scala.collection.Iterator.empty();
        }
    }

    /** A list: an object graph, not a plain value. */
    public static class WithList extends Base {
        List<String> items = new ArrayList<>(List.of("a"));

        WithList() {
            super(1);
        }
    }

    /** Writes itself in its own way. */
    public static class WithWriteObject extends Base {
        WithWriteObject() {
            super(1);
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
        }
    }

    private static boolean sameBytes(Object a, Object b) throws IOException {
        return Arrays.equals(ProcessorCopies.serialize(a), ProcessorCopies.serialize(b));
    }

    /** What ProcessorCopies decided before SerialFields: equal serialized forms and default transient fields. */
    private static boolean byBytes(Object fresh, Object driver) throws IOException {
        return sameBytes(fresh, driver) && SerialFields.of(fresh.getClass()).transientsAreDefault(fresh);
    }

    private static boolean byFields(Object fresh, Object driver) {
        SerialFields fields = SerialFields.of(driver.getClass());
        assertThat(fields.holdsPlainValues(driver)).isTrue();
        return fields.sameAsCopyOf(fresh, driver);
    }

    /** One field of {@code p} changed at random to one of a few values, sometimes to the value it has. */
    @SuppressWarnings("deprecation") // new Integer(5): another Integer object than the cached 5
    private static void change(Plain p, SplittableRandom r) {
        switch (r.nextInt(13)) {
            case 0 -> p.limit = r.nextInt(2);
            case 1 -> p.count = r.nextInt(2);
            case 2 -> p.ratio = new double[] {0.0, -0.0, Double.NaN, Double.longBitsToDouble(0x7ff8000000000001L)}[r.nextInt(4)];
            case 3 -> p.share = r.nextBoolean() ? 0f : Float.NaN;
            case 4 -> p.mark = r.nextBoolean() ? 'x' : 'y';
            case 5 -> p.on = r.nextBoolean();
            case 6 -> p.gap = r.nextBoolean() ? Duration.ofMinutes(10) : r.nextBoolean() ? null : Duration.ofSeconds(600, 1);
            case 7 -> p.since = r.nextBoolean() ? Instant.EPOCH : Instant.ofEpochMilli(1);
            case 8 -> p.name = r.nextBoolean() ? "a" : new String("a");   // equal, maybe another object
            case 9 -> p.alias = r.nextBoolean() ? p.name : "b";          // shares name's object, or not
            case 10 -> p.boxed = new Object[] {5, 5L, new Integer(5), null, "5"}[r.nextInt(5)];
            case 11 -> p.calls = r.nextInt(4) == 0 ? 1 : 0;
            default -> p.base = r.nextInt(2);
        }
    }

    @Test
    void fields_decide_as_serialized_bytes_do_for_generated_driver_and_fresh_instances() throws IOException {
        long seed = Long.getLong("twstester.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        int same = 0;
        for (int run = 0; run < 3000; run++) {
            Plain driver = new Plain();
            Plain fresh = new Plain();
            for (int i = random.nextInt(3); i > 0; i--) {
                change(driver, random);
            }
            driver.calls = 0;
            for (int i = random.nextInt(3); i > 0; i--) {
                change(fresh, random);
            }
            boolean expected = byBytes(fresh, driver);
            same += expected ? 1 : 0;
            assertThat(byFields(fresh, driver)).as("seed %d (rerun with -Dtwstester.seed=%d), run %d", seed, seed, run)
                    .isEqualTo(expected);
        }
        assertThat(same).as("both outcomes occur").isBetween(300, 2700);
    }

    @Test
    void examples() throws IOException {
        Plain driver = new Plain();
        Plain fresh = new Plain();
        assertThat(byFields(fresh, driver)).isTrue();
        fresh.ratio = -0.0;   // == 0.0, but written as other bytes
        assertThat(byFields(fresh, driver)).isFalse();
        assertThat(sameBytes(fresh, driver)).isFalse();
        fresh.ratio = 0.0;
        fresh.alias = fresh.name;   // one object in two fields is written once
        assertThat(byFields(fresh, driver)).isFalse();
        assertThat(sameBytes(fresh, driver)).isFalse();
        fresh.alias = "b";
        fresh.calls = 2;   // a copy's transient field is 0
        assertThat(byFields(fresh, driver)).isFalse();
        fresh.calls = 0;
        fresh.base = 2;
        assertThat(byFields(fresh, driver)).isFalse();
    }

    @Test
    void object_graphs_hooks_and_set_handles_are_not_plain() {
        assertThat(SerialFields.of(WithList.class).holdsPlainValues(new WithList())).isFalse();
        assertThat(SerialFields.of(WithWriteObject.class).holdsPlainValues(new WithWriteObject())).isFalse();
        assertThat(SerialFields.of(WithWriteObject.class).readsFieldsOnly()).isTrue();
        Plain withHandle = new Plain();
        withHandle.setHandle(new DriverHandle(new StateStore(TimeMode.None(), null, Fidelity.FULL), SparkLine.V4_2));
        assertThat(SerialFields.of(Plain.class).holdsPlainValues(withHandle)).isFalse();
        withHandle.setHandle(null);
        assertThat(SerialFields.of(Plain.class).holdsPlainValues(withHandle)).isTrue();
        Plain other = new Plain() { };
        assertThat(SerialFields.of(Plain.class).sameAsCopyOf(other, new Plain())).isFalse();
    }
}
