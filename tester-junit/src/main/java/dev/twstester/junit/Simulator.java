package dev.twstester.junit;

import dev.twstester.sim.Fidelity;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link TestSimulator} field (or parameter) for the {@link TwsTest @TwsTest} extension to
 * fill. Leave the field without initializer and not {@code final}; an instance field gets a new
 * simulator before each test, a static one is shared by all tests of the class.
 *
 * <pre>{@code
 * @TwsTest
 * class TtlSessionsTest {
 *     static TwsQuery<String, Click, SessionClosed> query() { return TtlSessions.query(); }
 *     static TwsQuery<String, Click, SessionClosed> oneHourTtl() { return TtlSessions.query(Duration.ofHours(1)); }
 *
 *     @Simulator(query = "query") TestSimulator<String, Click, SessionClosed> sim;
 *
 *     @Test
 *     void expires(@Simulator(query = "oneHourTtl") TestSimulator<String, Click, SessionClosed> longTtl) { ... }
 * }
 * }</pre>
 *
 * <p>{@link #fidelity()}, {@link #checkRetries()}, {@link #realTimeMode()} and {@link #keepHistory()}
 * set the simulator's options, as {@code TwsSimulator.builder(query)} does:
 * {@code @Simulator(fidelity = Fidelity.FAST, checkRetries = true) TestSimulator<...> sim;}
 * {@link #checkKeyIsolation()} adds a check after the test: its steps re-run through
 * {@code KeyIsolationCheck}, failing the test when a processor field carries data across keys.
 *
 * <p>A field or parameter of type {@code TwsSimulator} gets a {@link TestSimulator} too (it is
 * one), recorded the same way, for code that takes a {@code TwsSimulator}.
 *
 * <p>The query may have several stateful operators ({@code a.then(b).then(c)}): the timeline shows
 * each operator's part of every batch and the state changes of each, strict mode checks the query's
 * outputs and every operator's due timers, and the Spark comparison and the key-isolation check
 * run the whole query.
 *
 * <p>The query comes from a <em>query source</em>: a field of type {@code TwsQuery} or a method
 * without parameters returning one, in the test class, its superclasses or (for {@code @Nested}
 * classes) an enclosing class. {@link #query()} names it; left empty, the class must declare
 * exactly one. A static simulator needs a static source. {@code "com.acme.Queries#cart"} names a
 * static method or field of another class.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Simulator {
    /** The query source: a field or no-argument method name, or {@code "fully.qualified.Class#member"}; empty for the only one. */
    String query() default "";

    /** {@code TwsSimulator.Builder#fidelity}: {@link Fidelity#FULL} (the default) or {@link Fidelity#FAST}. */
    Fidelity fidelity() default Fidelity.FULL;

    /** {@code TwsSimulator.Builder#checkRetries()}: every batch runs twice, as a retried task, and must not differ. */
    boolean checkRetries() default false;

    /** {@code TwsSimulator.Builder#realTimeMode()}: one {@code handleInputRows} call per input row. */
    boolean realTimeMode() default false;

    /**
     * {@code TwsSimulator.Builder#keepHistory}: with {@code false} the simulator's {@code history()}
     * keeps nothing and its record is bounded too: the timeline and the trace keep the last 40 calls
     * (of one call its last 100 batches), and the output queue only the rows not read yet. A test
     * that runs a long scenario keeps its memory bounded so. {@code compareWithSpark} and
     * {@link #checkKeyIsolation()}, which replay every call, need the default {@code true}.
     */
    boolean keepHistory() default true;

    /**
     * After a passing test, re-run the steps this simulator ran through
     * {@code dev.twstester.report.KeyIsolationCheck} at 1, 2, 3, 5 and 8 shuffle partitions, and fail
     * the test with the check's report when a processor instance field carries data from one key to
     * another (Spark runs the keys of a partition one after another on one processor instance). The
     * steps up to the first call that failed are checked; a call with no scenario equivalent
     * ({@code advanceWatermarkTo}, {@code restore}, a state write) is a configuration error. The
     * re-runs use the check's own simulators: full fidelity, one {@code handleInputRows} call per key
     * and batch, whatever {@link #fidelity()} and {@link #realTimeMode()} say.
     */
    boolean checkKeyIsolation() default false;
}
