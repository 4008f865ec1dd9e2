package dev.twstester.junit.internal;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.twstester.sim.TwsSimulator;

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

    private static void due(StringBuilder b, Recorder<?, ?, ?> recorder) {
        List<Recorder.Due> due = recorder.dueTimers();
        if (due.isEmpty()) {
            return;
        }
        boolean several = recorder.query().operators().size() > 1;
        boolean watermark = due.stream().anyMatch(Recorder.Due::eventTime);
        boolean clock = due.stream().anyMatch(d -> !d.eventTime());
        TwsSimulator<?, ?, ?> sim = recorder.simulator();
        int timers = due.stream().mapToInt(d -> d.timers().size()).sum();
        b.append(b.length() == 0 ? "" : "\nand it").append(" has ").append(Timelines.count(timers, "due timer"))
                .append(" that did not fire (at or before the ")
                .append(watermark ? "watermark " + sim.watermark() : "").append(watermark && clock ? " or the " : "")
                .append(clock ? "processing time " + sim.processingTime() : "").append("):");
        for (Recorder.Due d : due) {
            d.timers().forEach(t -> b.append("\n  ").append(several ? "operator " + d.operator() + ", " : "")
                    .append("key ").append(d.key()).append(" at ").append(t));
        }
        b.append("\nrun another batch so they fire, e.g. sim.runBatch()");
    }
}
