package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;

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
