package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;

import scala.Tuple2;

/** Tuples of strings and boxed integers are immutable: kept as they are at FULL, unless Spark's encoder would fail. */
class TupleOutputTest {

    /** Emits (key, n) with n boxed as the row says: "long" a Long, "int" an Integer (a raw-type mistake). */
    public static class Emitter extends StatefulProcessor<String, String, Tuple2<String, Long>> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public scala.collection.Iterator<Tuple2<String, Long>> handleInputRows(String key,
                scala.collection.Iterator<String> rows, TimerValues timerValues) {
            String kind = rows.next();
            Tuple2 out = kind.equals("int") ? new Tuple2<>(key, 1) : new Tuple2<>(key, 1L);
            return Log.it(List.of((Tuple2<String, Long>) out));
        }
    }

    private static TwsSimulator<String, String, Tuple2<String, Long>> sim() {
        return new TwsSimulator<>(TwsQuery.builder(Emitter::new)
                .keyBy(s -> "k", Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.tuple(Encoders.STRING(), Encoders.LONG()))
                .build());
    }

    @Test
    void a_well_typed_tuple_is_emitted_as_it_is() {
        TwsSimulator<String, String, Tuple2<String, Long>> sim = sim();
        assertThat(sim.runBatch("long").outputs()).containsExactly(new Tuple2<>("k", 1L));
        assertThat(KeyCodec.of(Encoders.tuple(Encoders.STRING(), Encoders.LONG())).immutable()).isTrue();
        assertThat(KeyCodec.of(Encoders.tuple(Encoders.STRING(), Encoders.bean(Event.class))).immutable()).isFalse();
    }

    @Test
    void a_tuple_spark_cannot_encode_fails_as_spark_does() {
        assertThatThrownBy(() -> sim().runBatch("int"))
                .isInstanceOfSatisfying(org.apache.spark.SparkRuntimeException.class,
                        e -> assertThat(e.getCondition()).isEqualTo("EXPRESSION_ENCODING_FAILED"))
                .hasRootCauseInstanceOf(ClassCastException.class);
    }

    /** Emits a Long, or an Integer through a raw type when the row says "int". */
    public static class FlatEmitter extends StatefulProcessor<String, String, Long> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public scala.collection.Iterator<Long> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            Object out = rows.next().equals("int") ? (Object) 1 : (Object) 1L;
            return Log.it((List) List.of(out));
        }
    }

    @Test
    void a_flat_value_of_the_wrong_class_fails_as_spark_does_and_a_right_one_is_kept() {
        TwsSimulator<String, String, Long> sim = new TwsSimulator<>(TwsQuery.builder(FlatEmitter::new)
                .keyBy(s -> "k", Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.LONG())
                .build());
        assertThat(sim.runBatch("long").outputs()).containsExactly(1L);
        assertThatThrownBy(() -> sim.runBatch("int"))
                .isInstanceOfSatisfying(org.apache.spark.SparkRuntimeException.class,
                        e -> assertThat(e.getCondition()).isEqualTo("EXPRESSION_ENCODING_FAILED"))
                .hasRootCauseInstanceOf(ClassCastException.class);
    }
}
