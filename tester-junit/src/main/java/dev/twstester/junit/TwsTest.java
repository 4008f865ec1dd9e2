package dev.twstester.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class (or one test method) with the twstester extension: {@link Simulator @Simulator}
 * fields and {@link TestSimulator} parameters get a simulator of the test's {@code TwsQuery}, and a
 * failing test carries the timeline of what each simulator did.
 *
 * <pre>{@code
 * @TwsTest
 * class CartWatchTest {
 *     static TwsQuery<String, CartEvent, CartAlert> query() {     // the query source
 *         return CartWatch.query();
 *     }
 *
 *     @Simulator TestSimulator<String, CartEvent, CartAlert> sim;  // a fresh one per test
 *
 *     @Test
 *     void flagsTheCart() {
 *         sim.runBatch(CartEvent.add("ana", "boots", at("10:00")));
 *         sim.advanceWatermarkTo(at("10:31"));
 *         assertThat(sim).outputs().containsExactly(new CartAlert("ana", 1, at("10:00")));
 *         assertThat(sim).hasNoStateFor("ana");
 *     }
 * }
 * }</pre>
 *
 * <h2>Simulators</h2>
 * An instance field annotated {@link Simulator @Simulator} gets a new simulator before each test;
 * a static one is created once for the class and shared by its tests. A test or lifecycle method
 * parameter of type {@link TestSimulator} gets one simulator per test (per class for
 * {@code @BeforeAll}/{@code @AfterAll}) for each query source. Simulators the test body makes with
 * {@link TestSimulator#of} join in too. All are closed when their test (or class) ends.
 *
 * <h2>When a test fails</h2>
 * The failure gets one suppressed {@link SimulatorTrace} per simulator that ran anything: every
 * call, each micro-batch with its input count, late rows, watermarks, batch timestamp, outputs
 * and fired timers (each operator's part, for a query of several), and the state changes per key.
 * The same is written as replayable files to
 * {@code target/twstester-traces/<test class>/<test method>/<simulator>/}: {@code 001.jsonl},
 * {@code 002.jsonl}, ... (one input micro-batch per file, one JSON row per line),
 * {@code scenario.txt} (the replay plan), {@code _timeline.jsonl} (the timeline as JSON lines) and
 * {@code _timeline.html} (the timeline page: state and timers after each batch).
 * Configuration parameters (in {@code junit-platform.properties} or as {@code -D} system
 * properties): {@value #TRACE_MODE_PROPERTY} = {@code on_failure} (default), {@code always} or
 * {@code never}; {@value #TRACE_DIR_PROPERTY} = the folder (default
 * {@code target/twstester-traces}).
 *
 * <h2>Strict mode</h2>
 * With {@code strict = true}, a test that passed fails if a simulator left output rows unread or
 * timers due but not fired. A row is read once it was consumed through {@link TestSimulator#output()}
 * or asserted through {@code TwsAssertions} ({@code assertThat(sim).outputs()},
 * {@code assertThat(run).outputs()}, {@code assertThat(batch).outputs()}) on the test's thread, in
 * the test or its lifecycle methods. A timer is due when its time is at or before the watermark
 * (EventTime) or the processing time (ProcessingTime), in any operator of the query. A failing
 * test is never checked, so strictness does not hide the real failure. Strict mode also warns, once
 * per JVM and class (on stderr and as a JUnit report entry), about an input or output row class
 * without {@code equals()}: {@code TwsAssertions} compare its rows by their encoded value, as Spark
 * does, but {@code assertEquals} would not.
 *
 * <h2>Comparing with live Spark</h2>
 * With {@code compareWithSpark = true}, after a passing test the extension replays every call the
 * test made on each per-test simulator ({@code runBatch}, {@code runBatchAt}, {@code test},
 * {@code run}, {@code advanceProcessingTime}, {@code setProcessingTime}) on a real Spark streaming
 * query ({@code dev.twstester.spark.LiveRunner}) and fails on any difference in batches,
 * watermarks, batch timestamps, late rows, outputs or fired timers. Calls Spark has no equivalent
 * for ({@code advanceWatermarkTo}, {@code runBackToBack} with a zero interval, state writes,
 * {@code restore}, {@code restartWith}) fail the comparison with an
 * {@code ExtensionConfigurationException}. A query of several operators is replayed whole. Each
 * comparison starts a streaming query (about 1-3 s after the shared SparkSession started); tag such
 * tests, e.g. {@code @Tag("live")}.
 *
 * <h2>The whole suite against live Spark</h2>
 * The configuration parameter {@value #COMPARE_WITH_SPARK_PROPERTY}{@code =true} (a {@code -D}
 * system property, e.g. {@code mvn verify -Dtwstester.compareWithSpark=true}, or a line of
 * {@code junit-platform.properties}) turns the comparison on for every {@code @TwsTest} test, so
 * that a nightly job runs the whole suite as a regression suite against live Spark. A test Spark
 * cannot replay (a call above, a simulator shared by the class or keeping no history) is then
 * skipped with the reason (a {@code TestAbortedException}), not failed; a test that fails on the
 * simulator fails as it always does.
 *
 * <p>Put {@code @TwsTest} on a method to give it its own settings; the method's annotation then
 * replaces the class's.
 */
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(TwsExtension.class)
public @interface TwsTest {
    /** Configuration parameter: when to write trace files, {@code on_failure} (default), {@code always} or {@code never}. */
    String TRACE_MODE_PROPERTY = "twstester.trace";

    /** Configuration parameter: the folder trace files go to (default {@code target/twstester-traces}). */
    String TRACE_DIR_PROPERTY = "twstester.trace.dir";

    /**
     * Configuration parameter: {@code true} compares every {@code @TwsTest} test with live Spark, as
     * {@link #compareWithSpark()} does, and skips those Spark cannot replay (default {@code false}).
     */
    String COMPARE_WITH_SPARK_PROPERTY = "twstester.compareWithSpark";

    /** Fail a passing test that left output rows unread or due timers unfired. */
    boolean strict() default false;

    /** Replay each per-test simulator's calls on live Spark after a passing test and fail on any difference. */
    boolean compareWithSpark() default false;
}
