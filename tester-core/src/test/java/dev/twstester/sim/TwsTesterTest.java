package dev.twstester.sim;

import static dev.twstester.sim.MigrationExamples.scalaList;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Test;

import scala.Option;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;

/**
 * {@link TwsTester}, the Spark-shaped entry point: every method, with real Spark's answers
 * (pinned live by {@code LiveMigrationTest}), and each call that relies on a TwsTester-only rule
 * refused with the rule and the guide.
 */
class TwsTesterTest {

    @Test
    void test_runs_one_batch_with_handleInitialState_first_and_due_timers_after_the_rows() {
        TwsTester<String, String, String> tester = MigrationExamples.reminders();

        assertThat(CollectionConverters.asJava(tester.setProcessingTime(1000))).isEmpty(); // no batch before the first input
        assertThat(CollectionConverters.asJava(tester.test("a", scalaList(List.of("now", "remind")))))
                .containsExactly("a:now#4@1000", "a:remind#5@1000", "a:timer@1000#5");
        assertThat(tester.peekValueState("count", "a")).isEqualTo(Option.apply(5L));
        assertThat(CollectionConverters.asJava(tester.setProcessingTime(7000))).containsExactly("a:timer@6000#5");
        assertThat(tester.simulator().history().batches()).hasSize(2);
        assertThat(CollectionConverters.asJava(tester.test("b", scalaList(List.of("x"))))).containsExactly("b:x#1@7000");
    }

    @Test
    void state_is_read_and_written_per_key_through_the_simulator() {
        TwsTester<String, String, String> tester = new TwsTester<>(new Reminder(), scalaList(List.of()),
                TimeMode.ProcessingTime(), OutputMode.Update(), Option.empty());

        tester.updateValueState("count", "k", 10L);
        tester.updateListState("seen", "k", scalaList(List.of("p", "q")), ClassTag$.MODULE$.apply(String.class));
        tester.updateMapState("byValue", "k",
                scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(Map.of("p", 1L))));
        assertThat(CollectionConverters.asJava(tester.test("k", scalaList(List.of("r"))))).containsExactly("k:r#11@0");

        assertThat(tester.peekValueState("count", "k")).isEqualTo(Option.apply(11L));
        assertThat(CollectionConverters.asJava(tester.peekListState("seen", "k"))).containsExactly("p", "q", "r");
        assertThat(CollectionConverters.asJava(tester.<String, Long>peekMapState("byValue", "k")))
                .containsExactlyInAnyOrderEntriesOf(Map.of("p", 1L, "r", 11L));
        tester.deleteState("count", "k");
        assertThat(tester.peekValueState("count", "k")).isEqualTo(Option.empty());
        assertThat(tester.simulator().state().list("seen", "k")).containsExactly("p", "q", "r");
    }

    @Test
    void state_before_the_batch_that_applies_the_initial_state_is_refused_with_the_rule() {
        TwsTester<String, String, String> tester = MigrationExamples.reminders();

        assertThatThrownBy(() -> tester.peekValueState("count", "a"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("peekValueState before the first test(...) relies on a TwsTester-only rule")
                .hasMessageContaining("Spark in batch 0")
                .hasMessageContaining("docs/from-twstester.md#initial-state");
        assertThatThrownBy(() -> tester.updateValueState("count", "a", 1L)).hasMessageContaining("updateValueState before");
        assertThatThrownBy(() -> tester.deleteState("count", "a")).hasMessageContaining("deleteState before");
        assertThat(CollectionConverters.asJava(tester.setProcessingTime(1000))).isEmpty();
        assertThat(tester.simulator().processingTime().toEpochMilli()).isEqualTo(1000);
    }

    @Test
    void a_key_without_rows_and_a_clock_moved_back_are_refused_with_the_rule() {
        TwsTester<String, String, String> tester = MigrationExamples.reminders();
        tester.test("a", scalaList(List.of("x")));

        assertThatThrownBy(() -> tester.test("a", scalaList(List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Spark calls handleInputRows only for a key with rows")
                .hasMessageContaining("docs/from-twstester.md#a-key-without-rows");
        tester.setProcessingTime(2000);
        assertThatThrownBy(() -> tester.setProcessingTime(1000))
                .hasMessageContaining("Spark's processing time never moves backwards")
                .hasMessageContaining("docs/from-twstester.md#processing-time");
        assertThat(CollectionConverters.asJava(tester.setProcessingTime(2000))).isEmpty();
        assertThatThrownBy(() -> tester.setWatermark(1000)).hasMessageContaining("setWatermark needs TimeMode.EventTime");
    }

    @Test
    void event_time_runs_the_query_watermark_from_the_rows_and_drops_late_rows() {
        TwsTester<String, Event, String> tester = new TwsTester<>(MigrationExamples.echo());

        assertThatThrownBy(() -> tester.setWatermark(1000))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Spark's watermark moves only from the event times of a batch's rows")
                .hasMessageContaining("docs/from-twstester.md#watermark");
        assertThat(CollectionConverters.asJava(tester.test("a", scalaList(List.of(new Event("a", 10_000, "timer+1000"))))))
                .containsExactly("a:timer+1000@0");
        // the row at 3 s is at or before the watermark (10 s - 5 s): Spark drops it
        assertThat(CollectionConverters.asJava(tester.test("a", scalaList(List.of(new Event("a", 3_000, "late")))))).isEmpty();
        assertThat(List.<Object>copyOf(tester.simulator().history().droppedLate())).containsExactly(new Event("a", 3_000, "late"));
        assertThat(CollectionConverters.asJava(tester.setWatermark(11_000))).containsExactly("a:timer@11000");
        assertThatThrownBy(() -> tester.setWatermark(9_000)).hasMessageContaining("Spark's watermark never decreases");
        assertThatThrownBy(() -> tester.setProcessingTime(1)).hasMessageContaining("needs TimeMode.ProcessingTime");
    }

    @Test
    void test_returns_the_outputs_of_the_no_data_batch_its_watermark_advance_runs() {
        TwsTester<String, Event, String> tester = new TwsTester<>(MigrationExamples.echo());
        tester.test("a", scalaList(List.of(new Event("a", 10_000, "timer+1000"))));

        // watermark 15 s after this batch: the no-data batch Spark runs next fires a@11 s
        assertThat(CollectionConverters.asJava(tester.test("b", scalaList(List.of(new Event("b", 20_000, "x"))))))
                .containsExactly("b:x@5000", "a:timer@11000");
        assertThat(tester.simulator().history().batches()).extracting(b -> b.hadInput())
                .containsExactly(true, false, true, false);
    }

    @Test
    void the_spark_shaped_constructor_refuses_event_time_and_types_it_cannot_encode() {
        scala.Function1<Event, Object> extractor = e -> e.getTs().getTime();
        assertThatThrownBy(() -> new TwsTester<String, Event, String>(new EventEcho(), scalaList(List.of()),
                TimeMode.EventTime(), OutputMode.Update(), Option.apply(extractor)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("real Spark takes event time from a timestamp column")
                .hasMessageContaining("new TwsTester<>(query)");
        assertThatThrownBy(() -> new TwsTester<>(new Generic<String>(), scalaList(List.of()), TimeMode.None(),
                OutputMode.Update(), Option.empty()))
                .hasMessageContaining("does not name its key type as a class")
                .hasMessageContaining("new TwsTester<>(query)");
    }

    /** A processor whose types are type variables: no encoder can be chosen from its class. */
    static class Generic<T> extends StatefulProcessor<T, T, T> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {}

        @Override
        public scala.collection.Iterator<T> handleInputRows(T key, scala.collection.Iterator<T> rows, TimerValues t) {
            return rows;
        }
    }
}
