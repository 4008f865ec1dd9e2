package dev.twstester.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import org.apache.spark.sql.types.StructField;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.FiredTimer;
import dev.twstester.TwsQuery;
import dev.twstester.internal.RowCodec;
import dev.twstester.io.JsonRows;
import dev.twstester.property.CoverageTable;
import dev.twstester.sim.SimulatorListener;
import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * A self-contained HTML page (inline SVG, CSS and a little JavaScript; no external resource) that
 * shows a simulator's run as a timeline: batches along the x axis, the late-event and eviction
 * watermarks and the processing time as lines, one lane per key with its timers (registered ○,
 * fired ●, deleted ×) and state sizes after each batch, each batch's outputs and rows dropped as
 * late; hovering a batch shows its rows.
 *
 * <pre>{@code
 * TimelinePage<String, CartEvent, CartAlert> page = TimelinePage.of(CartWatch.query(), "cart story");
 * TwsSimulator<String, CartEvent, CartAlert> sim = TwsSimulator.builder(CartWatch.query())
 *         .listener(page)                   // every batch the simulator commits is drawn
 *         .build();
 * sim.runBatch(rows);
 * page.write(Path.of("target/cart.html"));
 * }</pre>
 *
 * As a {@link SimulatorListener} the page reads each lane's state and timers from the simulator
 * right after each batch. For a query of several operators the lanes are the first operator's
 * keys, and the outputs are the query's.
 *
 * The page is bounded: the last {@value #MAX_BATCHES} batches, {@value #MAX_KEYS} key lanes (the
 * first keys seen) and {@value #MAX_ROWS} rows per list of a batch; the page says what it left out.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
public final class TimelinePage<K, I, O> implements SimulatorListener<K, I, O> {
    /** Batch columns kept: the last ones. */
    public static final int MAX_BATCHES = 400;
    /** Key lanes: the first keys seen (input rows, fired timers, state). */
    public static final int MAX_KEYS = 30;
    /** Rows shown per list (input, dropped, outputs, fired timers) of one batch. */
    public static final int MAX_ROWS = 20;
    /** Input rows per batch whose keys are counted per lane. */
    static final int MAX_KEYED_ROWS = 100_000;

    /**
     * The state of one key after a batch, for {@link #stateAfter}.
     *
     * @param timers the key's registered timers
     * @param sizes  per state variable that holds something: its size (1 for value state, the
     *               number of elements or entries for list and map state)
     */
    public record KeyState(List<Instant> timers, Map<String, Integer> sizes) {
        /** Copies both (the sizes in their given order). */
        public KeyState {
            timers = List.copyOf(timers);
            sizes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sizes));
        }
    }

    final TwsQuery<K, I, O> query;
    private final RowCodec<K> keyCodec;
    private final RowCodec<I> inputCodec;
    private final RowCodec<O> outputCodec;
    String title;
    final List<String> notes = new ArrayList<>();
    /** The coverage table shown under the notes (a property run's), or null. */
    CoverageTable coverage;
    final ArrayDeque<Column> columns = new ArrayDeque<>();
    int batchesLeftOut;
    /** Lanes by encoded key, in the order first seen (drawn in Spark's key order). */
    private final Map<Key, Lane> lanes = new LinkedHashMap<>();
    /** Keys seen that got no lane (counted up to a bound). */
    final Set<Key> keysLeftOut = new LinkedHashSet<>();
    boolean keysLeftOutCapped;
    /** Whether some batch had more rows than {@link #MAX_KEYED_ROWS}. */
    boolean keyedRowsCapped;

    private TimelinePage(TwsQuery<K, I, O> query, String title) {
        this.query = Objects.requireNonNull(query, "query must not be null");
        this.title = Objects.requireNonNull(title, "title must not be null");
        this.keyCodec = RowCodec.of(query.keyEncoder());
        this.inputCodec = RowCodec.of(query.inputEncoder());
        this.outputCodec = RowCodec.of(query.outputEncoder());
    }

    /**
     * An empty page for {@code query}: filled by a simulator it listens to, or with {@link #add}
     * and {@link #stateAfter} (a recorded run whose state is known at some points only).
     */
    public static <K, I, O> TimelinePage<K, I, O> of(TwsQuery<K, I, O> query, String title) {
        return new TimelinePage<>(query, title);
    }

    /** A line of text under the title (what was run, what the page leaves out). */
    public TimelinePage<K, I, O> note(String text) {
        notes.add(Objects.requireNonNull(text, "text must not be null"));
        return this;
    }

    /**
     * Shows a property run's coverage table under the title: the share of tries that reached each
     * label, e.g. the run of which this page draws the shrunk failing try.
     *
     * <pre>{@code
     * TimelinePage<String, LoginAttempt, LockoutEvent> page = property.timeline(result);  // already carries it
     * TimelinePage.of(query, "try 17").coverage(result.coverage()).write(Path.of("target/try17.html"));
     * }</pre>
     */
    public synchronized TimelinePage<K, I, O> coverage(CoverageTable table) {
        this.coverage = Objects.requireNonNull(table, "table must not be null");
        return this;
    }

    /** Adds a batch column; its lanes show no state until a {@link #stateAfter} for it or a later batch. */
    public synchronized TimelinePage<K, I, O> add(BatchResult<K, I, O> batch) {
        Column c = new Column(batch, this);
        int rows = 0;
        for (I row : batch.input()) {
            if (++rows > MAX_KEYED_ROWS) {
                keyedRowsCapped = true;
                break;
            }
            Lane lane = lane(keyOf(row));
            if (lane != null) {
                c.cell(lane).inputRows++;
            }
        }
        rows = 0;
        for (I row : batch.droppedLate()) {
            if (++rows > MAX_KEYED_ROWS) {
                keyedRowsCapped = true;
                break;
            }
            Lane lane = lane(keyOf(row));
            if (lane != null) {
                c.cell(lane).droppedRows++;
            }
        }
        for (FiredTimer<K> fired : batch.firedTimers()) {
            Lane lane = lane(fired.key());
            if (lane != null) {
                c.cell(lane).fired.add(fired.expiryMs());
                lane.firedSinceSample.add(fired.expiryMs());
            }
        }
        columns.addLast(c);
        if (columns.size() > MAX_BATCHES) {
            columns.removeFirst();
            batchesLeftOut++;
        }
        return this;
    }

    /**
     * The state of every key after the last added batch: keys missing from {@code state} have
     * none. Timers registered and deleted are what differs from the state given before (a timer
     * registered and deleted between two samples does not show).
     */
    public synchronized TimelinePage<K, I, O> stateAfter(Map<K, KeyState> state) {
        if (columns.isEmpty()) {
            throw new IllegalStateException("stateAfter: add a batch first; the state belongs to the last batch added");
        }
        Map<Key, KeyState> byKey = new HashMap<>();
        state.forEach((k, s) -> {
            Key key = key(k);
            byKey.put(key, s);
            lane(k, key);
        });
        sample(byKey);
        return this;
    }

    /** The page as HTML text. */
    public synchronized String html() {
        return TimelineHtml.render(this);
    }

    /** Writes the page to {@code file} (parent folders created) and returns the file. */
    public Path write(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, html(), StandardCharsets.UTF_8);
        return file;
    }

    // ---- recording

    /** Draws {@code batch} with each lane's state and timers as {@code simulator} shows them now. */
    @Override
    public synchronized void batchCommitted(BatchResult<K, I, O> batch, TwsSimulator<K, I, O> simulator) {
        add(batch);
        StateView<K> view = simulator.state();
        // keys with state that had no input or fired timer (initial state), read only while lanes are free
        if (lanes.size() < MAX_KEYS) {
            for (K k : view.keys()) {
                if (lanes.size() >= MAX_KEYS) {
                    break;
                }
                lane(k);
            }
        }
        Map<Key, KeyState> byKey = new HashMap<>();
        for (Lane lane : lanes.values()) {
            @SuppressWarnings("unchecked")
            K k = (K) lane.object;
            byKey.put(lane.key, read(view, k));
        }
        sample(byKey);
    }

    /**
     * Draws the failed batch as a column of its own, marked failed with its error; the batch's run at
     * a later start, when it commits, is marked as a re-run of it.
     */
    @Override
    public synchronized void batchFailed(FailedBatch failed, TwsSimulator<K, I, O> simulator) {
        columns.addLast(new Column(failed));
        if (columns.size() > MAX_BATCHES) {
            columns.removeFirst();
            batchesLeftOut++;
        }
    }

    /** The timers and state sizes of {@code key} as the view shows them now. */
    static <K> KeyState read(StateView<K> view, K key) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        for (String name : view.variableNames()) {
            int size = switch (view.kindOf(name)) {
                case "value" -> view.value(name, key).isPresent() ? 1 : 0;
                case "list" -> view.list(name, key).size();
                default -> view.map(name, key).size();
            };
            if (size > 0) {
                sizes.put(name, size);
            }
        }
        return new KeyState(view.timers(key), sizes);
    }

    private void sample(Map<Key, KeyState> state) {
        Column c = columns.peekLast();
        for (Lane lane : lanes.values()) {
            KeyState now = state.getOrDefault(lane.key, new KeyState(List.of(), Map.of()));
            Set<Long> after = new TreeSet<>();
            now.timers().forEach(t -> after.add(t.toEpochMilli()));
            Cell cell = c.cell(lane);
            for (Long t : after) {   // new, or fired and set again
                if (!lane.timers.contains(t) || lane.firedSinceSample.contains(t)) {
                    cell.registered.add(t);
                }
            }
            for (Long t : lane.firedSinceSample) {   // set and fired between two samples
                if (!lane.timers.contains(t) && !after.contains(t)) {
                    cell.registered.add(t);
                }
            }
            for (Long t : lane.timers) {
                if (!after.contains(t) && !lane.firedSinceSample.contains(t)) {
                    cell.deleted.add(t);
                }
            }
            cell.timers = List.copyOf(after);
            cell.sizes = now.sizes();
            lane.timers = after;
            lane.firedSinceSample.clear();
        }
    }

    private K keyOf(I row) {
        try {
            return query.keyFunction().call(row);
        } catch (Exception e) {
            throw new IllegalStateException("the query's key function threw on " + row + ": " + e, e);
        }
    }

    private Key key(K k) {
        return new Key(keyCodec.encode(k));
    }

    private Lane lane(K k) {
        return lane(k, key(k));
    }

    /** The lane of {@code k}, made when there is room; null when the key has none. */
    private Lane lane(K k, Key key) {
        Lane lane = lanes.get(key);
        if (lane == null) {
            if (lanes.size() >= MAX_KEYS) {
                if (keysLeftOut.size() < 10_000) {
                    keysLeftOut.add(key);
                } else if (!keysLeftOut.contains(key)) {
                    keysLeftOutCapped = true;
                }
                return null;
            }
            lane = new Lane(key, k, keyText(k));
            lanes.put(key, lane);
        }
        return lane;
    }

    /** The lanes in Spark's key order (encoded-byte order). */
    List<Lane> lanes() {
        List<Lane> out = new ArrayList<>(lanes.values());
        out.sort((a, b) -> keyCodec.compareNatural(a.key.bytes, b.key.bytes));
        return out;
    }

    /** A flat key as its value, a struct key as JSON. */
    String keyText(K k) {
        if (keyCodec.isSerializedAsStruct()) {
            return JsonRows.toJson(keyCodec.toExternalRow(k), keyCodec.schema()).toString();
        }
        StructField column = keyCodec.schema().fields()[0];
        Object value = keyCodec.toExternalRow(k).get(0);
        return value instanceof String s ? s
                : JsonRows.valueToJson(value, column.dataType(), column.name()).toString();
    }

    String inputText(I row) {
        return rowText(inputCodec, row);
    }

    String outputText(O row) {
        return rowText(outputCodec, row);
    }

    /** A row as the JSON line Spark's JSON source would read (input files), else its toString. */
    private static <T> String rowText(RowCodec<T> codec, T row) {
        try {
            if (codec.isSerializedAsStruct()) {
                return JsonRows.toJson(codec.toExternalRow(row), codec.schema()).toString();
            }
        } catch (RuntimeException e) {
            // a row the encoder cannot take: its toString below
        }
        return String.valueOf(row);
    }

    // ---- the model the renderer reads

    /** Encoded key bytes with value equality. */
    record Key(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && java.util.Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(bytes);
        }
    }

    /** One key's swimlane. */
    static final class Lane {
        final Key key;
        final Object object;
        final String text;
        /** Timers at the last sample. */
        Set<Long> timers = new TreeSet<>();
        final Set<Long> firedSinceSample = new TreeSet<>();

        Lane(Key key, Object object, String text) {
            this.key = key;
            this.object = object;
            this.text = text;
        }
    }

    /** One lane in one batch column. */
    static final class Cell {
        /** Rows of the key in the batch's input, late ones included. */
        int inputRows;
        /** Of those, the rows dropped as late. */
        int droppedRows;
        final List<Long> fired = new ArrayList<>();
        final Set<Long> registered = new TreeSet<>();
        final Set<Long> deleted = new TreeSet<>();
        /** The timers after the batch; null when the state was not sampled after this batch. */
        List<Long> timers;
        /** The state sizes after the batch; null when not sampled. */
        Map<String, Integer> sizes;
    }

    /** One batch column, with bounded copies of its rows as text. */
    static final class Column {
        final long batchId;
        final boolean hadInput;
        final long lateWm;
        final long evictWm;
        final long timestamp;
        final int inputCount;
        final int droppedCount;
        final int outputCount;
        final int firedCount;
        final List<String> input = new ArrayList<>();
        final List<String> dropped = new ArrayList<>();
        final List<String> outputs = new ArrayList<>();
        final List<String> fired = new ArrayList<>();
        final Map<String, Long> metrics = new LinkedHashMap<>();
        final Map<Lane, Cell> cells = new HashMap<>();
        /** For a batch that failed: its error; else null. */
        final String failure;
        /** Whether this committed batch is the run again of a batch that failed before. */
        final boolean rerun;

        /** A batch that failed: its rows are in the offset log, its outputs and state changes gone. */
        Column(FailedBatch f) {
            batchId = f.batchId();
            hadInput = f.hadInput();
            lateWm = f.lateWatermark().toEpochMilli();
            evictWm = f.evictionWatermark().toEpochMilli();
            timestamp = f.batchTimestamp().toEpochMilli();
            inputCount = f.rows();
            droppedCount = 0;
            outputCount = 0;
            firedCount = 0;
            failure = (f.errorClass() == null ? "" : f.errorClass() + ": ") + f.rootMessage();
            rerun = false;
        }

        <K, I, O> Column(BatchResult<K, I, O> b, TimelinePage<K, I, O> page) {
            failure = null;
            rerun = page.columns.stream().anyMatch(c -> c.batchId == b.batchId() && c.failure != null);
            batchId = b.batchId();
            hadInput = b.hadInput();
            lateWm = b.lateWatermark().toEpochMilli();
            evictWm = b.evictionWatermark().toEpochMilli();
            timestamp = b.batchTimestamp().toEpochMilli();
            inputCount = b.input().size();
            droppedCount = b.droppedLate().size();
            outputCount = b.outputs().size();
            firedCount = b.firedTimers().size();
            first(b.input(), page::inputText, input);
            first(b.droppedLate(), page::inputText, dropped);
            first(b.outputs(), page::outputText, outputs);
            first(b.firedTimers(), t -> page.keyText(t.key()) + " @ " + t.expiry(), fired);
            b.metrics().forEach((name, value) -> {
                if (value != 0) {
                    metrics.put(name, value);
                }
            });
        }

        private static <T> void first(Collection<T> rows, java.util.function.Function<T, String> text, List<String> into) {
            for (T row : rows) {
                if (into.size() == MAX_ROWS) {
                    return;
                }
                into.add(text.apply(row));
            }
        }

        Cell cell(Lane lane) {
            return cells.computeIfAbsent(lane, l -> new Cell());
        }
    }
}
