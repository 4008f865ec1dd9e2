package dev.twstester.junit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

import org.junit.jupiter.api.TestReporter;

import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.property.EventFactory;
import dev.twstester.property.GenScenario;
import dev.twstester.property.PropertyResult;
import dev.twstester.report.TimelinePage;
import dev.twstester.sim.TwsSimulator;

/**
 * Puts a property run's coverage into the JUnit report, and its shrunk failure with the coverage
 * on a timeline page.
 *
 * <pre>{@code
 * @Test
 * void locksAlternate(TestReporter reporter) throws IOException {
 *     PropertyResult result = Property.forAll(logins).tries(200)
 *             .runs(LoginLockout.query(), LoginLockoutCoverageTest::attempt)
 *             .classifyOutput("unlocked", LockoutEvent::isUnlock).target("unlocked")
 *             .check(LoginLockoutCoverageTest::locksAlternate);
 *     PropertyReports.publish(reporter, result);      // report entry "twstester.coverage": the table
 *     PropertyReports.writeFailureTimeline(LoginLockout.query(), LoginLockoutCoverageTest::attempt, result,
 *             Path.of("target/twstester-failures/lockout.html"));
 *     result.assertPassed();
 * }
 * }</pre>
 */
public final class PropertyReports {
    /** The key of the report entry {@link #publish} adds. */
    public static final String COVERAGE_ENTRY = "twstester.coverage";

    private PropertyReports() {}

    /** Publishes {@code result}'s coverage table as the report entry {@value #COVERAGE_ENTRY} (nothing when it recorded none). */
    public static void publish(TestReporter reporter, PropertyResult result) {
        Objects.requireNonNull(reporter, "reporter must not be null");
        if (!result.coverage().isEmpty()) {
            reporter.publishEntry(COVERAGE_ENTRY, result.coverage().format());
        }
    }

    /**
     * The timeline page of {@code result}'s shrunk failing scenario run on the simulator, with the
     * run's coverage table under its title; a page of the coverage alone when the property passed.
     */
    public static <K, I, O> TimelinePage<K, I, O> failureTimeline(TwsQuery<K, I, O> query,
            EventFactory<? extends I> factory, PropertyResult result) {
        String title = result.failure().map(f -> query.userClass().getSimpleName() + ": shrunk failure of try "
                + (f.tryIndex() + 1)).orElse(query.userClass().getSimpleName() + ": property passed");
        TimelinePage<K, I, O> page = TimelinePage.of(query, title).coverage(result.coverage());
        result.failure().ifPresent(f -> {
            GenScenario shrunk = f.shrunk();
            page.note("Failure: " + f.message());
            TwsSimulator<K, I, O> sim = TwsSimulator.builder(shrunk.applyTo(query)).listener(page).build();
            try {
                RunResult<K, I, O> ignored = sim.run(shrunk.toScenario(factory));
            } catch (RuntimeException e) {
                page.note("The run threw " + e);
            }
        });
        return page;
    }

    /** Writes {@link #failureTimeline} to {@code file} and returns it. */
    public static <K, I, O> Path writeFailureTimeline(TwsQuery<K, I, O> query, EventFactory<? extends I> factory,
            PropertyResult result, Path file) throws IOException {
        return failureTimeline(query, factory, result).write(file);
    }
}
