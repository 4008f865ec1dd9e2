package dev.twstester.junit.internal;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.io.EncoderRows;
import dev.twstester.sim.SimulatorCall;
import dev.twstester.sim.SimulatorListener;
import dev.twstester.sim.StateDump;
import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * Internal, not API: may change in any release.
 *
 * <p>Records what a {@code TestSimulator} does, as a {@link SimulatorListener} of it: every call
 * made on it (with the scenario steps that replay it, or why none can), the batches each call
 * committed with every operator's state changes after each batch ({@code state(i).dump()} read
 * then), the output rows the test has not read yet, and whether it was closed. After a
 * {@code restartWith} the listener is the new version's too, and the record goes on with the calls
 * on it, its state read through the simulator the deploy handed over.
 *
 * <p>With {@code keepHistory = false} the record is bounded: the last {@value #KEPT_CALLS} calls,
 * and of one call its last {@value #KEPT_BATCHES_PER_CALL} batches; the state changes of what is
 * left out are folded, so the timeline page still draws the right state.
 */
public final class Recorder<K, I, O> implements SimulatorListener<K, I, O> {
    /** The calls kept without history. */
    static final int KEPT_CALLS = Timelines.MAX_CALLS;
    /** The batches of one call kept without history. */
    static final int KEPT_BATCHES_PER_CALL = 100;

    private final String name;
    private final TwsQuery<K, I, O> query;
    private final boolean keepHistory;
    private final List<EncoderRows<?>> keyCodecs = new ArrayList<>();
    private final ArrayDeque<Call<K, I, O>> calls = new ArrayDeque<>();
    private final Outputs<O> outputs = new Outputs<>();
    /** The first operator's state before the first call kept (see {@link #pageStateBeforeCalls()}). */
    private final PageState<K> pageBase;
    private TwsSimulator<K, I, O> simulator;
    private List<StateDump<?>> last;
    private Pending pending;
    private int callCount;
    private long batchCount;
    private String closedBecause;
    private volatile boolean checkKeyIsolation;

    /** A recorder for a simulator of {@code query}; {@code keepHistory} false bounds what it keeps. */
    public Recorder(String name, TwsQuery<K, I, O> query, boolean keepHistory) {
        this.name = Objects.requireNonNull(name, "name must not be null");
        this.query = Objects.requireNonNull(query, "query must not be null");
        this.keepHistory = keepHistory;
        query.operators().forEach(op -> keyCodecs.add(EncoderRows.of(op.keyEncoder())));
        this.pageBase = new PageState<>(EncoderRows.of(query.keyEncoder()));
    }

    /** Starts recording {@code recorded}, the simulator this recorder listens to: its state now is the start. */
    public synchronized void attach(TwsSimulator<K, I, O> recorded) {
        this.simulator = Objects.requireNonNull(recorded, "recorded must not be null");
        this.last = dumps();
    }

    public String name() {
        return name;
    }

    public TwsQuery<K, I, O> query() {
        return query;
    }

    /** Whether the simulator keeps its history (else this record is bounded). */
    public boolean keepsHistory() {
        return keepHistory;
    }

    /** The simulator whose state is current: the recorded one, or the new version a restartWith deployed. */
    public synchronized TwsSimulator<K, I, O> simulator() {
        return simulator;
    }

    // ---- the listener

    @Override
    public synchronized void callStarted(SimulatorCall<I> call) {
        requireOpen();
        pending = new Pending(call, last);
    }

    @Override
    public synchronized void restartedWith(TwsSimulator<K, I, O> next) {
        simulator = next;
        pending.newVersion = Timelines.describe(next.query());
    }

    @Override
    public synchronized void batchCommitted(BatchResult<K, I, O> batch, TwsSimulator<K, I, O> from) {
        simulator = from;
        List<StateDump<?>> now = dumps();
        pending.add(new Call.Committed<>(batch, changes(last, now)));
        last = now;
        outputs.add(batch);
        batchCount++;
    }

    @Override
    public synchronized void callEnded(SimulatorCall<I> call, RunResult<K, I, O> ran, RuntimeException failure) {
        List<StateDump<?>> now = dumps();
        Pending p = pending;
        pending = null;
        calls.addLast(new Call<>(++callCount, call.description(), call.steps(), call.notReplayable(), p.committed,
                p.leftOut, changes(p.atStart, now), changes(last, now), p.newVersion, failure));
        last = now;
        while (!keepHistory && calls.size() > KEPT_CALLS) {
            pageBase.apply(pageChanges(calls.pollFirst()));
        }
    }

    /** The call running now. */
    private final class Pending {
        final List<StateDump<?>> atStart;
        final List<Call.Committed<K, I, O>> committed = new ArrayList<>();
        Call.LeftOut leftOut = Call.LeftOut.NONE;
        String newVersion;

        Pending(SimulatorCall<I> call, List<StateDump<?>> atStart) {
            this.atStart = atStart;
        }

        void add(Call.Committed<K, I, O> batch) {
            committed.add(batch);
            if (!keepHistory && committed.size() > KEPT_BATCHES_PER_CALL) {
                leftOut = leftOut.and(committed.remove(0).changes(), keyCodecs);
            }
        }
    }

    private List<StateDump<?>> dumps() {
        List<StateDump<?>> out = new ArrayList<>(keyCodecs.size());
        for (int i = 0; i < keyCodecs.size(); i++) {
            out.add(simulator.state(i).dump());
        }
        return out;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private List<StateChange> changes(List<StateDump<?>> before, List<StateDump<?>> after) {
        List<StateChange> out = new ArrayList<>();
        for (int i = 0; i < keyCodecs.size(); i++) {
            out.addAll(StateChanges.between(i, (StateDump) before.get(i), (StateDump) after.get(i),
                    (EncoderRows) keyCodecs.get(i)));
        }
        return out;
    }

    // ---- what was recorded

    /** The calls kept, oldest first. */
    public synchronized List<Call<K, I, O>> calls() {
        return List.copyOf(calls);
    }

    /** How many calls were made, those no longer kept included. */
    public synchronized int callCount() {
        return callCount;
    }

    /** How many batches were committed, those no longer kept included. */
    public synchronized long batchCount() {
        return batchCount;
    }

    /** How many of the first calls are no longer kept ({@code keepHistory = false}). */
    public synchronized int callsLeftOut() {
        return callCount - calls.size();
    }

    /** Whether any call was made. */
    public synchronized boolean hasActivity() {
        return callCount > 0;
    }

    /** The first operator's state before the first call kept, as the timeline page draws it. */
    synchronized PageState<K> pageStateBeforeCalls() {
        return pageBase.copy();
    }

    /** Every change {@code call} made to the first operator's state, in order, for the page. */
    static List<StateChange> pageChanges(Call<?, ?, ?> call) {
        List<StateChange> out = new ArrayList<>(call.leftOut().changes());
        call.committed().forEach(c -> out.addAll(c.changes()));
        out.addAll(call.trailing());
        return out;
    }

    // ---- outputs: read through TestOutput or asserted through TwsAssertions

    /** Output rows not yet consumed through the output handle, in order. */
    public synchronized List<O> unconsumed() {
        return outputs.unconsumed();
    }

    /** Consumes {@code n} rows of the output handle. */
    public synchronized void consume(int n) {
        outputs.consume(n);
    }

    /** How many output rows every batch so far emitted. */
    public synchronized long emitted() {
        return outputs.emitted();
    }

    /** Marks the outputs of those of {@code batches} this simulator ran read. */
    public synchronized void markRead(Collection<? extends BatchResult<?, ?, ?>> batches) {
        outputs.markAsserted(batches);
    }

    /** Output rows neither consumed nor asserted, by batch id. */
    public synchronized Map<Long, List<O>> unreadOutputs() {
        return outputs.unread();
    }

    /**
     * One key's timers of one operator at or before that operator's clock: the watermark
     * (EventTime) or the processing time (ProcessingTime).
     */
    public record Due(int operator, Object key, List<Instant> timers, boolean eventTime) {}

    /** The timers due now, operator by operator, key by key. */
    public synchronized List<Due> dueTimers() {
        List<Due> due = new ArrayList<>();
        List<TwsQuery<?, ?, ?>> operators = query.operators();
        for (int i = 0; i < operators.size(); i++) {
            TimeMode mode = operators.get(i).timeMode();
            if (mode.equals(TimeMode.None())) {
                continue;
            }
            boolean eventTime = mode.equals(TimeMode.EventTime());
            Instant now = eventTime ? simulator.watermark() : simulator.processingTime();
            StateView<Object> view = simulator.state(i);
            for (Object key : view.keys()) {
                List<Instant> timers = view.timers(key).stream().filter(t -> !t.isAfter(now)).toList();
                if (!timers.isEmpty()) {
                    due.add(new Due(i, key, timers, eventTime));
                }
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

    /** Closes the recorder: later calls on the simulator fail with {@code because}. */
    public synchronized void close(String because) {
        if (closedBecause == null) {
            closedBecause = Objects.requireNonNull(because, "because must not be null");
        }
    }

    public synchronized boolean isClosed() {
        return closedBecause != null;
    }

    public synchronized void requireOpen() {
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
