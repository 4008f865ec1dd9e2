package dev.twstester.junit.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Internal, not API: may change in any release.
 *
 * <p>The simulators of one test (or, for static fields and {@code @BeforeAll} parameters, of one
 * test class), kept in JUnit's store so that JUnit closes them. While a test runs, its session is
 * the thread's current one, and simulators made with {@code TestSimulator.of} join it.
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

    /** Makes this the current thread's session. */
    public void begin() {
        CURRENT.set(this);
    }

    /** Ends the current thread's session. */
    public static void end() {
        CURRENT.remove();
    }

    @Override
    public synchronized void close() {
        recorders.forEach(r -> r.close("when " + owner + " ended"));
    }
}
