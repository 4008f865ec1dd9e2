package dev.twstester.junit;

import java.util.List;
import java.util.NoSuchElementException;

import dev.twstester.junit.internal.Recorder;

/**
 * The output rows of a {@link TestSimulator}, every batch's in order, as a queue: {@code read*}
 * consumes, {@code peekAll}, {@code size} and {@code isEmpty} do not. In strict mode a consumed row
 * counts as read.
 *
 * <pre>{@code
 * sim.runBatch("b", "a", "b");
 * sim.output().readNext();    // (a,1)
 * sim.output().readAll();     // [(b,2)]
 * sim.output().isEmpty();     // true
 * }</pre>
 *
 * @param <O> output row type
 */
public final class TestOutput<O> {
    private final Recorder<?, ?, O> recorder;

    TestOutput(Recorder<?, ?, O> recorder) {
        this.recorder = recorder;
    }

    /** The next unread row; throws {@link NoSuchElementException} when there is none. */
    public O readNext() {
        List<O> unread = recorder.unconsumed();
        if (unread.isEmpty()) {
            throw new NoSuchElementException("simulator '" + recorder.name() + "' has no unread output row ("
                    + recorder.emitted() + " emitted so far, all read); "
                    + "check isEmpty() first or run a batch");
        }
        O next = unread.get(0);
        recorder.consume(1);
        return next;
    }

    /** Every unread row, in order; afterwards there are none. */
    public List<O> readAll() {
        List<O> unread = List.copyOf(recorder.unconsumed());
        recorder.consume(unread.size());
        return unread;
    }

    /** The unread rows, without consuming them. */
    public List<O> peekAll() {
        return List.copyOf(recorder.unconsumed());
    }

    /** How many rows are unread. */
    public int size() {
        return recorder.unconsumed().size();
    }

    /** True when every row was read. */
    public boolean isEmpty() {
        return size() == 0;
    }
}
