package dev.twstester.junit.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.junit.jupiter.api.extension.ExtensionContext;

import dev.twstester.BatchResult;

/**
 * Internal, not API: may change in any release.
 *
 * <p>The simulators of one test (or, for static fields and {@code @BeforeAll} parameters, of one
 * test class), kept in JUnit's store so that JUnit closes them.
 *
 * <p>While a test runs (from the extension's {@code beforeEach} to its {@code afterEach}, so its
 * {@code @BeforeEach} and {@code @AfterEach} methods too), and while a {@code @BeforeAll} or
 * {@code @AfterAll} method of the class runs, the session is its thread's <em>current</em> one:
 * {@code TestSimulator.of} joins it, and {@link #markRead} finds through it the simulators whose
 * outputs an assertion on a {@code RunResult} or {@code BatchResult} marks read for strict mode.
 * A result does not know the simulator that made it, and the assertion gets nothing from the test
 * but the result, so the running test is the one scope that links the two; it is a thread-local
 * set when the test (or lifecycle method) starts and removed when it ends, so nothing outlives the
 * test, and simulators of other tests, threads or classes are never reached (a registry of every
 * simulator alive is not needed). Assertions made on other threads than the test's mark nothing;
 * read such outputs through {@code TestSimulator.output()} instead. This is what keeps tests that
 * JUnit runs in parallel apart: each thread sees only the session of the test it runs.
 *
 * <p>Both {@code AutoCloseable} (what JUnit 6 closes; {@code CloseableResource} is deprecated there)
 * and {@code CloseableResource} (all JUnit 5 closes before 5.13): each JUnit closes it once.
 */
@SuppressWarnings("deprecation")
public final class Session implements AutoCloseable, ExtensionContext.Store.CloseableResource {
    private static final ThreadLocal<Session> CURRENT = new ThreadLocal<>();

    private final String owner;
    private final boolean shared;
    private final List<Recorder<?, ?, ?>> recorders = new ArrayList<>();
    private final Map<String, Object> byQuerySource = new LinkedHashMap<>();
    /** The sessions of the test's class and enclosing classes, whose simulators it uses too. */
    private List<Session> outer = List.of();
    /** The thread's current session when this one began (a test run by a waiting worker thread), or null. */
    private Session enclosing;

    /** A session for {@code owner}, e.g. {@code test flagsTheCart()}; shared when it spans a class. */
    public Session(String owner, boolean shared) {
        this.owner = owner;
        this.shared = shared;
    }

    /** Adds {@code recorder} to the current thread's session, if a test is running. */
    public static void adopt(Recorder<?, ?, ?> recorder) {
        Session current = CURRENT.get();
        if (current != null) {
            current.add(recorder);
        }
    }

    /**
     * Marks the outputs of {@code batches} read in whichever simulator of the running test (its
     * own, its class's shared ones) ran them; nothing when no test runs on this thread.
     */
    public static void markRead(Collection<? extends BatchResult<?, ?, ?>> batches) {
        Session current = CURRENT.get();
        if (current != null) {
            current.reachable().forEach(r -> r.markRead(batches));
        }
    }

    public synchronized void add(Recorder<?, ?, ?> recorder) {
        recorders.add(recorder);
    }

    /** The parameter simulator made for {@code source} in this session, made by {@code make} the first time. */
    public synchronized Object forQuerySource(String source, Supplier<Object> make) {
        Object sim = byQuerySource.get(source);
        if (sim == null) {
            sim = make.get();
            byQuerySource.put(source, sim);
        }
        return sim;
    }

    public synchronized List<Recorder<?, ?, ?>> recorders() {
        return List.copyOf(recorders);
    }

    public boolean shared() {
        return shared;
    }

    /** This session's simulators, then those of the outer sessions. */
    private List<Recorder<?, ?, ?>> reachable() {
        List<Recorder<?, ?, ?>> all = new ArrayList<>(recorders());
        outer.forEach(s -> all.addAll(s.recorders()));
        return all;
    }

    /**
     * Makes this the current thread's session until {@link #end()}; {@code outerSessions} are the
     * sessions of the test's class and its enclosing classes.
     */
    public void begin(List<Session> outerSessions) {
        this.outer = List.copyOf(outerSessions);
        this.enclosing = CURRENT.get();
        CURRENT.set(this);
    }

    /**
     * Ends the current thread's session: the one current before it {@link #begin began} is current
     * again. Under JUnit's parallel execution a worker thread that waits for other tests (a test
     * factory's dynamic tests) may run one of them in between; that test's session begins and ends
     * inside the waiting one's, which then carries on as it was.
     */
    public static void end() {
        Session current = CURRENT.get();
        if (current != null && current.enclosing != null) {
            CURRENT.set(current.enclosing);
        } else {
            CURRENT.remove();
        }
    }

    /** Runs {@code body} with this as the current thread's session, then restores the one before. */
    public void during(List<Session> outerSessions, ThrowingRunnable body) throws Throwable {
        Session before = CURRENT.get();
        begin(outerSessions);
        try {
            body.run();
        } finally {
            if (before == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(before);
            }
        }
    }

    /** What {@link #during} runs: a lifecycle method's invocation. */
    @FunctionalInterface
    public interface ThrowingRunnable {
        void run() throws Throwable;
    }

    @Override
    public synchronized void close() {
        recorders.forEach(r -> r.close("when " + owner + " ended"));
    }
}
