package dev.twstester.junit.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.twstester.BatchResult;

/**
 * Internal, not API: may change in any release.
 *
 * <p>The output rows of a recorded simulator: the queue {@code TestSimulator.output()} reads, and
 * which rows strict mode counts as unread (neither consumed from the queue nor asserted through
 * {@code TwsAssertions}). A batch's rows stay until they are consumed, asserted or not; nothing
 * else is kept, so with {@code keepHistory = false} memory grows only with rows never read.
 *
 * @param <O> output row type
 */
final class Outputs<O> {
    /** One batch's output rows and how many of them the queue gave out. */
    private static final class Emitted<O> {
        final long batchId;
        final List<O> rows;
        final List<Object> batches;
        int consumed;
        boolean asserted;

        Emitted(long batchId, List<O> rows, List<Object> batches) {
            this.batchId = batchId;
            this.rows = rows;
            this.batches = batches;
        }
    }

    private final ArrayDeque<Emitted<O>> queue = new ArrayDeque<>();
    /** By the batch object and, for several operators, the last operator's view of it: what an assertion holds. */
    private final Map<Object, Emitted<O>> byBatch = new IdentityHashMap<>();
    private long emitted;

    /** A committed batch's rows join the queue. */
    void add(BatchResult<?, ?, O> batch) {
        emitted += batch.outputs().size();
        if (batch.outputs().isEmpty()) {
            return;
        }
        List<BatchResult<?, ?, ?>> views = batch.operators();
        List<Object> keys = List.of(batch, views.get(views.size() - 1));
        Emitted<O> e = new Emitted<>(batch.batchId(), batch.outputs(), keys);
        queue.addLast(e);
        keys.forEach(k -> byBatch.put(k, e));
    }

    /** Every row emitted so far. */
    long emitted() {
        return emitted;
    }

    /** The rows not yet consumed, in order. */
    List<O> unconsumed() {
        List<O> out = new ArrayList<>();
        queue.forEach(e -> out.addAll(e.rows.subList(e.consumed, e.rows.size())));
        return out;
    }

    /** Consumes the first {@code n} unconsumed rows. */
    void consume(int n) {
        int left = n;
        while (left > 0 && !queue.isEmpty()) {
            Emitted<O> head = queue.peekFirst();
            int take = Math.min(left, head.rows.size() - head.consumed);
            head.consumed += take;
            left -= take;
            if (head.consumed == head.rows.size()) {
                queue.pollFirst();
                head.batches.forEach(byBatch::remove);
            }
        }
    }

    /** Marks the rows of {@code batches} read, those of this simulator's batches that are still kept. */
    void markAsserted(Collection<? extends BatchResult<?, ?, ?>> batches) {
        for (BatchResult<?, ?, ?> b : batches) {
            Emitted<O> e = byBatch.get(b);
            if (e != null) {
                e.asserted = true;
            }
        }
    }

    /** The rows neither consumed nor asserted, by batch id. */
    Map<Long, List<O>> unread() {
        Map<Long, List<O>> out = new LinkedHashMap<>();
        for (Emitted<O> e : queue) {
            if (!e.asserted && e.consumed < e.rows.size()) {
                out.computeIfAbsent(e.batchId, id -> new ArrayList<>()).addAll(e.rows.subList(e.consumed, e.rows.size()));
            }
        }
        return out;
    }
}
