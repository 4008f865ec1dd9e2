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
 * <p>{@link #fidelity()}, {@link #checkRetries()} and {@link #realTimeMode()} set the simulator's
 * options, as {@code TwsSimulator.builder(query)} does:
 * {@code @Simulator(fidelity = Fidelity.FAST, checkRetries = true) TestSimulator<...> sim;}
 * {@link #checkKeyIsolation()} adds a check after the test: its steps re-run through
 * {@code KeyIsolationCheck}, failing the test when a processor field carries data across keys.
 *
 * <p>A field or parameter of type {@code TwsSimulator} gets the simulator itself, for code that
 * takes one. Its calls are not recorded: a failing test's timeline shows its batches without the
 * calls, strict mode sees its outputs as unread unless asserted through {@code TwsAssertions}, and
 * {@code compareWithSpark} and {@link #checkKeyIsolation()}, which re-run the recorded calls, need a
 * {@link TestSimulator}.
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
