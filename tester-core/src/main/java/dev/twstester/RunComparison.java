package dev.twstester;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.twstester.RunDifference.Aspect;

/**
 * Compares two runs of the same query batch by batch, typically the simulator's and live Spark's,
 * and reports where they part. Immutable: every option returns a new comparison.
 *
 * <pre>{@code
 * RunComparison<CartAlert> same = RunComparison.simulatorVsSpark()
 *         .outputKey(CartAlert::getUserId)     // names the key of a differing output row
 *         .ignoreBatchTimestamps(true);        // live Spark's processing time is the wall clock
 * same.assertSame(simulated, live);            // AssertionError with the first difference
 * Optional<RunDifference> first = same.firstDifference(simulated, live);
 * }</pre>
 *
 * <p>Batches are paired by position. In each pair, in this order: batch id, data or no-data batch,
 * input row count, late watermark, eviction watermark, batch timestamp (unless ignored), dropped
 * late rows (as a multiset), outputs, fired timers. Outputs and fired timers are compared in exact
 * order when {@link #ordered(boolean) ordered} (the default) and as multisets otherwise. After the
 * pairs comes the batch count, then the failed batches ({@link RunResult#failures()}: each one's id,
 * kind, row count, timestamp unless ignored, error class and root cause's message). Rows are compared with {@code equals}; row positions in messages
 * count from 0.
 *
 * <p>Ordered outputs of two batches that both {@link BatchResult#knowsOutputPartitions() know their
 * partitions} (the simulator's and the live runner's always do) are compared partition by
 * partition: each partition's rows in the order its task emitted them (a row emitted by another
 * partition is a difference too; the row position in the message is the row's within its
 * partition). Spark fixes the order of rows within a partition; how the partitions' rows
 * interleave is up to the sink: {@code MemorySink} and {@code Dataset.collect()} concatenate them
 * by partition id (the simulator and the live runner give that order), while a sink that writes
 * from each task (files, Kafka, {@code foreach}) receives them as the tasks run, in parallel. So two batches whose
 * partitions hold the same rows in the same order are the same even if their {@code outputs()}
 * interleave the partitions differently; for results in collect order (both engines) that cannot
 * happen, and comparing partition by partition finds exactly what comparing the whole lists
 * would, while naming the partition. When every row of both batches is in partition 0 the message
 * does not mention partitions. When a side does not know its partitions (a result read from JSON
 * written without them) the whole lists are compared in order.
 *
 * <p>A message names the batch, the key when known, and shows both sides:
 * <pre>
 * batch 4 (data batch), key ana: outputs differ at row 2
 *   simulator: [bob:1, ana:1, &gt;&gt;ana:2&lt;&lt;]
 *   spark:     [bob:1, ana:1, &gt;&gt;ana:3&lt;&lt;]
 * </pre>
 * and with several shuffle partitions, for the first partition whose rows differ:
 * <pre>
 * batch 4 (data batch), key cy: outputs of partition 1 differ at row 1; simulator has 2, spark 1
 *   simulator: [bo:1, &gt;&gt;cy:1&lt;&lt;]
 *   spark:     [bo:1, &gt;&gt;(none)&lt;&lt;]
 *   cy:1 is in spark's partition 0
 * </pre>
 *
 * @param <O> output row type, fixed by {@link #outputKey}
 */
public final class RunComparison<O> {
    private final String leftName;
    private final String rightName;
    private final boolean ordered;
    private final boolean ignoreBatchTimestamps;
    private final Function<? super O, ?> outputKey;
    private final Set<Aspect> ignored;

    private RunComparison(String leftName, String rightName, boolean ordered, boolean ignoreBatchTimestamps,
            Function<? super O, ?> outputKey, Set<Aspect> ignored) {
        this.leftName = leftName;
        this.rightName = rightName;
        this.ordered = ordered;
        this.ignoreBatchTimestamps = ignoreBatchTimestamps;
        this.outputKey = outputKey;
        this.ignored = ignored;
    }

    /** Compares a run called {@code leftName} with one called {@code rightName}: ordered, timestamps compared. */
    public static RunComparison<Object> between(String leftName, String rightName) {
        Objects.requireNonNull(leftName, "leftName must not be null");
        Objects.requireNonNull(rightName, "rightName must not be null");
        if (leftName.equals(rightName)) {
            throw new IllegalArgumentException("both sides are called \"" + leftName + "\"; give them different names");
        }
        return new RunComparison<>(leftName, rightName, true, false, null, Set.of());
    }

    /** {@code between("simulator", "spark")}: the simulator's run on the left, live Spark's on the right. */
    public static RunComparison<Object> simulatorVsSpark() {
        return between("simulator", "spark");
    }

    /**
     * True (the default) to compare outputs and fired timers in exact order (outputs partition by
     * partition when both sides know their partitions); false to compare each batch's outputs and
     * fired timers as multisets, whatever their order and partitions.
     */
    public RunComparison<O> ordered(boolean ordered) {
        return new RunComparison<>(leftName, rightName, ordered, ignoreBatchTimestamps, outputKey, ignored);
    }

    /** True to skip batch timestamps (processing times), which differ when a side runs on a wall clock. */
    public RunComparison<O> ignoreBatchTimestamps(boolean ignore) {
        return new RunComparison<>(leftName, rightName, ordered, ignore, outputKey, ignored);
    }

    /**
     * The grouping key of an output row, shown in messages and {@link RunDifference#key()}. With a
     * lambda, name the type: {@code .<CartAlert>outputKey(a -> a.getUserId())}.
     */
    public <P> RunComparison<P> outputKey(Function<? super P, ?> outputKey) {
        Objects.requireNonNull(outputKey, "outputKey must not be null");
        return new RunComparison<>(leftName, rightName, ordered, ignoreBatchTimestamps, outputKey, ignored);
    }

    /**
     * Leaves {@code aspects} out of the comparison, e.g. fired timers and metrics when comparing a
     * query with a port of it that keeps its state in other variables:
     * {@code RunComparison.between("old", "new").ignoring(Aspect.FIRED_TIMERS, Aspect.METRICS)}.
     * Applies to the end states too ({@link #stateDifferences}, {@link #assertSameState}): ignoring
     * {@link Aspect#STATE} or {@link Aspect#TIMERS} leaves out the state variables' data or the
     * registered timers there, and {@link Aspect#BATCH_ID}, {@link Aspect#EVICTION_WATERMARK} and
     * {@link Aspect#LATE_WATERMARK} are left out of both the batches and the end states.
     * Replaces the aspects ignored before; {@link Aspect#BATCH_TIMESTAMP} is also left out by
     * {@link #ignoreBatchTimestamps(boolean)}.
     */
    public RunComparison<O> ignoring(Aspect... aspects) {
        Set<Aspect> set = aspects.length == 0 ? Set.of() : Set.copyOf(EnumSet.copyOf(List.of(aspects)));
        return new RunComparison<>(leftName, rightName, ordered, ignoreBatchTimestamps, outputKey, set);
    }

    /** The first difference, in the order the class comment gives, or empty when the runs are the same. */
    public Optional<RunDifference> firstDifference(RunResult<?, ?, ? extends O> left,
            RunResult<?, ?, ? extends O> right) {
        List<RunDifference> found = compare(left, right, 1);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    /** Every difference: at most one per aspect and batch, then the batch count. */
    public List<RunDifference> differences(RunResult<?, ?, ? extends O> left, RunResult<?, ?, ? extends O> right) {
        return compare(left, right, Integer.MAX_VALUE);
    }

    /**
     * Throws an {@link AssertionError} whose message is the first difference's (plus how many more
     * there are) unless the runs are the same.
     */
    public void assertSame(RunResult<?, ?, ? extends O> left, RunResult<?, ?, ? extends O> right) {
        List<RunDifference> found = differences(left, right);
        if (!found.isEmpty()) {
            int more = found.size() - 1;
            String rest = more == 0 ? ""
                    : "\n(" + more + " more difference" + (more == 1 ? "" : "s") + "; differences(...) lists them all)";
            throw new AssertionError(found.get(0).message() + rest);
        }
    }

    /**
     * Every difference between two end states of the query (the simulator's
     * {@code TwsSimulator#snapshot()} and a live run's checkpoint read by
     * {@code dev.twstester.spark.CheckpointState}, say), key by key: the next batch id
     * ({@link Aspect#BATCH_ID}), the next batch's watermark ({@link Aspect#EVICTION_WATERMARK}) and
     * late-row watermark ({@link Aspect#LATE_WATERMARK}), then each state variable's data per
     * grouping key ({@link Aspect#STATE}: values compared as Spark's encoded bytes, with their TTL
     * expirations), then each key's registered timers ({@link Aspect#TIMERS}). A difference's
     * {@link RunDifference#key()} is the grouping key, its left and right the two sides' data as
     * text, and its batch id the left side's last batch. Aspects given to {@link #ignoring} are left
     * out, e.g. {@code ignoring(Aspect.TIMERS)} for two versions that keep their timers differently:
     * <pre>
     * end state after batch 5, key ana: state variable 'items' differs
     *   simulator: [boots, socks]
     *   spark:     [boots]
     * </pre>
     */
    public List<RunDifference> stateDifferences(EndState left, EndState right) {
        Objects.requireNonNull(left, "left must not be null");
        Objects.requireNonNull(right, "right must not be null");
        List<RunDifference> found = new ArrayList<>();
        long batch = left.nextBatchId() - 1;
        for (StateDifference d : left.differencesTo(right)) {
            if (ignored.contains(d.aspect())) {
                continue;
            }
            String where = "end state after batch " + batch + (d.operator() == 0 ? "" : ", operator " + d.operator())
                    + (d.key() == null ? "" : ", key " + d.key()) + ": ";
            String what = switch (d.aspect()) {
                case BATCH_ID -> "next batch id differs";
                case EVICTION_WATERMARK -> "watermark (the next batch's eviction watermark) differs";
                case LATE_WATERMARK -> "the last batch's watermark (the next batch's late-row filter) differs";
                case STATE -> "state variable '" + d.variable() + "' differs";
                default -> "registered timers differ";
            };
            found.add(new RunDifference(batch, d.aspect(), d.key(), d.left(), d.right(), where + what
                    + sides(d.left(), d.right())));
        }
        return List.copyOf(found);
    }

    /**
     * Throws an {@link AssertionError} with the first of {@link #stateDifferences} (plus how many
     * more there are) unless the two end states are the same in every aspect not {@link #ignoring ignored}.
     */
    public void assertSameState(EndState left, EndState right) {
        List<RunDifference> found = stateDifferences(left, right);
        if (!found.isEmpty()) {
            int more = found.size() - 1;
            throw new AssertionError(found.get(0).message() + (more == 0 ? ""
                    : "\n(" + more + " more difference" + (more == 1 ? "" : "s") + "; stateDifferences(...) lists them all)"));
        }
    }

    private List<RunDifference> compare(RunResult<?, ?, ? extends O> left, RunResult<?, ?, ? extends O> right,
            int limit) {
        Objects.requireNonNull(left, "left must not be null");
        Objects.requireNonNull(right, "right must not be null");
        List<RunDifference> found = new ArrayList<>();
        int common = Math.min(left.batches().size(), right.batches().size());
        for (int i = 0; i < common && found.size() < limit; i++) {
            new Pair(left.batches().get(i), right.batches().get(i), i, found).compare();
            found.removeIf(d -> ignored.contains(d.aspect()));
        }
        if (found.size() < limit && left.batches().size() != right.batches().size()
                && !ignored.contains(Aspect.BATCH_COUNT)) {
            found.add(batchCount(left, right, common));
        }
        if (found.size() < limit && !ignored.contains(Aspect.FAILED_BATCHES)
                && !comparable(left.failures()).equals(comparable(right.failures()))) {
            long id = (left.failures().isEmpty() ? right : left).failures().get(0).batchId();
            found.add(new RunDifference(id, Aspect.FAILED_BATCHES, null, left.failures(), right.failures(),
                    "failed batches differ\n  " + leftName + ": " + left.failures() + "\n  " + rightName + ": "
                    + right.failures()));
        }
        return List.copyOf(found.size() > limit ? found.subList(0, limit) : found);
    }

    /** {@code failures} as compared: without timestamps when they are ignored. */
    private List<FailedBatch> comparable(List<FailedBatch> failures) {
        return !ignoreBatchTimestamps ? failures : failures.stream().map(f -> new FailedBatch(f.batchId(), f.hadInput(),
                f.rows(), java.time.Instant.EPOCH, f.lateWatermark(), f.evictionWatermark(), f.errorClass(), f.rootMessage()))
                .toList();
    }

    private RunDifference batchCount(RunResult<?, ?, ?> left, RunResult<?, ?, ?> right, int common) {
        boolean leftLonger = left.batches().size() > right.batches().size();
        List<? extends BatchResult<?, ?, ?>> extra = (leftLonger ? left : right).batches();
        StringBuilder text = new StringBuilder("batch count differs: " + leftName + " ran " + count(left) + ", "
                + rightName + " ran " + count(right));
        for (BatchResult<?, ?, ?> b : extra.subList(common, extra.size())) {
            text.append("\n  only in ").append(leftLonger ? leftName : rightName).append(": ").append(b.summary());
        }
        return new RunDifference(extra.get(common).batchId(), Aspect.BATCH_COUNT, null,
                left.batches().size(), right.batches().size(), text.toString());
    }

    private static String count(RunResult<?, ?, ?> run) {
        return run.batches().size() + (run.batches().size() == 1 ? " batch" : " batches");
    }

    /** The two batches at one position, and the differences found so far. */
    private final class Pair {
        private final BatchResult<?, ?, ? extends O> l;
        private final BatchResult<?, ?, ? extends O> r;
        private final int position;
        private final List<RunDifference> found;

        Pair(BatchResult<?, ?, ? extends O> l, BatchResult<?, ?, ? extends O> r, int position,
                List<RunDifference> found) {
            this.l = l;
            this.r = r;
            this.position = position;
            this.found = found;
        }

        void compare() {
            scalar(Aspect.BATCH_ID, l.batchId(), r.batchId(), " (position " + position + " in both runs)");
            if (l.hadInput() != r.hadInput()) {
                add(Aspect.HAD_INPUT, null, l.hadInput(), r.hadInput(), header("") + "data or no-data batch differs"
                        + sides(kind(l.hadInput()), kind(r.hadInput())));
            }
            if (l.input().size() != r.input().size()) {
                add(Aspect.INPUT_ROW_COUNT, null, l.input().size(), r.input().size(), header("")
                        + "input row count differs" + sides(rows(l.input()), rows(r.input())));
            }
            scalar(Aspect.LATE_WATERMARK, l.lateWatermark(), r.lateWatermark(), "");
            scalar(Aspect.EVICTION_WATERMARK, l.evictionWatermark(), r.evictionWatermark(), "");
            if (!ignoreBatchTimestamps) {
                scalar(Aspect.BATCH_TIMESTAMP, l.batchTimestamp(), r.batchTimestamp(),
                        "\n  (ignoreBatchTimestamps(true) skips them when a side runs on a wall clock)");
            }
            multiset(Aspect.DROPPED_LATE, l.droppedLate(), r.droppedLate(), x -> null);
            if (ordered && l.knowsOutputPartitions() && r.knowsOutputPartitions()
                    && !(inPartitionZero(l.outputPartitions()) && inPartitionZero(r.outputPartitions()))) {
                byPartition();
            } else {
                rowsOrMultiset(Aspect.OUTPUTS, l.outputs(), r.outputs(), this::keyOfOutput);
            }
            rowsOrMultiset(Aspect.FIRED_TIMERS, l.firedTimers(), r.firedTimers(), t -> ((FiredTimer<?>) t).key());
            metrics();
        }

        /** Each partition's output rows in order, the first partition that differs reported. */
        private void byPartition() {
            SortedMap<Integer, ? extends List<?>> left = l.outputsByPartition();
            SortedMap<Integer, ? extends List<?>> right = r.outputsByPartition();
            SortedSet<Integer> partitions = new TreeSet<>(left.keySet());
            partitions.addAll(right.keySet());
            for (int p : partitions) {
                List<?> a = left.containsKey(p) ? left.get(p) : List.of();
                List<?> b = right.containsKey(p) ? right.get(p) : List.of();
                int at = firstMismatch(a, b);
                if (at < 0) {
                    continue;
                }
                Object k = keyOfOutput(at < a.size() ? a.get(at) : b.get(at));
                String text = header(k == null ? "" : ", key " + k) + "outputs of partition " + p + " differ at row "
                        + at + (a.size() == b.size() ? "" : "; " + leftName + " has " + a.size() + ", " + rightName
                        + " " + b.size())
                        + sides(marked(a, at), marked(b, at));
                if (a.size() == b.size() && onlyIn(a, b).isEmpty()) {
                    text += "\n  the same rows in another order; ordered(false) compares them as multisets";
                } else {
                    text += elsewhere(a, at, b, right, rightName, p) + elsewhere(b, at, a, left, leftName, p);
                }
                add(Aspect.OUTPUTS, k, a, b, text);
                return;
            }
        }

        /** Where the other side has the row at {@code at} of {@code rows} when not in this partition. */
        private String elsewhere(List<?> rows, int at, List<?> otherRows, SortedMap<Integer, ? extends List<?>> other,
                String otherName, int partition) {
            if (at >= rows.size() || otherRows.contains(rows.get(at))) {
                return "";
            }
            for (Map.Entry<Integer, ? extends List<?>> e : other.entrySet()) {
                if (e.getKey() != partition && e.getValue().contains(rows.get(at))) {
                    return "\n  " + rows.get(at) + " is in " + otherName + "'s partition " + e.getKey();
                }
            }
            return "";
        }

        /** The metrics both sides measured (a side without metrics is not compared). */
        private void metrics() {
            for (String name : BatchResult.METRIC_NAMES) {
                Long left = l.metrics().get(name);
                Long right = r.metrics().get(name);
                if (left != null && right != null && !left.equals(right)) {
                    add(Aspect.METRICS, null, left, right, header("") + "metric " + name + " differs"
                            + sides(String.valueOf(left), String.valueOf(right)));
                    return;
                }
            }
        }

        private Object keyOfOutput(Object row) {
            if (outputKey == null) {
                return null;
            }
            @SuppressWarnings("unchecked")
            O output = (O) row;
            return outputKey.apply(output);
        }

        private void scalar(Aspect aspect, Object left, Object right, String note) {
            if (!Objects.equals(left, right)) {
                add(aspect, null, left, right, header("") + aspect.label() + " differs" + note
                        + sides(String.valueOf(left), String.valueOf(right)));
            }
        }

        private void rowsOrMultiset(Aspect aspect, List<?> left, List<?> right, Function<Object, Object> key) {
            if (!ordered) {
                multiset(aspect, left, right, key);
                return;
            }
            int at = firstMismatch(left, right);
            if (at < 0) {
                return;
            }
            Object k = key.apply(at < left.size() ? left.get(at) : right.get(at));
            String unit = aspect == Aspect.OUTPUTS ? "row" : "timer";
            String text = header(k == null ? "" : ", key " + k) + aspect.label() + " differ at " + unit + " " + at
                    + (left.size() == right.size() ? "" : "; " + leftName + " has " + left.size() + ", "
                    + rightName + " " + right.size())
                    + sides(marked(left, at), marked(right, at));
            if (left.size() == right.size() && onlyIn(left, right).isEmpty()) {
                text += "\n  the same " + unit + "s in another order; ordered(false) compares them as multisets";
            }
            add(aspect, k, left, right, text);
        }

        private void multiset(Aspect aspect, List<?> left, List<?> right, Function<Object, Object> key) {
            List<Object> onlyLeft = onlyIn(left, right);
            List<Object> onlyRight = onlyIn(right, left);
            if (onlyLeft.isEmpty() && onlyRight.isEmpty()) {
                return;
            }
            Set<Object> keys = new LinkedHashSet<>();
            onlyLeft.forEach(x -> keys.add(key.apply(x)));
            onlyRight.forEach(x -> keys.add(key.apply(x)));
            keys.remove(null);
            String keyText = keys.isEmpty() ? "" : (keys.size() == 1 ? ", key " : ", keys ")
                    + keys.stream().map(String::valueOf).collect(Collectors.joining(", "));
            int width = Math.max(leftName.length(), rightName.length()) + "only in :".length();
            add(aspect, keys.isEmpty() ? null : keys.iterator().next(), left, right,
                    header(keyText) + aspect.label() + " differ (compared as multisets)"
                    + sides(left.toString(), right.toString())
                    + "\n  " + pad("only in " + leftName + ":", width) + " " + onlyLeft
                    + "\n  " + pad("only in " + rightName + ":", width) + " " + onlyRight);
        }

        private void add(Aspect aspect, Object key, Object left, Object right, String message) {
            found.add(new RunDifference(l.batchId(), aspect, key, left, right, message));
        }

        private String header(String keyPart) {
            String kind = l.hadInput() == r.hadInput() ? " (" + kind(l.hadInput()) + ")" : "";
            return "batch " + l.batchId() + kind + keyPart + ": ";
        }
    }

    private String sides(String left, String right) {
        int width = Math.max(leftName.length(), rightName.length()) + 1;
        return "\n  " + pad(leftName + ":", width) + " " + left + "\n  " + pad(rightName + ":", width) + " " + right;
    }

    private static String kind(boolean hadInput) {
        return hadInput ? "data batch" : "no-data batch";
    }

    private static String rows(List<?> rows) {
        return rows.size() + (rows.size() == 1 ? " row " : " rows ") + rows;
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    private static boolean inPartitionZero(List<Integer> partitions) {
        for (int p : partitions) {
            if (p != 0) {
                return false;
            }
        }
        return true;
    }

    private static int firstMismatch(List<?> left, List<?> right) {
        int common = Math.min(left.size(), right.size());
        for (int i = 0; i < common; i++) {
            if (!Objects.equals(left.get(i), right.get(i))) {
                return i;
            }
        }
        return left.size() == right.size() ? -1 : common;
    }

    /** The list with the element at {@code at} (or its absence) marked {@code >>...<<}. */
    private static String marked(List<?> rows, int at) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            parts.add(i == at ? ">>" + rows.get(i) + "<<" : String.valueOf(rows.get(i)));
        }
        if (at >= rows.size()) {
            parts.add(">>(none)<<");
        }
        return "[" + String.join(", ", parts) + "]";
    }

    /** The elements of {@code a} not matched one-to-one by an equal element of {@code b}; needs only equals. */
    private static List<Object> onlyIn(List<?> a, List<?> b) {
        List<Object> unmatched = new ArrayList<>(b);
        List<Object> out = new ArrayList<>();
        for (Object x : a) {
            if (!unmatched.remove(x)) {
                out.add(x);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "RunComparison[" + leftName + " vs " + rightName + (ordered ? ", ordered" : ", as multisets")
                + (ignoreBatchTimestamps ? ", ignoring batch timestamps" : "")
                + (ignored.isEmpty() ? "" : ", ignoring " + new TreeSet<>(ignored)) + "]";
    }
}
