package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Test;

import dev.twstester.ProcessorException;
import dev.twstester.TwsQuery;

/** Spec 6: a task's processor is deserialized, so transient fields start at their defaults. */
public class ProcessorInstancesTest {

    /** A transient field initialised in its declaration: null after deserialization, as on Spark's executors. */
    public static class TransientBuffer extends StatefulProcessor<String, String, String> {
        private transient List<String> buffer = new ArrayList<>();

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {}

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            buffer.add(key);
            return Log.it(List.of("buffered " + buffer.size()));
        }
    }

    /** Fields of many shapes, and a transient one set on construction, so each task deserializes a copy. */
    public static class Shapes extends Base {
        enum Mode { A, B }

        record Limit(String name, long value) implements Serializable {}

        static final class Item implements Serializable {
            private static final long serialVersionUID = 1L;
            final String name;
            final int count;

            Item(String name, int count) {
                this.name = name;
                this.count = count;
            }

            @Override
            public String toString() {
                return name + "x" + count;
            }
        }

        private final Mode mode = Mode.B;
        private final int[] numbers = {3, 1, 2};
        private final String[][] grid = {{"a"}, {"b", "c"}};
        private final List<Item> items = new ArrayList<>(List.of(new Item("socks", 2)));
        private final Map<String, Long> limits = new LinkedHashMap<>(Map.of("card", 500L));
        private final Long missing = null;
        private final Duration idle = Duration.ofMinutes(30);
        private final Limit limit = new Limit("daily", 900);
        private final Function<String, String> shout = (Function<String, String> & Serializable) String::toUpperCase;
        private transient int calls = 1;

        Shapes() {
            super(7);
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {}

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            return Log.it(List.of(shout.apply(key) + " " + mode + " " + Arrays.toString(numbers) + " "
                    + Arrays.deepToString(grid) + " " + items + " " + limits + " " + missing + " " + idle + " " + limit
                    + " base=" + base + " calls=" + calls++));
        }
    }

    /** A serializable superclass with a field of its own. */
    public abstract static class Base extends StatefulProcessor<String, String, String> {
        final int base;

        Base(int base) {
            this.base = base;
        }
    }

    @Test
    void full_fidelity_copies_fields_of_every_shape_into_each_task_and_resets_transient_ones() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(TwsQuery.builder(Shapes::new)
                .keyBy(s -> s, Encoders.STRING()).input(Encoders.STRING()).output(Encoders.STRING()).build());
        String fields = " B [3, 1, 2] [[a], [b, c]] [socksx2] {card=500} null PT30M Limit[name=daily, value=900] base=7";
        // calls=0: the task's copy was deserialized (a transient field is not written), in each batch anew
        assertThat(sim.runBatch("k").outputs()).containsExactly("K" + fields + " calls=0");
        assertThat(sim.runBatch("j", "k").outputs()).containsExactly("J" + fields + " calls=0", "K" + fields + " calls=1");
    }

    private static TwsQuery<String, String, String> query() {
        return TwsQuery.builder(TransientBuffer::new).keyBy(s -> s, Encoders.STRING())
                .input(Encoders.STRING()).output(Encoders.STRING()).build();
    }

    @Test
    void full_fidelity_deserializes_so_the_transient_field_is_null_as_in_spark() {
        Throwable thrown = catchThrowable(() -> new TwsSimulator<>(query()).runBatch("k"));
        assertThat(thrown).isInstanceOf(ProcessorException.class);
        assertThat(thrown.getCause()).isInstanceOf(NullPointerException.class);
    }

    @Test
    void fast_fidelity_takes_instances_from_the_supplier() {
        assertThat(new TwsSimulator<>(query(), Fidelity.FAST).runBatch("k").outputs()).containsExactly("buffered 1");
    }
}
