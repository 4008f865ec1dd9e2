package dev.twstester.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One operator's input to one micro-batch after the late-row filter: the rows grouped by encoded
 * key in arrival order, the rows dropped as late, and the maximum event time (which moves the
 * watermark). Spark's {@code EventTimeWatermarkExec} and the operator's
 * {@code watermarkPredicateForDataForLateEvents}: a row whose event time is at or before the
 * previous batch's watermark (in microseconds) is dropped before any handler sees it.
 *
 * <p>At {@link Fidelity#FULL} each row is encoded as the source would and the handlers get decoded
 * copies; at {@link Fidelity#FAST}, and for immutable types where a copy is indistinguishable, they
 * get the rows themselves.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 */
final class BatchInput<K, I> {
    final Map<Bytes, List<I>> byKey;
    /** The late rows, in arrival order (an empty list shared until the first one). */
    List<I> dropped = List.of();
    long maxEventTimeMs = Long.MIN_VALUE;

    private BatchInput(Map<Bytes, List<I>> byKey) {
        this.byKey = byKey;
    }

    /**
     * {@code rows} as {@code operator} receives them in batch {@code batchId}, filtered with
     * {@code filterWmMs}. {@code knownKey}, when not null, is the encoded key every row is known to have.
     */
    static <K, I> BatchInput<K, I> of(Operator<K, I, ?> operator, List<I> rows, Bytes knownKey, long filterWmMs,
            long batchId) {
        EventTimeColumn<I> eventTime = operator.lateFilterColumn();
        KeyCodec<I> inputCodec = operator.inputCodec();
        boolean byReference = operator.fidelity() == Fidelity.FAST || inputCodec.immutable();
        if (knownKey != null && byReference && eventTime == null) {
            return new BatchInput<>(Map.of(knownKey, rows));
        }
        BatchInput<K, I> in = new BatchInput<>(new LinkedHashMap<>());
        boolean lateFilter = eventTime != null && operator.filtersLateRows();
        for (int i = 0; i < rows.size(); i++) {
            I row = rows.get(i);
            I delivered = row;
            Long micros;
            Bytes key = knownKey;
            if (byReference) {
                if (operator.fidelity() == Fidelity.FULL && !inputCodec.acceptsAsIs(row)) {
                    encode(operator, row, i, batchId); // fails as Spark's encoder does
                }
                micros = eventTime == null ? null : eventTime.fromObject(row);
            } else {
                byte[] encoded = encode(operator, row, i, batchId);
                micros = eventTime == null ? null : eventTime.fromEncoded(encoded);
                delivered = inputCodec.decode(encoded);
                if (key == null) {
                    key = operator.keyOf(inputCodec.decode(encoded));
                }
            }
            if (key == null) {
                key = operator.keyOf(row);
            }
            if (micros != null) {
                in.maxEventTimeMs = Math.max(in.maxEventTimeMs, Math.floorDiv(micros, 1000L));
            }
            if (lateFilter && micros != null && micros <= filterWmMs * 1000L) {
                if (in.dropped.isEmpty()) {
                    in.dropped = new ArrayList<>();
                }
                in.dropped.add(row);
            } else {
                in.byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(delivered);
            }
        }
        return in;
    }

    private static <I> byte[] encode(Operator<?, I, ?> operator, I row, int index, long batchId) {
        try {
            return operator.inputCodec().encode(row);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("input row " + index + " of batch " + batchId
                    + " cannot be encoded with the " + operator.describe() + "'s input encoder: " + row, e);
        }
    }
}
