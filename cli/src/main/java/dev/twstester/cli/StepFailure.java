package dev.twstester.cli;

import dev.twstester.io.ScenarioPlan;

/**
 * A step of the replay failed: the processor threw or misused the state API, the key function or
 * input encoder failed, or a new processor's driver-side pass failed at a start.
 */
final class StepFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String where;
    private final long batchId;
    private final String driverPass;
    private final transient ScenarioPlan.Step step;
    private final transient EventFile file;
    private final String planWhere;

    /** A failure at query start, outside any step. */
    StepFailure(String where, long batchId, Throwable cause) {
        this(where, batchId, cause, "at query start", null, null, null);
    }

    /**
     * {@code driverPass} names a failure outside any batch: at query start, or at a restart;
     * {@code step} (or null) is the plan's step that failed, {@code file} its event file (or null),
     * {@code planWhere} where the plan gives it ({@code scenario.txt:3}, {@code options}).
     */
    StepFailure(String where, long batchId, Throwable cause, String driverPass, ScenarioPlan.Step step,
            EventFile file, String planWhere) {
        super(where + ": " + cause.getMessage(), cause);
        this.where = where;
        this.batchId = batchId;
        this.driverPass = driverPass;
        this.step = step;
        this.file = file;
        this.planWhere = planWhere;
    }

    /** The plan's step that failed, or null (the driver pass at query start). */
    ScenarioPlan.Step step() {
        return step;
    }

    /** The event file of the step that failed, or null. */
    EventFile file() {
        return file;
    }

    /** Where the plan gives the step ({@code scenario.txt:3}, {@code options}), or null. */
    String planWhere() {
        return planWhere;
    }

    String driverPass() {
        return driverPass;
    }

    String where() {
        return where;
    }

    long batchId() {
        return batchId;
    }
}
