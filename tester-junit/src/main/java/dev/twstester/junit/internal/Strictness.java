package dev.twstester.junit.internal;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;

/**
 * Internal, not API: may change in any release.
 *
 * <p>Strict mode's check of a simulator after a passing test: no output row left unread, no due
 * timer left unfired.
 */
public final class Strictness {
    private Strictness() {}

    /** The problems of {@code recorder}, one paragraph each, or empty. */
    public static Optional<String> problems(Recorder<?, ?, ?> recorder, String switchedOnBy) {
        StringBuilder b = new StringBuilder();
        unread(b, recorder);
        due(b, recorder);
        if (b.length() == 0) {
            return Optional.empty();
        }
        return Optional.of("strict mode (" + switchedOnBy + "): simulator '" + recorder.name() + "'" + b);
    }

    private static <O> void unread(StringBuilder b, Recorder<?, ?, O> recorder) {
        Map<Long, List<O>> unread = recorder.unreadOutputs();
        if (unread.isEmpty()) {
            return;
        }
        int rows = unread.values().stream().mapToInt(List::size).sum();
        b.append(" left ").append(Timelines.count(rows, "output row")).append(" unread:");
        unread.forEach((batch, list) -> list.forEach(row -> b.append("\n  batch ").append(batch).append(": ").append(row)));
        b.append("\nread them with sim.output().readAll() or assert them with TwsAssertions.assertThat(...).outputs()");
    }

    private static <K> void due(StringBuilder b, Recorder<K, ?, ?> recorder) {
        Map<K, List<Instant>> due = recorder.dueTimers();
        if (due.isEmpty()) {
            return;
        }
        boolean eventTime = recorder.query().timeMode().equals(TimeMode.EventTime());
        Instant now = eventTime ? recorder.simulator().watermark() : recorder.simulator().processingTime();
        int timers = due.values().stream().mapToInt(List::size).sum();
        b.append(b.length() == 0 ? "" : "\nand it").append(" has ").append(Timelines.count(timers, "due timer"))
                .append(" that did not fire (at or before the ").append(eventTime ? "watermark " : "processing time ")
                .append(now).append("):");
        due.forEach((key, list) -> list.forEach(t -> b.append("\n  key ").append(key).append(" at ").append(t)));
        b.append("\nrun another batch so they fire, e.g. sim.runBatch()");
    }
}
