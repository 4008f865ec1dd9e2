package dev.twstester.junit;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What a simulator did, attached by the {@link TwsTest @TwsTest} extension as a suppressed
 * exception to a failing test's error. Its message is the simulator's timeline (see
 * {@link TestSimulator#timeline()}); {@link #files()} is where the replayable trace was written.
 * Not thrown on its own.
 */
public final class SimulatorTrace extends RuntimeException {
    private final transient Path files;

    SimulatorTrace(String timeline, Path files) {
        super(timeline + (files == null ? "" : "\ntrace files: " + files), null, false, false);
        this.files = files;
    }

    /** The folder the trace files were written to, if they were written. */
    public Optional<Path> files() {
        return Optional.ofNullable(files);
    }
}
