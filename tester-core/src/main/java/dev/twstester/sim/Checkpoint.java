package dev.twstester.sim;

import java.time.Instant;
import java.util.List;

/**
 * The query-level part of a checkpoint, as Spark's {@code MicroBatchExecution} keeps it: an offset
 * log of planned batches, a commit log, and where the query stands between batches (the clock,
 * both watermarks, the next batch id). Each operator's state, by version, is its
 * {@link OperatorStore}'s: a batch's changes stay pending until the batch is committed.
 *
 * <p>Spark writes a batch to the offset log before it runs (its id, its rows' offsets, its
 * timestamp and watermarks) and to the commit log once every operator has committed. A batch in
 * the offset log without a commit is one a restart runs again: a batch that failed stays there
 * ({@link #uncommitted()}), and every later start runs it first. Like Spark's logs, only the newest
 * entries are kept: a restart reads nothing older.
 */
final class Checkpoint {
    /** The processing-time clock: the next batch's timestamp. */
    private long processingTimeMs;
    /** The global watermark after the last batch: the next batch's eviction watermark. */
    private long watermarkMs;
    /** The eviction watermark the last batch ran with: the next batch's late-event watermark. */
    private long lastBatchWatermarkMs;
    private long nextBatchId;
    /** Whether a batch ran since the query's run started: no no-data batch follows a start. */
    private boolean batchRanInThisRun;
    /** The offset log's newest entry; null before the first batch. */
    private PlannedBatch planned;
    /** The commit log's newest entry: the id of the last committed batch, -1 for none. */
    private long lastCommitted = -1;

    /**
     * One offset-log entry: a batch as planned before it runs.
     *
     * @param id                  the batch id
     * @param hadInput            a data batch (true) or a no-data batch
     * @param rows                the source's rows the batch reads
     * @param timestampMs         the batch timestamp
     * @param lateWatermarkMs     the watermark late rows are filtered with (the previous batch's)
     * @param evictionWatermarkMs the watermark timers fire and state is evicted with
     */
    record PlannedBatch(long id, boolean hadInput, List<?> rows, long timestampMs, long lateWatermarkMs,
            long evictionWatermarkMs) {}

    long processingTimeMs() {
        return processingTimeMs;
    }

    long watermarkMs() {
        return watermarkMs;
    }

    long lastBatchWatermarkMs() {
        return lastBatchWatermarkMs;
    }

    long nextBatchId() {
        return nextBatchId;
    }

    /** The offset log's newest entry, or null. */
    PlannedBatch planned() {
        return planned;
    }

    /** Whether the offset log's newest entry is committed (also true when nothing was planned). */
    boolean plannedIsCommitted() {
        return planned == null || planned.id() == lastCommitted;
    }

    /** Moves the clock (never backwards; the caller checks). */
    void clock(long ms) {
        processingTimeMs = ms;
    }

    /** Forces the watermark forward, as if input had moved it; never backwards. */
    void forceWatermark(Instant watermark) {
        watermarkMs = notBefore(watermark, watermarkMs, "advanceWatermarkTo(", ") is before the current watermark ",
                "watermarks never move backwards");
    }

    /** {@code time} in epoch ms, checked not to be before the clock. */
    long checkClockMove(Instant time) {
        return notBefore(time, processingTimeMs, "processing time ", " is before the current processing time ",
                "processing time never moves backwards");
    }

    /**
     * {@code time} in epoch ms, or the error {@code before + time + after + current + "; " + rule}
     * when it is before {@code currentMs} (the message is only built then: formatting instants is
     * not free).
     */
    private static long notBefore(Instant time, long currentMs, String before, String after, String rule) {
        long ms = time.toEpochMilli();
        if (ms < currentMs) {
            throw new IllegalArgumentException(before + time + after + Instant.ofEpochMilli(currentMs) + "; " + rule);
        }
        return ms;
    }

    /** Writes the next batch to the offset log: its id, rows, timestamp and watermarks. */
    PlannedBatch plan(List<?> rows, boolean hadInput) {
        planned = new PlannedBatch(nextBatchId, hadInput, rows, processingTimeMs, lastBatchWatermarkMs, watermarkMs);
        return planned;
    }

    /**
     * Writes {@code batch} to the commit log and moves on: the watermark advances to the batch's
     * maximum event time minus {@code delayMs} (never backwards), the batch's eviction watermark
     * becomes the next one's late-event watermark, and the next batch gets the next id.
     */
    void commit(PlannedBatch batch, long maxEventTimeMs, long delayMs) {
        if (maxEventTimeMs != Long.MIN_VALUE) {
            watermarkMs = Math.max(watermarkMs, maxEventTimeMs - delayMs);
        }
        lastBatchWatermarkMs = batch.evictionWatermarkMs();
        lastCommitted = batch.id();
        nextBatchId = batch.id() + 1;
        batchRanInThisRun = true;
    }

    /**
     * The offset log's newest entry when it has no commit: a batch that failed (or was planned by a
     * run that stopped before its commit), which the next start runs again with the same id, rows,
     * timestamp and watermarks; null when every planned batch is committed.
     */
    PlannedBatch uncommitted() {
        return plannedIsCommitted() ? null : planned;
    }

    /** Takes over {@code other}'s uncommitted batch, as a new version started on its checkpoint reads its offset log. */
    void carryUncommitted(Checkpoint other) {
        PlannedBatch pending = other.uncommitted();
        if (pending != null) {
            planned = pending;
        }
    }

    /** A new run of the query starts on this checkpoint: no batch has run in it yet. */
    void newRun() {
        batchRanInThisRun = false;
    }

    boolean batchRanInThisRun() {
        return batchRanInThisRun;
    }

    /** Whether the watermark moved past the last batch's eviction watermark (a no-data batch may follow). */
    boolean watermarkAdvanced() {
        return watermarkMs > lastBatchWatermarkMs;
    }

    /** Where a restored checkpoint stood; the logs restart from there. */
    void position(long processingTimeMs, long lastBatchWatermarkMs, long watermarkMs, long nextBatchId) {
        this.processingTimeMs = processingTimeMs;
        this.lastBatchWatermarkMs = lastBatchWatermarkMs;
        this.watermarkMs = watermarkMs;
        this.nextBatchId = nextBatchId;
        this.planned = null;
        this.lastCommitted = nextBatchId - 1;
    }
}
