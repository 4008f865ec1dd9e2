package dev.twstester.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.ProcessorException;
import dev.twstester.TwsQuery;
import dev.twstester.internal.ContiguousPartitions;
import dev.twstester.internal.Sneaky;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The micro-batch algorithm of Spark 4.2.0's {@code TransformWithStateExec} for one shuffle
 * partition, plus the query-level bookkeeping {@code MicroBatchExecution} does
 * around it: batch ids, the watermark, and which batches run at all.
 */
final class Engine<K, I, O> {
    final TwsQuery<K, I, O> query;
    final KeyCodec<K> keyCodec;
    private final KeyCodec<I> inputCodec;
    final KeyCodec<O> outputCodec;
    final Fidelity fidelity;
    private final boolean retryCheck;
    private final boolean realTime;
    /** Deliberate deviations from Spark, for twstester's own tests ({@link Fault}); empty otherwise. */
    private final Set<Fault> faults;
    private final EventTimeColumn<O> outputEventTime;
    final StateStore store;
    /** The late filter's event-time column: the input's {@code withWatermark} column, or a chain's (see {@link #lateFilterOn}). */
    private EventTimeColumn<I> eventTime;
    private final long delayMs;
    private ProcessorCopies<StatefulProcessor<K, I, O>> processors;
    private final UUID queryId = SimHandle.randomId();
    private UUID runId = SimHandle.randomId();

    /** Sees every handler call with the processor instance (the key-isolation check); null when unused. */
    private HandlerObserver observer;
    /** When not null, every committed batch's handler calls are appended (the key-isolation check). */
    private List<List<RetryCheck.Call>> callLog;
    /** Sees every committed batch, after its commit (the timeline page); null when unused. */
    private java.util.function.Consumer<BatchResult<K, I, O>> afterCommit;

    /** The last batch's metrics, shared by the next batch when its figures are the same. */
    private final Metrics.Last lastMetrics = new Metrics.Last();

    /** Whose rules apply where Spark's lines differ. */
    private final SparkLine line;
    /** The legacy operator's rules apply (a mapGroupsWithState / flatMapGroupsWithState query); see {@link GroupStateProcessor}. */
    private final boolean groupsWithState;
    private long processingTimeMs;
    /** The global watermark after the last batch: the next batch's eviction watermark. */
    private long watermarkMs;
    /** The eviction watermark the last batch ran with: the next batch's late-event watermark. */
    private long lastBatchWatermarkMs;
    private long nextBatchId;
    private boolean batchRanInThisRun;
    /** The checkpoint's state encoding: the first run's, kept by restarts (see {@link #restoreEvolved}). */
    private dev.twstester.StateEncoding encoding;
    /** Variables an earlier version had and this one does not ask for: their rows stay, as in Spark's store. */
    private List<StateSnapshot.Variable> dropped = List.of();

    Engine(TwsQuery<K, I, O> query, Fidelity fidelity, boolean retryCheck, boolean realTime, Set<Fault> faults,
            SparkLine line) {
        this.query = query;
        this.line = line;
        this.fidelity = fidelity;
        this.retryCheck = retryCheck;
        this.realTime = realTime;
        this.faults = faults;
        this.outputEventTime = query.outputEventTimeColumn()
                .map(c -> new EventTimeColumn<>(query.outputEncoder(), c, "outputEventTimeColumn")).orElse(null);
        this.keyCodec = KeyCodec.of(query.keyEncoder());
        this.inputCodec = KeyCodec.of(query.inputEncoder());
        this.outputCodec = KeyCodec.of(query.outputEncoder());
        this.store = new StateStore(query.timeMode(), keyCodec, fidelity);
        this.eventTime = query.eventTimeColumn().map(c -> new EventTimeColumn<>(query.inputEncoder(), c)).orElse(null);
        this.delayMs = query.watermarkDelay().toMillis();
        this.encoding = query.stateEncoding();
        applyEncoding();
        this.groupsWithState = query.groupsWithState().isPresent();
        if (groupsWithState) { // there from the start, so that state() reads and writes it before the first batch
            store.value(GroupStateProcessor.STATE_VARIABLE, query.groupsWithState().get().stateEncoder(), 0);
        }
        this.processors = copies(driverPass());
    }

    /**
     * A restart from the checkpoint: state, timers, watermarks, clock and batch ids stay; a new run id
     * and processor (driver pass included); no batch runs before the next data batch.
     */
    void restart() {
        processors = copies(driverPass());
        runId = SimHandle.randomId();
        batchRanInThisRun = false;
    }

    /**
     * For the key-isolation check: {@code observer} sees every handler call from now on, and each
     * committed batch's handler calls are kept ({@link #loggedCalls()}).
     */
    void watchCalls(HandlerObserver observer) {
        this.observer = observer;
        this.callLog = new ArrayList<>();
    }

    /** {@code listener} sees every batch committed from now on, right after its commit (before any other batch runs). */
    void afterCommit(java.util.function.Consumer<BatchResult<K, I, O>> listener) {
        afterCommit = afterCommit == null ? listener : afterCommit.andThen(listener);
    }

    /** The handler calls of every committed batch since {@link #watchCalls}, batch by batch. */
    List<List<RetryCheck.Call>> loggedCalls() {
        return callLog == null ? List.of() : callLog;
    }

    /** The processing-time clock: the next batch's timestamp. */
    long processingTimeMs() {
        return processingTimeMs;
    }

    /** Moves the clock (never backwards; the caller checks). */
    void setClock(long ms) {
        processingTimeMs = ms;
        store.scope().batchTimestampMs = ms;
    }

    /** The next batch's eviction watermark. */
    long watermarkMs() {
        return watermarkMs;
    }

    /** Forces the watermark forward, as if input had moved it (never backwards; the caller checks). */
    void forceWatermark(long ms) {
        watermarkMs = ms;
    }

    long nextBatchId() {
        return nextBatchId;
    }

    /**
     * The downstream operator of a chain filters late rows on {@code column} of its input: the
     * upstream's {@code eventTimeColumnName}, which carries the watermark metadata.
     * Its watermarks are the upstream's, set with {@link #forceWatermark} after every batch.
     */
    void lateFilterOn(String column) {
        eventTime = new EventTimeColumn<>(query.inputEncoder(), column, "outputEventTimeColumn");
    }

    /** FULL: serialized copies of the driver's instance, as tasks get them; FAST uses the supplier. */
    private ProcessorCopies<StatefulProcessor<K, I, O>> copies(StatefulProcessor<K, I, O> driver) {
        // a legacy function is deserialized per task too: its adapter from the supplier would share the query's instance
        return fidelity == Fidelity.FULL
                ? new ProcessorCopies<>(driver, groupsWithState ? () -> null : this::newProcessor) : null;
    }

    /** The query's processor, or the adapter that runs its legacy function. */
    private StatefulProcessor<K, I, O> newProcessor() {
        return groupsWithState ? GroupStateProcessor.of(query) : query.newProcessor();
    }

    /** The driver-side init/close pass Spark runs twice when a query run starts. */
    private StatefulProcessor<K, I, O> driverPass() {
        StatefulProcessor<K, I, O> driver = newProcessor();
        for (int pass = 0; pass < 2; pass++) {
            driver.setHandle(new DriverHandle(store, line));
            run("init", null, -1, () -> driver.init(query.outputMode(), query.timeMode()));
            run("close", null, -1, driver::close);
            driver.setHandle(null);
        }
        return driver;
    }

    /**
     * Runs one micro-batch; on failure nothing of it is kept and the exception propagates.
     * {@code knownKey}, when not null, is the encoded key every row is known to have, and
     * {@code keyObject} that key as an object (handed to the processor when a copy is indistinguishable).
     */
    BatchResult<K, I, O> runBatch(List<I> rows, boolean hadInput, Bytes knownKey, K keyObject) {
        Uncommitted ran = runUncommitted(rows, hadInput, knownKey, keyObject);
        ran.commit();
        return ran.result;
    }

    /**
     * Runs the next micro-batch and keeps its state changes pending: {@link Uncommitted#commit()}
     * or {@link Uncommitted#rollback()} must follow before anything else runs (a chain commits its
     * operators together). On failure nothing of it is kept and the exception propagates.
     */
    Uncommitted runUncommitted(List<I> rows, boolean hadInput, Bytes knownKey, K keyObject) {
        long ts = processingTimeMs;
        long lateWm = lastBatchWatermarkMs;
        long evictWm = watermarkMs;
        Scope scope = store.scope();
        scope.batchTimestampMs = ts;
        try {
            Attempt attempt = attempt(rows, knownKey, keyObject);
            if (retryCheck) {
                attempt = retry(rows, knownKey, keyObject, attempt);
            }
            Batch batch = attempt.batch;
            List<I> received = fidelity == Fidelity.FAST ? Collections.unmodifiableList(rows) : rows;
            return new Uncommitted(attempt, evictWm, new BatchResult<>(batch.id, hadInput, received,
                    attempt.input.dropped, Instant.ofEpochMilli(lateWm), Instant.ofEpochMilli(evictWm),
                    Instant.ofEpochMilli(ts), batch.outputs, batch.fired, batch.metrics(),
                    ContiguousPartitions.ofCounts(batch.outputsPerTask)));
        } catch (Throwable t) {
            // anything: the user's Errors and undeclared checked exceptions too
            scope.journal.rollback();
            throw t;
        } finally {
            scope.key = null;
            scope.metrics = Metrics.DISCARD;
            scope.batchTimestampMs = processingTimeMs;
        }
    }

    /** A batch that ran and whose state changes are pending. */
    final class Uncommitted {
        private final Attempt attempt;
        private final long evictWm;
        final BatchResult<K, I, O> result;

        private Uncommitted(Attempt attempt, long evictWm, BatchResult<K, I, O> result) {
            this.attempt = attempt;
            this.evictWm = evictWm;
            this.result = result;
        }

        /** Keeps the batch: its state, the next batch's watermarks and id. */
        void commit() {
            store.scope().journal.commit();
            finish(attempt.input.maxEventTimeMs, evictWm);
            if (callLog != null) {
                callLog.add(attempt.batch.calls);
            }
            if (afterCommit != null) {
                afterCommit.accept(result);
            }
        }

        /** Drops the batch, as a batch that failed later in the same micro-batch. */
        void rollback() {
            store.scope().journal.rollback();
        }
    }

    /** One execution of the next batch's tasks, uncommitted. */
    private Attempt attempt(List<I> rows, Bytes knownKey, K keyObject) {
        Batch batch = new Batch(nextBatchId, new Timers(processingTimeMs, watermarkMs), lastBatchWatermarkMs);
        long filterWm = faults.contains(Fault.LATE_FILTER_USES_CURRENT_WATERMARK) ? watermarkMs : lastBatchWatermarkMs;
        Input<I> input = parse(rows, knownKey, filterWm);
        Scope scope = store.scope();
        Partitions partitions = new Partitions(query.shufflePartitions());
        List<Bytes> keys = sortedKeys(input.byKey);
        Map<Bytes, List<Object>> initial = batch.id == 0 ? initialRows() : Map.of();
        List<Bytes> initialKeys = sortedKeys(initial);
        for (int p = 0; p < partitions.count; p++) {
            scope.metrics = batch.metricsOfTask();
            runTask(p, partitions, batch, input, initial, initialKeys, keys, knownKey, keyObject);
        }
        scope.metrics = batch.metricsOfTask();
        int expired = store.removeExpired(processingTimeMs);
        scope.metrics.add("numValuesRemovedDueToTTLExpiry", expired);
        scope.metrics.add("numRemovedStateRows", expired);
        scope.metrics.add("numRowsDroppedByWatermark", input.dropped.size());
        return new Attempt(batch, input);
    }

    /**
     * A task retry: the batch runs again from the state committed before it, and both runs must
     * leave the same outputs, state and timers. Returns the second run, which is the one kept.
     */
    private Attempt retry(List<I> rows, Bytes knownKey, K keyObject, Attempt first) {
        Map<String, Map<Bytes, Object>> stateAfterFirst = copyState();
        Map<Bytes, long[]> timersAfterFirst = store.timers().copyData();
        store.scope().journal.rollback();
        Attempt second = attempt(rows, knownKey, keyObject);
        String difference = RetryCheck.difference(first.batch.calls, second.batch.calls, this::sameOutput,
                stateAfterFirst, copyState(), store.variables(), timersAfterFirst, store.timers().copyData(),
                key -> keyCodec.decode(key.array()));
        if (difference != null) {
            throw new NondeterministicBatchException("batch " + first.batch.id + " is not deterministic: run twice "
                    + "from the same committed state, as Spark does when it retries a task, " + difference
                    + ". Look for reads of the wall clock (use TimerValues instead), randomness, or state kept "
                    + "outside the state API in the processor.");
        }
        return second;
    }

    private boolean sameOutput(Object a, Object b) {
        if (fidelity == Fidelity.FULL && !outputCodec.immutable()) {
            @SuppressWarnings("unchecked")
            O x = (O) a;
            @SuppressWarnings("unchecked")
            O y = (O) b;
            return java.util.Arrays.equals(outputCodec.encode(x), outputCodec.encode(y));
        }
        return java.util.Objects.equals(a, b);
    }

    private Map<String, Map<Bytes, Object>> copyState() {
        Map<String, Map<Bytes, Object>> copy = new LinkedHashMap<>();
        store.variables().forEach((name, v) -> copy.put(name, v.copyData()));
        return copy;
    }

    /** Everything a checkpoint holds. */
    StateSnapshot snapshot() {
        List<StateSnapshot.Variable> variables = new ArrayList<>();
        store.variables().forEach((name, v) -> variables.add(
                new StateSnapshot.Variable(name, v.kind(), v.ttlMs, v.encoders, v.copyData())));
        return new StateSnapshot(query.keyEncoder(), variables, store.timers().copyData(), processingTimeMs,
                watermarkMs, lastBatchWatermarkMs, nextBatchId, new StateSnapshot.Operator(query.timeMode().toString(),
                        query.outputMode().toString(), encoding), dropped);
    }

    /** Keys ordered as the checkpoint's state encoding orders them in RocksDB (before any data is restored). */
    private void applyEncoding() {
        boolean avro = encoding == dev.twstester.StateEncoding.AVRO;
        store.scope().avroKeyOrder = avro;
        store.timers().avroOrder(avro ? query.keyEncoder() : null);
    }

    /**
     * Replaces everything with {@code snapshot}, taken from an earlier version of this query: Spark's
     * checks of the new version against the checkpoint first ({@link StateEvolution}, which throws
     * Spark's error), then the stored values are read with the encoders this version's driver pass
     * asked for. The state encoding is the checkpoint's. Variables this version does not ask for are
     * kept aside with their rows ({@link #dropped}); those it adds start empty, or with the rows of
     * a dropped variable of that name. The caller starts a new run.
     */
    void restoreEvolved(StateSnapshot snapshot) {
        if (snapshot.operator != null) {
            encoding = snapshot.operator.encoding();
        }
        applyEncoding();
        Map<String, StateVariable> declared = new LinkedHashMap<>(store.variables());
        List<StateEvolution.Declared> asked = new ArrayList<>();
        declared.forEach((name, v) -> asked.add(new StateEvolution.Declared(name, v.kind(), v.ttlMs, v.encoders)));
        StateEvolution.check(snapshot, query.keyEncoder(), asked, query, encoding);
        boolean avro = encoding == dev.twstester.StateEncoding.AVRO;
        Map<String, StateSnapshot.Variable> stored = new LinkedHashMap<>();
        snapshot.dropped().forEach(v -> stored.put(v.name(), v));
        snapshot.variables.forEach(v -> stored.put(v.name(), v));
        List<StateSnapshot.Variable> stillDropped = new ArrayList<>();
        stored.forEach((name, v) -> {
            if (!declared.containsKey(name)) {
                stillDropped.add(v);
            }
        });
        dropped = List.copyOf(stillDropped);
        declared.forEach((name, variable) -> {
            StateSnapshot.Variable old = stored.get(name);
            if (old == null) {
                variable.restoreData(Map.of());
                return;
            }
            java.util.function.UnaryOperator<Object> values = StateEvolution.reader(
                    old.encoders()[old.encoders().length - 1], variable.encoders[variable.encoders.length - 1],
                    store.values(variable.encoders[variable.encoders.length - 1]), avro);
            java.util.function.UnaryOperator<Object> mapKeys = variable.encoders.length < 2 ? null
                    : StateEvolution.reader(old.encoders()[0], variable.encoders[0], store.values(variable.encoders[0]), false);
            Map<Bytes, Object> data = values == null && mapKeys == null ? old.data()
                    : variable.convertData(old.data(), values == null ? v -> v : values, mapKeys == null ? k -> k : mapKeys);
            variable.restoreData(data);
        });
        restorePosition(snapshot);
    }

    /**
     * Why {@code snapshot} cannot be restored into this query, or null when it can: a snapshot must
     * come from a query with this grouping key encoder. {@link MicroBatchLoop#restore} asks every
     * operator before it restores any.
     */
    String restoreProblem(StateSnapshot snapshot) {
        return snapshot.keyEncoder.equals(query.keyEncoder()) ? null : "its grouping key encoder "
                + snapshot.keyEncoder + " differs from this query's " + query.keyEncoder() + " (processor "
                + query.userClass().getName() + ")";
    }

    /**
     * Replaces everything with {@code snapshot}, which {@link #restoreProblem} accepted; the caller
     * starts a new run, as Spark restarts from a checkpoint.
     */
    void restore(StateSnapshot snapshot) {
        if (snapshot.operator != null) {
            encoding = snapshot.operator.encoding();
        }
        applyEncoding();
        dropped = snapshot.dropped();
        store.variables().clear();
        for (StateSnapshot.Variable v : snapshot.variables) {
            store.variable(v.name(), v.kind(), v.encoders(), v.ttlMs()).restoreData(v.data());
        }
        restorePosition(snapshot);
    }

    /** The snapshot's timers, clock, watermarks and next batch id, committed with the state restored before. */
    private void restorePosition(StateSnapshot snapshot) {
        store.timers().restoreData(snapshot.timers);
        store.scope().journal.commit();
        position(snapshot.processingTimeMs, snapshot.lastBatchWatermarkMs, snapshot.watermarkMs, snapshot.nextBatchId);
    }

    /**
     * Where the query stands, as a restore or {@link SnapshotBuilder#position} sets it: the clock,
     * the last batch's eviction watermark (the next batch's late-row filter), the next batch's
     * eviction watermark and the next batch's id.
     */
    void position(long processingTimeMs, long lastBatchWatermarkMs, long watermarkMs, long nextBatchId) {
        setClock(processingTimeMs);
        this.watermarkMs = watermarkMs;
        this.lastBatchWatermarkMs = lastBatchWatermarkMs;
        this.nextBatchId = nextBatchId;
    }

    /** One run of a batch: its collections and its parsed input. */
    private final class Attempt {
        final Batch batch;
        final Input<I> input;

        Attempt(Batch batch, Input<I> input) {
            this.batch = batch;
            this.input = input;
        }
    }

    /**
     * One partition's task: a fresh processor, {@code init}, initial state (batch 0),
     * the partition's keys in ascending order, its due timers, {@code close}. It runs even when
     * the partition has no keys, as Spark's task does.
     */
    private void runTask(int p, Partitions partitions, Batch batch, Input<I> input, Map<Bytes, List<Object>> initial,
            List<Bytes> initialKeys, List<Bytes> keys, Bytes knownKey, K keyObject) {
        StatefulProcessor<K, I, O> processor = fidelity == Fidelity.FULL ? processors.fresh() : newProcessor();
        int outputsBefore = batch.outputs.size();
        SimHandle handle = new SimHandle(store, SimHandle.queryInfo(queryId, runId, batch.id));
        Scope scope = store.scope();
        processor.setHandle(handle);
        try {
            run("init", null, batch.id, () -> processor.init(query.outputMode(), query.timeMode()));
            handle.state = HandleState.INITIALIZED;
            if (groupsWithState && !initialKeys.isEmpty()) {
                // processNewDataWithInitialState: each key with initial state or rows, in key order
                groupsWithInitialState(processor, p, partitions, batch, input, initial, initialKeys, keys);
                keys = List.of();
            }
            for (Bytes key : initialKeys) {
                if (partitions.of(key) == p && !groupsWithState) {
                    initialState(processor, key, initial.get(key), batch);
                }
            }
            for (Bytes key : keys) {
                if (partitions.of(key) == p) {
                    K k = keyObject != null && key == knownKey ? enter(key, keyObject) : enter(key);
                    input(processor, k, input.byKey.get(key), batch);
                }
            }
            handle.state = HandleState.DATA_PROCESSED;
            timers(processor, batch, partitions, p);
            handle.state = HandleState.TIMER_PROCESSED;
            scope.key = null;
            run("close", null, batch.id, processor::close);
            batch.outputsPerTask.add(batch.outputs.size() - outputsBefore);
        } finally {
            scope.key = null;
            handle.state = HandleState.CLOSED;
            processor.setHandle(null);
        }
    }

    /** After a successful batch: the next batch's watermarks and id. */
    private void finish(long maxEventTimeMs, long evictWm) {
        if (maxEventTimeMs != Long.MIN_VALUE) {
            watermarkMs = Math.max(watermarkMs, maxEventTimeMs - delayMs);
        }
        lastBatchWatermarkMs = evictWm;
        nextBatchId++;
        batchRanInThisRun = true;
    }

    /**
     * Spark's {@code shouldRunAnotherBatch} after the batch that just ran: always in
     * ProcessingTime mode, otherwise when the watermark moved past the last eviction watermark
     * and the output mode is Append or Update.
     */
    boolean wantsNoDataBatch() {
        if (!batchRanInThisRun) {
            return false;
        }
        if (groupsWithState && query.timeMode().equals(TimeMode.None())) {
            return false; // FlatMapGroupsWithStateExecBase.shouldRunAnotherBatch: NoTimeout never asks
        }
        if (query.timeMode().equals(TimeMode.ProcessingTime())) {
            return true;
        }
        boolean appendOrUpdate = query.outputMode().equals(OutputMode.Append())
                || query.outputMode().equals(OutputMode.Update());
        return appendOrUpdate && watermarkMs > lastBatchWatermarkMs;
    }

    /**
     * Groups the batch's rows by key after the late-row filter, and finds the maximum event time.
     * FULL fidelity encodes each row as the source would and hands the processor decoded copies;
     * FAST (and immutable types, where a copy is indistinguishable) hands over the rows themselves.
     */
    private Input<I> parse(List<I> rows, Bytes knownKey, long filterWmMs) {
        Input<I> in = new Input<>();
        boolean byReference = fidelity == Fidelity.FAST || inputCodec.immutable();
        if (knownKey != null && byReference && eventTime == null) {
            in.byKey = Map.of(knownKey, rows);
            return in;
        }
        in.byKey = new LinkedHashMap<>();
        boolean lateFilter = eventTime != null && query.timeMode().equals(TimeMode.EventTime());
        for (int i = 0; i < rows.size(); i++) {
            I row = rows.get(i);
            I delivered = row;
            Long micros;
            Bytes key = knownKey;
            if (byReference) {
                if (fidelity == Fidelity.FULL && !inputCodec.acceptsAsIs(row)) {
                    encodeInput(row, i); // fails as Spark's encoder does
                }
                micros = eventTime == null ? null : eventTime.fromObject(row);
            } else {
                byte[] encoded = encodeInput(row, i);
                micros = eventTime == null ? null : eventTime.fromEncoded(encoded);
                delivered = inputCodec.decode(encoded);
                if (key == null) {
                    key = new Bytes(keyCodec.encode(keyOf(inputCodec.decode(encoded))));
                }
            }
            if (key == null) {
                key = new Bytes(keyCodec.encode(keyOf(row)));
            }
            if (micros != null) {
                in.maxEventTimeMs = Math.max(in.maxEventTimeMs, Math.floorDiv(micros, 1000L));
            }
            // Spark's late-row filter: event time at or before the previous batch's watermark, in µs
            if (lateFilter && micros != null && micros <= filterWmMs * 1000L) {
                in.dropped.add(row);
            } else {
                in.byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(delivered);
            }
        }
        return in;
    }

    K keyOf(I row) {
        try {
            return query.keyFunction().call(row);
        } catch (Exception e) {
            throw new IllegalArgumentException("the key function threw for input row " + row + ": " + e, e);
        }
    }

    private byte[] encodeInput(I row, int index) {
        try {
            return inputCodec.encode(row);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("input row " + index + " of batch " + nextBatchId
                    + " cannot be encoded with the query's input encoder: " + row, e);
        }
    }

    /**
     * A legacy function's batch 0 with initial state (Spark's {@code processNewDataWithInitialState}):
     * for each key of the partition that has initial state or rows, in key order, its initial value
     * becomes its state with no timeout (a second value for the key fails the batch), then the
     * function is called with the key's rows, none for a key with initial state only.
     */
    private void groupsWithInitialState(StatefulProcessor<K, I, O> processor, int p, Partitions partitions,
            Batch batch, Input<I> input, Map<Bytes, List<Object>> initial, List<Bytes> initialKeys, List<Bytes> keys) {
        Map<Bytes, Boolean> union = new LinkedHashMap<>();
        initialKeys.forEach(k -> union.put(k, true));
        keys.forEach(k -> union.put(k, true));
        for (Bytes key : sortedKeys(union)) {
            if (partitions.of(key) != p) {
                continue;
            }
            K k = enter(key);
            List<Object> values = initial.get(key);
            if (values != null) {
                ((GroupStateProcessor<?, ?, ?, ?>) processor).putInitialState(values);
            }
            call(processor, k, input.byKey.getOrDefault(key, List.of()), batch);
        }
    }

    /** Batch 0's initial-state rows by encoded key, as the processor will receive them. */
    private Map<Bytes, List<Object>> initialRows() {
        if (query.initialState().isEmpty()) {
            return Map.of();
        }
        return initialRows(query.initialState().get());
    }

    private <S> Map<Bytes, List<Object>> initialRows(TwsQuery.InitialState<K, S> init) {
        if (groupsWithState) {
            return legacyInitialRows(init, query.groupsWithState().get().stateEncoder());
        }
        Codec<S> valueCodec = store.values(init.encoder());
        Map<Bytes, List<Object>> byKey = new LinkedHashMap<>();
        for (Map.Entry<K, S> e : init.rows()) {
            byKey.computeIfAbsent(new Bytes(keyCodec.encode(e.getKey())), k -> new ArrayList<>())
                    .add(valueCodec.load(valueCodec.store(e.getValue())));
        }
        return byKey;
    }

    /**
     * A legacy function's initial state: each value written with the initial state's encoder and
     * read with the state encoder, as Spark's deserializer reads it (the schemas are the same,
     * {@code GroupsWithState#checkQuery}); by reference at {@code Fidelity.FAST} when the encoders are equal.
     */
    private <S> Map<Bytes, List<Object>> legacyInitialRows(TwsQuery.InitialState<K, S> init,
            org.apache.spark.sql.Encoder<?> stateEncoder) {
        boolean byReference = fidelity == Fidelity.FAST && init.encoder().equals(stateEncoder);
        KeyCodec<S> from = byReference ? null : KeyCodec.of(init.encoder());
        KeyCodec<?> to = byReference ? null : KeyCodec.of(stateEncoder);
        Map<Bytes, List<Object>> byKey = new LinkedHashMap<>();
        for (Map.Entry<K, S> e : init.rows()) {
            S value = e.getValue();
            Object state = value == null || byReference ? value : to.decode(from.encode(value));
            byKey.computeIfAbsent(new Bytes(keyCodec.encode(e.getKey())), k -> new ArrayList<>()).add(state);
        }
        return byKey;
    }

    @SuppressWarnings("unchecked")
    private void initialState(StatefulProcessor<K, I, O> processor, Bytes key, List<Object> values, Batch batch) {
        StatefulProcessorWithInitialState<K, I, O, Object> p = (StatefulProcessorWithInitialState<K, I, O, Object>) processor;
        for (Object value : values) {
            K k = enter(key);
            run("handleInitialState", k, batch.id, () -> p.handleInitialState(k, value, batch.timerValues));
        }
    }

    /** One key's rows in one {@code handleInputRows} call; in real-time mode, one call per row. */
    private void input(StatefulProcessor<K, I, O> processor, K k, List<I> rows, Batch batch) {
        if (realTime) {
            for (I row : rows) {
                call(processor, k, List.of(row), batch);
            }
        } else {
            call(processor, k, rows, batch);
        }
    }

    private void call(StatefulProcessor<K, I, O> processor, K k, List<I> rows, Batch batch) {
        scala.collection.Iterator<I> values = CollectionConverters.asScala(rows.iterator());
        observe(true, "handleInputRows", k, processor);
        scala.collection.Iterator<O> out = callSync("handleInputRows", k, batch.id,
                () -> processor.handleInputRows(k, values, batch.timerValues));
        consume("handleInputRows", k, out, batch);
        observe(false, "handleInputRows", k, processor);
    }

    /** Timers due at the threshold, from a snapshot taken now; each is deleted after its callback. */
    private void timers(StatefulProcessor<K, I, O> processor, Batch batch, Partitions partitions, int p) {
        long threshold;
        if (query.timeMode().equals(TimeMode.ProcessingTime())) {
            threshold = batch.timerValues.processingTimeMs;
        } else if (query.timeMode().equals(TimeMode.EventTime())) {
            threshold = batch.timerValues.watermarkMs;
        } else {
            return;
        }
        // the legacy operator: state rows whose timeout is strictly before the threshold, in the state store's key order
        List<TimerStore.Timer> due = groupsWithState ? store.timers().timedOut(threshold) : store.timers().expired(threshold);
        for (TimerStore.Timer timer : due) {
            if (partitions.of(timer.key()) != p) {
                continue;
            }
            K k = enter(timer.key());
            long expiry = timer.expiry();
            ExpiredTimerInfo info = () -> expiry;
            observe(true, "handleExpiredTimer", k, processor);
            scala.collection.Iterator<O> out = callSync("handleExpiredTimer", k, batch.id,
                    () -> processor.handleExpiredTimer(k, batch.timerValues, info));
            consume("handleExpiredTimer", k, out, batch);
            observe(false, "handleExpiredTimer", k, processor);
            store.timers().delete(timer.key(), expiry);
            store.scope().metrics.add("numExpiredTimers", 1);
            store.scope().metrics.add("numDeletedTimers", 1);
            batch.fired.add(new FiredTimer<>(k, Instant.ofEpochMilli(expiry)));
        }
    }

    private void observe(boolean before, String function, Object key, Object processor) {
        if (observer != null) {
            if (before) {
                observer.before(function, key, processor);
            } else {
                observer.after(function, key, processor);
            }
        }
    }

    /** Sets the implicit key and returns a fresh key object, as Spark deserializes one per call. */
    private K enter(Bytes key) {
        return enter(key, keyCodec.decode(key.array()));
    }

    private K enter(Bytes key, K keyObject) {
        store.scope().key = key;
        return keyObject;
    }

    private List<Bytes> sortedKeys(Map<Bytes, ?> byKey) {
        if (byKey.size() <= 1) {
            return List.copyOf(byKey.keySet());
        }
        List<Bytes> keys = new ArrayList<>(byKey.keySet());
        keys.sort((a, b) -> keyCodec.compareNatural(a.array(), b.array()));
        return keys;
    }

    private void consume(String function, K key, scala.collection.Iterator<O> out, Batch batch) {
        if (out == null) {
            throw ProcessorException.lazyIterator(function, key, batch.id,
                    new NullPointerException(function + " returned null; return scala.collection.Iterator.empty()"));
        }
        List<Object> emitted = null;
        if (retryCheck || callLog != null) {
            emitted = new ArrayList<>();
            batch.calls.add(new RetryCheck.Call(function, key, emitted));
        }
        while (true) {
            O next;
            try {
                if (!out.hasNext()) {
                    return;
                }
                next = out.next();
            } catch (Exception e) {
                throw ProcessorException.lazyIterator(function, key, batch.id, e);
            }
            O delivered = next;
            if (fidelity == Fidelity.FULL && (!outputCodec.immutable() || !outputCodec.acceptsAsIs(next))) {
                delivered = outputCodec.decode(outputCodec.encode(next)); // Spark's encoder, its errors included
            }
            checkEventTime(delivered, batch);
            batch.outputs.add(delivered);
            if (emitted != null) {
                emitted.add(delivered);
            }
        }
    }

    /**
     * The {@code eventTimeColumnName} overload's check ({@code UpdateEventTimeColumnExec}): an output
     * row at or before the batch's late-event watermark fails the query.
     */
    private void checkEventTime(O row, Batch batch) {
        if (outputEventTime == null) {
            return;
        }
        Long micros = outputEventTime.fromObject(row);
        if (micros != null && micros <= batch.lateWatermarkMs * 1000L) {
            throw SparkErrors.emittedRowOlderThanWatermark(batch.lateWatermarkMs, micros);
        }
    }

    /**
     * Spark's {@code withStatefulProcessorErrorHandling} (4.1 on): Spark errors as they are, the
     * user's exceptions wrapped (checked ones thrown without being declared, e.g. by Lombok's
     * {@code @SneakyThrows} or Kotlin, too), {@link Error}s not. Spark 4.0 wraps nothing: see
     * {@link #unwrapped}.
     */
    private <R> R callSync(String function, Object key, long batchId, java.util.function.Supplier<R> call) {
        try {
            return call.get();
        } catch (Exception e) {
            if (groupsWithState || e instanceof SparkThrowable st && st.getCondition() != null) {
                throw e; // the legacy adapter wraps the function's errors as FlatMapGroupsWithStateExec does
            }
            if (!line.wrapsUserFunctionErrors()) {
                throw unwrapped(function, key, batchId, e);
            }
            throw ProcessorException.userFunction(function, key, batchId, e);
        }
    }

    /**
     * Spark 4.0: a task's exception fails the stage with the user's exception as the cause; the
     * driver-side pass runs while the query is planned, which turns a {@code NullPointerException}
     * (such as using a state variable Spark 4.0's driver handle returned as null) into Spark's
     * {@code INTERNAL_ERROR} and lets any other exception through as it is.
     */
    private static RuntimeException unwrapped(String function, Object key, long batchId, Exception e) {
        if (batchId >= 0) {
            return ProcessorException.taskFailure(function, key, batchId, e);
        }
        if (e instanceof NullPointerException) {
            return SparkErrors.planningInternalError(e);
        }
        return Sneaky.raise(e);
    }

    private void run(String function, Object key, long batchId, Runnable call) {
        callSync(function, key, batchId, () -> {
            call.run();
            return null;
        });
    }

    long timersRegistered() {
        return store.timers().size();
    }

    /** A batch's input after parsing: rows by key (arrival order), late rows, maximum event time. */
    private static final class Input<T> {
        Map<Bytes, List<T>> byKey;
        final List<T> dropped = new ArrayList<>();
        long maxEventTimeMs = Long.MIN_VALUE;
    }

    /** Which shuffle partition each grouping key is in (computed once per key and batch). */
    private final class Partitions {
        final int count;
        private final Map<Bytes, Integer> cache;

        Partitions(int count) {
            this.count = count;
            this.cache = count == 1 ? null : new HashMap<>();
        }

        int of(Bytes key) {
            return count == 1 ? 0 : cache.computeIfAbsent(key, k -> keyCodec.partition(k.array(), count));
        }
    }

    /** The metrics of {@code BatchResult.METRIC_NAMES} a flatMapGroupsWithState operator's progress has. */
    static final List<String> GROUPS_WITH_STATE_METRICS =
            List.of("numRemovedStateRows", "numRowsDroppedByWatermark", "numUpdatedStateRows");

    /** Per-batch collections. */
    private final class Batch {
        final long id;
        final Timers timerValues;
        final List<O> outputs = new ArrayList<>();
        final List<FiredTimer<K>> fired = new ArrayList<>();
        /** The number of rows each partition's task emitted, by partition: Spark's collect order cuts outputs so. */
        final List<Integer> outputsPerTask = new ArrayList<>(1);
        final long lateWatermarkMs;
        /** Every handler call with what it emitted, for the retry check. */
        final List<RetryCheck.Call> calls = new ArrayList<>();
        private final List<Metrics> tasks = new ArrayList<>(2);

        /** A new task's counters, summed into the batch's at the end. */
        Metrics metricsOfTask() {
            Metrics task = new Metrics();
            tasks.add(task);
            return task;
        }

        Map<String, Long> metrics() {
            Map<String, Long> all = Metrics.sum(tasks, lastMetrics);
            if (!groupsWithState) { // only the metrics a flatMapGroupsWithState operator reports
                return all;
            }
            Map<String, Long> legacy = new java.util.TreeMap<>();
            for (String name : GROUPS_WITH_STATE_METRICS) {
                legacy.put(name, all.get(name));
            }
            return Collections.unmodifiableMap(legacy);
        }

        Batch(long id, Timers timerValues, long lateWatermarkMs) {
            this.id = id;
            this.timerValues = timerValues;
            this.lateWatermarkMs = lateWatermarkMs;
        }
    }

    /** {@code TimerValues}: the batch timestamp and the eviction watermark, in every time mode. */
    record Timers(long processingTimeMs, long watermarkMs) implements TimerValues {
        @Override
        public long getCurrentProcessingTimeInMs() {
            return processingTimeMs;
        }

        @Override
        public long getCurrentWatermarkInMs() {
            return watermarkMs;
        }
    }
}
