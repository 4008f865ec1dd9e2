package dev.twstester.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import org.opentest4j.TestAbortedException;

import dev.twstester.TwsQuery;
import dev.twstester.junit.internal.JUnitSupport;
import dev.twstester.junit.internal.KeyIsolation;
import dev.twstester.junit.internal.QuerySources;
import dev.twstester.junit.internal.Recorder;
import dev.twstester.junit.internal.RowEquality;
import dev.twstester.junit.internal.Session;
import dev.twstester.junit.internal.SparkComparison;
import dev.twstester.junit.internal.Strictness;
import dev.twstester.junit.internal.Timelines;
import dev.twstester.junit.internal.TraceFiles;
import dev.twstester.sim.Fault;
import dev.twstester.sim.TwsSimulator;

/**
 * The JUnit Jupiter extension behind {@link TwsTest @TwsTest}; register it through the annotation.
 * It creates the {@link Simulator @Simulator} fields and {@link TestSimulator} parameters, keeps
 * them in JUnit's store (closed when their test or class ends), and after each test runs strict
 * mode, the live Spark comparison and the failure timeline. See {@link TwsTest} for the rules.
 * While a test or a {@code @BeforeAll}/{@code @AfterAll} method runs, its simulators are reachable
 * from its thread (see {@code Session}), so that an assertion on a result marks its outputs read.
 */
public final class TwsExtension
        implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver, InvocationInterceptor {
    private static final Namespace NAMESPACE = Namespace.create(TwsExtension.class);
    private static final String SESSION = "session";
    /** The call counts of the class's simulators when a test began: which of them the test used. */
    private static final String SHARED_CALLS = "sharedCalls";
    private static final Path DEFAULT_TRACE_DIR = Path.of("target", "twstester-traces");

    /**
     * Created by JUnit for {@link TwsTest @TwsTest}; fails with one clear line when the JUnit on the
     * test classpath is one the extension does not run on (older than 5.10, or mixed versions).
     */
    public TwsExtension() {
        JUnitSupport.requireSupported();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Session shared = session(context, true);
        Settings settings = settings(context);
        Class<?> testClass = context.getRequiredTestClass();
        for (Field field : simulatorFields(testClass, true)) {
            String target = "static field '" + field.getName() + "'";
            if (settings.compareWithSpark() && !settings.suiteWide()) {
                throw new ExtensionConfigurationException(target + " of " + testClass.getSimpleName() + " is shared by "
                        + "all tests, but compareWithSpark replays one test's calls on a new Spark query; make '"
                        + field.getName() + "' an instance field");
            }
            inject(context, field, null, shared, target);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Session test = session(context, false);
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            for (Field field : simulatorFields(instance.getClass(), false)) {
                inject(context, field, instance, test, "field '" + field.getName() + "'");
            }
        }
        test.begin(outerSessions(context));
        Map<Recorder<?, ?, ?>, Integer> sharedCalls = new IdentityHashMap<>();
        sharedRecorders(context).forEach(r -> sharedCalls.put(r, r.callCount()));
        context.getStore(NAMESPACE).put(SHARED_CALLS + context.getUniqueId(), sharedCalls);
    }

    /** A {@code @BeforeAll} method runs with its class's simulators reachable from its thread. */
    @Override
    public void interceptBeforeAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
            ExtensionContext context) throws Throwable {
        session(context, true).during(outerSessions(context), invocation::proceed);
    }

    /** An {@code @AfterAll} method runs with its class's simulators reachable from its thread. */
    @Override
    public void interceptAfterAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
            ExtensionContext context) throws Throwable {
        session(context, true).during(outerSessions(context), invocation::proceed);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        try {
            Settings settings = settings(context);
            List<Recorder<?, ?, ?>> recorders = recorders(context);
            Optional<Throwable> failure = context.getExecutionException();
            Throwable ours = failure.isPresent() ? null
                    : check(settings, session(context, false), recorders, sharedUsed(context));
            Throwable reported = failure.orElse(ours);
            if (settings.strict()) {
                warnAboutRowsWithoutEquals(context, recorders);
            }
            if (reported instanceof TestAbortedException) {
                if (ours == reported) {
                    throw (TestAbortedException) ours; // the suite-wide comparison skips the test, with the reason
                }
                return;
            }
            for (Recorder<?, ?, ?> r : recorders) {
                if (r.isClosed() || !r.hasActivity()) {
                    continue;
                }
                Path files = null;
                if (settings.writeTrace(reported != null)) {
                    files = writeTrace(context, settings, r, reported);
                } else if (reported == null) {
                    deleteStaleTrace(traceDir(context, settings, r));
                }
                if (reported != null) {
                    reported.addSuppressed(new SimulatorTrace(Timelines.render(r, Timelines.MAX_CALLS), files));
                }
            }
            if (ours instanceof RuntimeException e) {
                throw e;
            }
            if (ours != null) {
                throw (AssertionError) ours;
            }
        } finally {
            Session.end();
        }
    }

    /** Strict mode: once per JVM and class, a warning about a row class without equals() (stderr and a report entry). */
    private static void warnAboutRowsWithoutEquals(ExtensionContext context, List<Recorder<?, ?, ?>> recorders) {
        for (Recorder<?, ?, ?> r : recorders) {
            for (String warning : RowEquality.newWarnings(r.query())) {
                System.err.println(warning);
                context.publishReportEntry("twstester.warning", warning);
            }
        }
    }

    /**
     * Strict mode, the key-isolation check and the Spark comparison after a passing test; the first
     * problem, the rest suppressed. With the suite-wide comparison ({@value TwsTest#COMPARE_WITH_SPARK_PROPERTY}),
     * a test whose calls Spark cannot replay and that has no other problem is skipped: a
     * {@link TestAbortedException} with the reasons.
     */
    private static Throwable check(Settings settings, Session test, List<Recorder<?, ?, ?>> recorders,
            List<Recorder<?, ?, ?>> shared) {
        List<Throwable> problems = new ArrayList<>();
        for (Recorder<?, ?, ?> r : recorders) {
            if (settings.strict() && !r.isClosed()) {
                Strictness.problems(r, "@TwsTest(strict = true)").ifPresent(p -> problems.add(new AssertionError(p)));
            }
        }
        for (Recorder<?, ?, ?> r : recorders) {
            if (r.checksKeyIsolation() && !r.isClosed()) {
                try {
                    KeyIsolation.problems(r).ifPresent(p -> problems.add(new AssertionError(p)));
                } catch (ExtensionConfigurationException e) {
                    problems.add(e);
                }
            }
        }
        List<String> skipped = new ArrayList<>();
        if (settings.compareWithSpark()) {
            for (Recorder<?, ?, ?> r : test.recorders()) {
                if (settings.suiteWide() && !r.keepsHistory() && r.hasActivity()) {
                    skipped.add("compareWithSpark: simulator '" + r.name() + "' keeps no history "
                            + "(@Simulator(keepHistory = false)), and the comparison replays every call of the test");
                    continue;
                }
                try {
                    SparkComparison.difference(r).ifPresent(d -> problems.add(new AssertionError(d)));
                } catch (ExtensionConfigurationException e) {
                    if (!settings.suiteWide()) {
                        problems.add(e);
                    } else {
                        skipped.add(e.getMessage().replace(SparkComparison.LEAVE_OUT, ""));
                    }
                }
            }
            if (settings.suiteWide()) {
                shared.forEach(r -> skipped.add("compareWithSpark: "
                        + "simulator '" + r.name() + "' is shared by the test class, and the comparison replays one "
                        + "test's calls on a new Spark query; give the test a simulator of its own to compare it"));
            }
        }
        if (problems.isEmpty()) {
            return skipped.isEmpty() ? null : new TestAbortedException("not compared with live Spark ("
                    + TwsTest.COMPARE_WITH_SPARK_PROPERTY + "=true): " + String.join("; ", skipped));
        }
        problems.subList(1, problems.size()).forEach(problems.get(0)::addSuppressed);
        return problems.get(0);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == TestSimulator.class
                || parameterContext.isAnnotated(Simulator.class);
    }

    /** Whether {@code type} is one the extension fills: {@link TestSimulator}, or {@link TwsSimulator} (with a TestSimulator). */
    private static boolean injectable(Class<?> type) {
        return type == TestSimulator.class || type == TwsSimulator.class;
    }

    /**
     * Fails when {@code options} keep no history but a check after the test replays every call:
     * the Spark comparison or the key-isolation check.
     */
    private static void requireHistoryForReplays(Simulator options, Settings settings, String where) {
        if (options == null || options.keepHistory()) {
            return;
        }
        // the suite-wide comparison skips such a test instead (check)
        String replay = settings.compareWithSpark() && !settings.suiteWide() ? "@TwsTest(compareWithSpark = true)"
                : options.checkKeyIsolation() ? KeyIsolation.OPTION : null;
        if (replay != null) {
            throw new ExtensionConfigurationException(where + " keeps no history (@Simulator(keepHistory = false)), "
                    + "but " + replay + " replays every call of the test; keep the history or leave the check out");
        }
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext context) {
        Parameter parameter = parameterContext.getParameter();
        String target = (parameter.isNamePresent() ? "parameter '" + parameter.getName() + "'"
                : "parameter " + (parameterContext.getIndex() + 1)) + " of "
                + parameterContext.getDeclaringExecutable().getName() + "()";
        if (parameterContext.getDeclaringExecutable() instanceof Constructor) {
            throw new ParameterResolutionException("a TestSimulator cannot be passed to the constructor of "
                    + context.getRequiredTestClass().getSimpleName() + "; use a @Simulator field or a test method parameter");
        }
        if (!injectable(parameter.getType())) {
            throw new ParameterResolutionException(target + " is annotated @Simulator but is a "
                    + parameter.getType().getSimpleName() + "; declare it as TestSimulator<K, I, O> (or TwsSimulator<K, I, O>)");
        }
        boolean shared = context.getTestMethod().isEmpty();
        if (shared && settings(context).compareWithSpark() && !settings(context).suiteWide()) {
            throw new ExtensionConfigurationException(target + " is shared by all tests of "
                    + context.getRequiredTestClass().getSimpleName() + ", but compareWithSpark replays one test's calls "
                    + "on a new Spark query; take the simulator as a parameter of the test method instead");
        }
        String name = parameterContext.findAnnotation(Simulator.class).map(Simulator::query).orElse("");
        QuerySources.Source source = QuerySources.find(name, lookupClasses(context), target);
        Session session = session(context, shared);
        String simName = parameter.isNamePresent() ? parameter.getName() : source.member().getName();
        Simulator options = parameterContext.findAnnotation(Simulator.class).orElse(null);
        requireHistoryForReplays(options, settings(context), target);
        return session.forQuerySource(source.display(), () -> {
            TestSimulator<?, ?, ?> made = create(simName, source, instances(context), target, options, faults(context));
            session.add(made.recorder());
            return made;
        });
    }

    private void inject(ExtensionContext context, Field field, Object instance, Session session, String target) {
        String where = target + " of " + field.getDeclaringClass().getSimpleName();
        if (!injectable(field.getType())) {
            throw new ExtensionConfigurationException("@Simulator " + where + " is a " + field.getType().getSimpleName()
                    + "; declare it as TestSimulator<K, I, O> (or TwsSimulator<K, I, O>, which gets one too)");
        }
        if (Modifier.isFinal(field.getModifiers())) {
            throw new ExtensionConfigurationException("@Simulator " + where + " is final; remove final so the "
                    + "extension can set it");
        }
        Object current = ReflectionSupport.tryToReadFieldValue(field, instance).toOptional().orElse(null);
        if (current != null && !(current instanceof TestSimulator<?, ?, ?> t && t.managed)) {
            throw new ExtensionConfigurationException("@Simulator " + where + " already has a value; remove the "
                    + "initializer: the extension creates the simulator from the query source");
        }
        String name = field.getAnnotation(Simulator.class).query();
        QuerySources.Source source = QuerySources.find(name, lookupClasses(context), where);
        Simulator options = field.getAnnotation(Simulator.class);
        requireHistoryForReplays(options, settings(context), "@Simulator " + where);
        TestSimulator<?, ?, ?> sim = create(field.getName(), source, instances(context), where, options, faults(context));
        session.add(sim.recorder());
        try {
            field.setAccessible(true);
            field.set(instance, sim);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExtensionConfigurationException("cannot set @Simulator " + where + ": " + e.getMessage(), e);
        }
    }

    private static TestSimulator<?, ?, ?> create(String name, QuerySources.Source source,
            Function<Class<?>, Optional<Object>> instances, String target, Simulator options, Fault[] faults) {
        TwsQuery<?, ?, ?> query = QuerySources.read(source, instances, target);
        try {
            TestSimulator<?, ?, ?> sim = new TestSimulator<>(name, query, options, faults);
            sim.managed = true;
            return sim;
        } catch (RuntimeException e) {
            throw new ExtensionConfigurationException("the simulator for " + target + " did not start from query "
                    + "source " + source.display() + ": " + Timelines.firstLine(e) + "; fix the query the source "
                    + "returns", e);
        }
    }

    private static List<Field> simulatorFields(Class<?> c, boolean statics) {
        return AnnotationSupport.findAnnotatedFields(c, Simulator.class,
                f -> Modifier.isStatic(f.getModifiers()) == statics, HierarchyTraversalMode.TOP_DOWN);
    }

    /** The test class, then its enclosing classes from the innermost out. */
    private static List<Class<?>> lookupClasses(ExtensionContext context) {
        List<Class<?>> classes = new ArrayList<>();
        classes.add(context.getRequiredTestClass());
        List<Class<?>> enclosing = new ArrayList<>(JUnitSupport.enclosingTestClasses(context));
        Collections.reverse(enclosing);
        classes.addAll(enclosing);
        return classes;
    }

    private static Function<Class<?>, Optional<Object>> instances(ExtensionContext context) {
        return c -> context.getTestInstances().flatMap(i -> i.findInstance(c)).map(o -> (Object) o);
    }

    /** The session of this test (or of this class, when shared), created on first use. */
    private static Session session(ExtensionContext context, boolean shared) {
        String owner = shared ? "test class " + context.getRequiredTestClass().getSimpleName()
                : "test " + context.getDisplayName();
        // keyed by context: store lookups fall back to the parent's, which holds the class session
        // get and put (not computeIfAbsent, JUnit 6 only): one context's callbacks run on one thread
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        Session session = store.get(SESSION + context.getUniqueId(), Session.class);
        if (session == null) {
            session = new Session(owner, shared);
            store.put(SESSION + context.getUniqueId(), session);
        }
        return session;
    }

    /** The recorders visible to a test: its own, then those of its class and enclosing classes. */
    private static List<Recorder<?, ?, ?>> recorders(ExtensionContext context) {
        List<Recorder<?, ?, ?>> out = new ArrayList<>();
        for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
            Session s = c.getStore(NAMESPACE).get(SESSION + c.getUniqueId(), Session.class);
            if (s != null) {
                s.recorders().stream().filter(r -> !out.contains(r)).forEach(out::add);
            }
        }
        return out;
    }

    /** The class's simulators that the test called. */
    @SuppressWarnings("unchecked")
    private static List<Recorder<?, ?, ?>> sharedUsed(ExtensionContext context) {
        Map<Recorder<?, ?, ?>, Integer> before = context.getStore(NAMESPACE)
                .get(SHARED_CALLS + context.getUniqueId(), Map.class);
        return sharedRecorders(context).stream()
                .filter(r -> r.callCount() > (before == null ? 0 : before.getOrDefault(r, 0))).toList();
    }

    /** The recorders of the class's (and enclosing classes') sessions: simulators shared by several tests. */
    private static List<Recorder<?, ?, ?>> sharedRecorders(ExtensionContext context) {
        List<Recorder<?, ?, ?>> out = new ArrayList<>();
        outerSessions(context).forEach(s -> s.recorders().stream().filter(r -> !out.contains(r)).forEach(out::add));
        return out;
    }

    /** The sessions of the contexts around {@code context} (its class's, enclosing classes'), innermost first. */
    private static List<Session> outerSessions(ExtensionContext context) {
        List<Session> out = new ArrayList<>();
        for (ExtensionContext c = context.getParent().orElse(null); c != null; c = c.getParent().orElse(null)) {
            Session s = c.getStore(NAMESPACE).get(SESSION + c.getUniqueId(), Session.class);
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    /** {@code <trace dir>/<test class>/<test method>/<simulator>}. */
    private static Path traceDir(ExtensionContext context, Settings settings, Recorder<?, ?, ?> recorder) {
        return settings.traceDir().resolve(safe(context.getRequiredTestClass().getName()))
                .resolve(safe(context.getTestMethod().map(m -> m.getName()).orElse("class") + invocation(context)))
                .resolve(safe(recorder.name()));
    }

    /** A passing test removes what an earlier failing run of it left, so no trace is out of date. */
    private static void deleteStaleTrace(Path dir) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // a stale trace is harmless
        }
    }

    private static Path writeTrace(ExtensionContext context, Settings settings, Recorder<?, ?, ?> recorder,
            Throwable failure) {
        String test = context.getRequiredTestClass().getName() + "#" + context.getDisplayName();
        Path dir = traceDir(context, settings, recorder);
        try {
            TraceFiles.write(recorder, dir, test, failure);
            return dir;
        } catch (RuntimeException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
            return null;
        }
    }

    /** {@code -2} for the second invocation of a repeated or parameterized test, else empty. */
    private static String invocation(ExtensionContext context) {
        String id = context.getUniqueId();
        int at = id.lastIndexOf("-invocation:#");
        return at < 0 ? "" : "-" + id.substring(at + "-invocation:#".length(), id.length() - 1);
    }

    private static String safe(String name) {
        return name.replaceAll("[^A-Za-z0-9._$-]", "_");
    }

    private static Settings settings(ExtensionContext context) {
        TwsTest annotation = AnnotationSupport.findAnnotation(context.getTestMethod(), TwsTest.class)
                .or(() -> JUnitSupport.findAnnotation(context.getRequiredTestClass(), TwsTest.class,
                        JUnitSupport.enclosingTestClasses(context)))
                .orElse(null);
        String mode = context.getConfigurationParameter(TwsTest.TRACE_MODE_PROPERTY).orElse("on_failure")
                .trim().toLowerCase(Locale.ROOT);
        if (!List.of("on_failure", "always", "never").contains(mode)) {
            throw new ExtensionConfigurationException("configuration parameter " + TwsTest.TRACE_MODE_PROPERTY
                    + " is '" + mode + "'; use on_failure, always or never");
        }
        Path dir = context.getConfigurationParameter(TwsTest.TRACE_DIR_PROPERTY).map(Path::of).orElse(DEFAULT_TRACE_DIR);
        boolean annotated = annotation != null && annotation.compareWithSpark();
        boolean suiteWide = !annotated && context.getConfigurationParameter(TwsTest.COMPARE_WITH_SPARK_PROPERTY)
                .map(TwsExtension::compareWithSparkValue).orElse(false);
        return new Settings(annotation != null && annotation.strict(), annotated || suiteWide, suiteWide, mode, dir);
    }

    private static boolean compareWithSparkValue(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw new ExtensionConfigurationException("configuration parameter " + TwsTest.COMPARE_WITH_SPARK_PROPERTY
                    + " is '" + value + "'; use true (compare every @TwsTest test with live Spark) or false");
        }
        return v.equals("true");
    }

    /** The faults of {@link SimulatorFaults} on the test method, else its class or an enclosing class; usually none. */
    private static Fault[] faults(ExtensionContext context) {
        return AnnotationSupport.findAnnotation(context.getTestMethod(), SimulatorFaults.class)
                .or(() -> JUnitSupport.findAnnotation(context.getRequiredTestClass(), SimulatorFaults.class,
                        JUnitSupport.enclosingTestClasses(context)))
                .map(SimulatorFaults::value).orElse(new Fault[0]);
    }

    /**
     * @param compareWithSpark whether the test's calls are replayed on live Spark: by its annotation, or suite-wide
     * @param suiteWide        turned on by {@value TwsTest#COMPARE_WITH_SPARK_PROPERTY} (not the annotation):
     *                         tests Spark cannot replay are skipped, not failed
     */
    private record Settings(boolean strict, boolean compareWithSpark, boolean suiteWide, String traceMode,
            Path traceDir) {
        boolean writeTrace(boolean failed) {
            return traceMode.equals("always") || (failed && traceMode.equals("on_failure"));
        }
    }
}
