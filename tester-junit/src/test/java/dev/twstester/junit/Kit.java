package dev.twstester.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.List;

import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** Runs {@link ExampleOnly} classes through JUnit's EngineTestKit, and reads what they did. */
final class Kit {
    private Kit() {}

    /** Runs {@code example} with trace files going to {@code traces}; extra parameters as key, value pairs. */
    static EngineExecutionResults run(Class<?> example, Path traces, String... parameters) {
        EngineTestKit.Builder kit = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(example))
                .configurationParameter(ExampleOnly.PARAMETER, "true")
                .configurationParameter(TwsTest.TRACE_DIR_PROPERTY, traces.toString());
        for (int i = 0; i < parameters.length; i += 2) {
            kit.configurationParameter(parameters[i], parameters[i + 1]);
        }
        return kit.execute();
    }

    /** The error of the one failed test. */
    static Throwable failure(EngineExecutionResults results) {
        List<Event> failed = results.testEvents().failed().list();
        if (failed.size() != 1) {
            throw new AssertionError("expected one failed test, got " + failed.size() + ": " + failed);
        }
        return failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow();
    }

    /** The error of the failed test whose display name is {@code test}, e.g. {@code fails()}. */
    static Throwable failure(EngineExecutionResults results, String test) {
        List<Event> failed = results.testEvents().failed().list().stream()
                .filter(e -> e.getTestDescriptor().getDisplayName().equals(test)).toList();
        if (failed.size() != 1) {
            throw new AssertionError("expected test " + test + " to fail once, got " + failed);
        }
        return failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow();
    }

    /** Checks that {@code tests} tests ran and passed; the first failure's error is the cause otherwise. */
    static void assertPassed(EngineExecutionResults results, int tests) {
        results.testEvents().failed().stream().findFirst().ifPresent(e -> {
            throw new AssertionError("an example failed", e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                    .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).orElse(null));
        });
        results.testEvents().assertStatistics(s -> s.started(tests).succeeded(tests));
    }

    /** Group 1 of every match of {@code regex} in {@code text}, in order. */
    static List<String> matches(String text, String regex) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(regex).matcher(text);
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The error of the failed container (a class whose @BeforeAll failed). */
    static Throwable containerFailure(EngineExecutionResults results) {
        List<Event> failed = results.containerEvents().failed().list();
        if (failed.size() != 1) {
            throw new AssertionError("expected one failed container, got " + failed.size() + ": " + failed);
        }
        return failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow();
    }
}
