package dev.twstester.junit.internal;

import java.lang.ref.WeakReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.WeakHashMap;
import java.util.function.Supplier;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.io.EncoderRows;
import dev.twstester.sim.Fault;
import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * Internal, not API: may change in any release.
 *
 * <p>A simulator and the log of every call made through its {@code TestSimulator}: the batches
 * each call ran and the state changes it caused (from snapshots of the state view taken after
 * every call, since the simulator has no per-batch hook), which outputs were read, and whether it
 * was closed.
 */
public final class Recorder<K, I, O> {
    /** Live recorders by simulator, so assertions on a plain TwsSimulator or its results find theirs. */
    private static final Map<TwsSimulator<?, ?, ?>, WeakReference<Recorder<?, ?, ?>>> LIVE =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final String name;
    private final TwsQuery<K, I, O> query;
    private final TwsSimulator<K, I, O> simulator;
    private final EncoderRows<K> keyCodec;
    private final Map<String, String> kinds = new HashMap<>();
    private final List<Call<K, I, O>> calls = new ArrayList<>();
    private final Set<BatchResult<?, ?, ?>> own = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Long> asserted = new TreeSet<>();
    private StateSnapshot last = StateSnapshot.EMPTY;
    private int recordedBatches;
    private int readRows;
    private String closedBecause;
    private volatile boolean checkKeyIsolation;

    /**
     * Creates the simulator (running the processor's driver-side init pass) and registers it.
     * {@code faults} are built into this simulator only (twstester's own tests; see {@link Fault}).
     */
    public Recorder(String name, TwsQuery<K, I, O> query, Fault... faults) {
        this(name, query, b -> b, faults);
    }

    /**
     * As {@link #Recorder(String, TwsQuery, Fault...)}, with {@code options} applied to the
     * simulator's builder (fidelity, retry check, real-time mode).
     */
    public Recorder(String name, TwsQuery<K, I, O> query,
            java.util.function.UnaryOperator<TwsSimulator.Builder<K, I, O>> options, Fault... faults) {
        this.name = Objects.requireNonNull(name, "name must not be null");
        this.query = Objects.requireNonNull(query, "query must not be null");
        TwsSimulator.Builder<K, I, O> builder = options.apply(TwsSimulator.builder(query));
        this.simulator = (faults.length == 0 ? builder : Fault.inject(builder, faults)).build();
        this.keyCodec = EncoderRows.of(query.keyEncoder());
        LIVE.put(simulator, new WeakReference<>(this));
    }

    /** The recorder of {@code simulator}, or null when it is not (or no longer) recorded. */
    public static Recorder<?, ?, ?> of(TwsSimulator<?, ?, ?> simulator) {
        WeakReference<Recorder<?, ?, ?>> ref = LIVE.get(simulator);
        return ref == null ? null : ref.get();
    }

    /** Marks the outputs of {@code batches} read in whichever live recorder ran them. */
    public static void markRead(Collection<? extends BatchResult<?, ?, ?>> batches) {
        List<WeakReference<Recorder<?, ?, ?>>> refs;
        synchronized (LIVE) {
            refs = new ArrayList<>(LIVE.values());
        }
        for (WeakReference<Recorder<?, ?, ?>> ref : refs) {
            Recorder<?, ?, ?> r = ref.get();
            if (r != null) {
                r.markOwnRead(batches);
            }
        }
    }

    public String name() {
        return name;
    }

    public TwsQuery<K, I, O> query() {
        return query;
    }

    /** The simulator itself; calls made on it directly show up as unrecorded in the timeline. */
    public TwsSimulator<K, I, O> simulator() {
        requireOpen();
        return simulator;
    }

    /**
     * Runs {@code action} as one recorded call.
     *
     * @param description   the call as the timeline shows it
     * @param steps         its live Spark replay steps
     * @param notReplayable why it has none, or null
     */
    public synchronized <R> R call(String description, List<Scenario.Step<I>> steps, String notReplayable,
            Supplier<R> action) {
        requireOpen();
        absorbUnrecorded();
        try {
            R result = action.get();
            record(description, steps, notReplayable, null, false);
            return result;
        } catch (RuntimeException e) {
            record(description, steps, notReplayable, e, false);
            throw e;
        }
    }

    /** Every call so far, batches run on the simulator directly included. */
    public synchronized List<Call<K, I, O>> calls() {
        absorbUnrecorded();
        return List.copyOf(calls);
    }

    /** Whether any call was made or any batch ran. */
    public boolean hasActivity() {
        return !calls().isEmpty();
    }

    private void absorbUnrecorded() {
        if (simulator.history().batches().size() > recordedBatches) {
            record("(calls on simulator() directly, not recorded)", List.of(),
                    "calls made on simulator() directly were not recorded", null, true);
        }
    }

    private void record(String description, List<Scenario.Step<I>> steps, String notReplayable,
            RuntimeException error, boolean unrecorded) {
        List<BatchResult<K, I, O>> history = simulator.history().batches();
        List<BatchResult<K, I, O>> ran = history.subList(recordedBatches, history.size());
        own.addAll(ran);
        recordedBatches = history.size();
        StateSnapshot now = snapshot();
        calls.add(new Call<>(calls.size() + 1, description, steps, notReplayable, ran, last.changesTo(now, keyCodec),
                error, unrecorded));
        last = now;
    }

    private StateSnapshot snapshot() {
        StateView<K> view = simulator.state();
        for (String variable : view.variableNames()) {
            kinds.computeIfAbsent(variable, v -> kindOf(view, v));
        }
        return StateSnapshot.take(view, keyCodec, kinds);
    }

    /** The view names the kind only through the accessor that accepts it. */
    private String kindOf(StateView<K> view, String variable) {
        List<K> keys = view.keys();
        if (keys.isEmpty()) {
            return null;
        }
        for (String kind : List.of("value", "list", "map")) {
            try {
                switch (kind) {
                    case "value" -> view.value(variable, keys.get(0));
                    case "list" -> view.list(variable, keys.get(0));
                    default -> view.map(variable, keys.get(0));
                }
                return kind;
            } catch (IllegalArgumentException wrongKind) {
                // try the next kind
            }
        }
        throw new IllegalStateException("state variable '" + variable + "' is neither value, list nor map state");
    }

    // ---- outputs: read through TestOutput or asserted through TwsAssertions

    /** Output rows not yet consumed through the output handle, in order. */
    public synchronized List<O> unconsumed() {
        List<O> all = simulator.history().outputs();
        return all.subList(Math.min(readRows, all.size()), all.size());
    }

    /** Consumes {@code n} rows of the output handle. */
    public synchronized void consume(int n) {
        readRows += n;
    }

    private synchronized void markOwnRead(Collection<? extends BatchResult<?, ?, ?>> batches) {
        absorbUnrecorded();
        for (BatchResult<?, ?, ?> b : batches) {
            if (own.contains(b)) {
                asserted.add(b.batchId());
            }
        }
    }

    /** Output rows neither consumed nor asserted, by batch id. */
    public synchronized Map<Long, List<O>> unreadOutputs() {
        Map<Long, List<O>> unread = new LinkedHashMap<>();
        int position = 0;
        for (BatchResult<K, I, O> b : simulator.history().batches()) {
            for (O row : b.outputs()) {
                if (position >= readRows && !asserted.contains(b.batchId())) {
                    unread.computeIfAbsent(b.batchId(), id -> new ArrayList<>()).add(row);
                }
                position++;
            }
        }
        return unread;
    }

    /** Timers at or before the current watermark (EventTime) or processing time (ProcessingTime), by key. */
    public synchronized Map<K, List<Instant>> dueTimers() {
        Map<K, List<Instant>> due = new LinkedHashMap<>();
        TimeMode mode = query.timeMode();
        if (mode.equals(TimeMode.None())) {
            return due;
        }
        Instant now = mode.equals(TimeMode.EventTime()) ? simulator.watermark() : simulator.processingTime();
        StateView<K> view = simulator.state();
        for (K key : view.keys()) {
            List<Instant> timers = view.timers(key).stream().filter(t -> !t.isAfter(now)).toList();
            if (!timers.isEmpty()) {
                due.put(key, timers);
            }
        }
        return due;
    }

    // ---- checks after the test

    /** Asks for {@link KeyIsolation} on this simulator's steps after the test. */
    public void checkKeyIsolation() {
        checkKeyIsolation = true;
    }

    /** Whether {@link #checkKeyIsolation()} was asked for. */
    public boolean checksKeyIsolation() {
        return checkKeyIsolation;
    }

    // ---- lifecycle

    /** Closes the recorder: later calls fail with {@code because}. */
    public synchronized void close(String because) {
        if (closedBecause == null) {
            closedBecause = Objects.requireNonNull(because, "because must not be null");
            LIVE.remove(simulator);
        }
    }

    public synchronized boolean isClosed() {
        return closedBecause != null;
    }

    public void requireOpen() {
        if (closedBecause != null) {
            throw new IllegalStateException("simulator '" + name + "' was closed " + closedBecause
                    + "; a simulator belongs to one test (a static @Simulator field shares one across a class)");
        }
    }

    @Override
    public String toString() {
        return "simulator '" + name + "'";
    }
}
