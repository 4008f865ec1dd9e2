package dev.twstester.junit.assertj;

import org.assertj.core.api.SoftAssertions;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.sim.TwsSimulator;

/**
 * Soft assertions: every failure is collected and reported together by {@link #assertAll()},
 * navigation included. AssertJ's own soft {@code assertThat}s are inherited.
 *
 * <pre>{@code
 * TwsSoftAssertions softly = new TwsSoftAssertions();
 * softly.assertThat(sim).valueState("count", "a").contains(3L);
 * softly.assertThat(sim).timers("a").isEmpty();
 * softly.assertAll();        // one error listing both failures
 *
 * SoftAssertionsProvider.assertSoftly(TwsSoftAssertions.class, s -> s.assertThat(run).hasBatchIds(0, 1));
 * }</pre>
 *
 * With JUnit, {@code @ExtendWith(SoftAssertionsExtension.class)} and an
 * {@code @InjectSoftAssertions TwsSoftAssertions softly} field call {@code assertAll()} for you.
 */
public class TwsSoftAssertions extends SoftAssertions {
    private final Navigation navigation = new Navigation(this);

    /** Soft assertions on a simulator ({@code TestSimulator}s included). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <K, I, O> SimulatorAssert<K, I, O> assertThat(TwsSimulator<K, I, O> actual) {
        SimulatorAssert<K, I, O> a = proxy(SimulatorAssert.class, TwsSimulator.class, actual);
        a.navigation = navigation;
        return a;
    }

    /** Soft assertions on the batches a call or run executed. */
    public <K, I, O> RunResultAssert<K, I, O> assertThat(RunResult<K, I, O> actual) {
        return navigation.run(actual);
    }

    /** Soft assertions on one micro-batch. */
    public <K, I, O> BatchResultAssert<K, I, O> assertThat(BatchResult<K, I, O> actual) {
        return navigation.batch(actual);
    }
}
