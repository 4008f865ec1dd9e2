package dev.twstester;

import java.util.Objects;

/**
 * One way two runs of the same query differ, found by {@link RunComparison}: where (batch and,
 * when known, key), what ({@link Aspect}), both sides' values, and a readable {@link #message()}.
 *
 * <pre>{@code
 * RunDifference d = RunComparison.simulatorVsSpark().firstDifference(simulated, live).orElseThrow();
 * d.batchId();   // 4
 * d.aspect();    // Aspect.OUTPUTS
 * d.key();       // "ana", from outputKey(...)
 * d.message();   // batch 4 (data batch), key ana: outputs differ at row 2
 *                //   simulator: [bob:1, ana:1, >>ana:2<<]
 *                //   spark:     [bob:1, ana:1, >>ana:3<<]
 * }</pre>
 *
 * @param batchId the batch where the runs part: the left side's id at that position (the right
 *                side's when only it has a batch there)
 * @param aspect  what differs
 * @param key     the grouping key concerned, or null when not known: a fired timer's key, or the
 *                {@link RunComparison#outputKey outputKey} of the first differing output row
 * @param left    the left side's value: a {@code List} of rows for rows and timers (for outputs
 *                compared partition by partition, the differing partition's rows), a
 *                {@code java.time.Instant} for times, a {@code Long}/{@code Integer}/{@code Boolean}
 *                otherwise (the batch count is an {@code Integer}); for differences of end states
 *                ({@link RunComparison#stateDifferences}) the side's data as text
 * @param right   the right side's value, of the same kind
 * @param message a multi-line description naming both sides, fit for a test failure
 */
public record RunDifference(long batchId, Aspect aspect, Object key, Object left, Object right, String message) {
    public RunDifference {
        Objects.requireNonNull(aspect, "aspect must not be null");
        Objects.requireNonNull(message, "message must not be null");
    }

    /** What differs between two batches (or two runs, for {@link #BATCH_COUNT}). */
    public enum Aspect {
        BATCH_COUNT("batch count"),
        BATCH_ID("batch id"),
        HAD_INPUT("data or no-data batch"),
        INPUT_ROW_COUNT("input row count"),
        LATE_WATERMARK("late watermark"),
        EVICTION_WATERMARK("eviction watermark"),
        BATCH_TIMESTAMP("batch timestamp"),
        DROPPED_LATE("dropped late rows"),
        OUTPUTS("outputs"),
        FIRED_TIMERS("fired timers"),
        METRICS("metrics"),
        /** The batches that failed ({@link RunResult#failures()}): id, kind, row count, timestamp, error. */
        FAILED_BATCHES("failed batches"),
        /** A state variable's data for one key, in the end states ({@link RunComparison#stateDifferences}). */
        STATE("state"),
        /** One key's registered timers, in the end states ({@link RunComparison#stateDifferences}). */
        TIMERS("registered timers");

        private final String label;

        Aspect(String label) {
            this.label = label;
        }

        /** Lower-case words, as used in messages. */
        public String label() {
            return label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    @Override
    public String toString() {
        return message;
    }
}
