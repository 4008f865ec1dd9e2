package dev.twstester.sim;

import static dev.twstester.sim.MigrationExamples.scalaList;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark's own {@code org.apache.spark.sql.streaming.TwsTester} on the examples of
 * docs/from-twstester.md, pinning the answers the guide shows for it. It exists from Spark 4.2.0:
 * on 4.0.x and 4.1.x (no such class) these tests are skipped. Called by reflection so that this
 * module compiles on every Spark line.
 */
class SparkTwsTesterAnswersTest {
    private static Class<?> sparkTester;

    @BeforeAll
    static void findSparkTwsTester() {
        try {
            sparkTester = Class.forName("org.apache.spark.sql.streaming.TwsTester");
        } catch (ClassNotFoundException e) {
            sparkTester = null;
        }
    }

    @Test
    void initial_state_at_construction_and_timers_only_when_time_is_set() {
        Object tester = newSparkTester(new Reminder(), MigrationExamples.initialCount("a", 3L), TimeMode.ProcessingTime(),
                Option.empty());

        assertThat(call(tester, "peekValueState", "count", "a")).isEqualTo(Option.apply(3L)); // before any input
        assertThat(rows(call(tester, "setProcessingTime", 1000L))).isEmpty();
        assertThat(rows(call(tester, "test", "a", scalaList(List.of("now", "remind")))))
                .containsExactly("a:now#4@1000", "a:remind#5@1000");
        assertThat(rows(call(tester, "setProcessingTime", 7000L))).containsExactly("a:timer@1000#5", "a:timer@6000#5");
    }

    @Test
    void event_time_keeps_rows_until_the_watermark_is_set_by_hand() {
        scala.Function1<Event, Object> extractor = e -> e.getTs().getTime();
        Object tester = newSparkTester(new EventEcho(), scalaList(List.of()), TimeMode.EventTime(), Option.apply(extractor));

        assertThat(rows(call(tester, "test", "a", scalaList(List.of(new Event("a", 10_000, "timer+1000"))))))
                .containsExactly("a:timer+1000@0");
        assertThat(rows(call(tester, "test", "a", scalaList(List.of(new Event("a", 3_000, "late"))))))
                .containsExactly("a:late@0");
        assertThat(rows(call(tester, "setWatermark", 11_000L))).containsExactly("a:timer@11000");
    }

    @Test
    void a_key_without_rows_is_handed_to_the_processor_and_the_watermark_may_be_set_before_any_batch() {
        scala.Function1<Event, Object> extractor = e -> e.getTs().getTime();
        Object tester = newSparkTester(new EventEcho(), scalaList(List.of()), TimeMode.EventTime(), Option.apply(extractor));

        assertThat(rows(call(tester, "setWatermark", 1_000L))).isEmpty();
        assertThat(rows(call(tester, "test", "a", scalaList(List.of())))).isEmpty();
        // the watermark set by hand filters rows at or before it
        assertThat(rows(call(tester, "test", "a", scalaList(List.of(new Event("a", 1_000, "x"), new Event("a", 1_001, "y"))))))
                .containsExactly("a:y@1000");
    }

    private static Object newSparkTester(StatefulProcessor<?, ?, ?> processor, scala.collection.immutable.List<?> initial,
            TimeMode mode, Option<?> extractor) {
        assumeTrue(sparkTester != null, "Spark's TwsTester exists from Spark 4.2.0 on");
        try {
            return sparkTester.getConstructors()[0].newInstance(processor, initial, mode, OutputMode.Update(), extractor);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static Object call(Object tester, String name, Object... args) {
        for (Method m : sparkTester.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                try {
                    return m.invoke(tester, args);
                } catch (InvocationTargetException e) {
                    throw new AssertionError(e.getCause());
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        throw new AssertionError("Spark's TwsTester has no method " + name + " of " + args.length + " arguments");
    }

    private static List<Object> rows(Object scalaList) {
        return List.copyOf(CollectionConverters.asJava((scala.collection.immutable.List<?>) scalaList));
    }
}
