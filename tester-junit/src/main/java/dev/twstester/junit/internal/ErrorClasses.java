package dev.twstester.junit.internal;

import org.apache.spark.SparkThrowable;

/** Internal, not API: the error class a failed run reports, below Spark's STREAM_FAILED wrapper. */
public final class ErrorClasses {
    private ErrorClasses() {}

    /** The first throwable in the cause chain that carries an error class other than STREAM_FAILED, or {@code t}. */
    public static Throwable carrier(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SparkThrowable st && st.getCondition() != null && !"STREAM_FAILED".equals(st.getCondition())) {
                return c;
            }
        }
        return t;
    }

    /** That throwable's error class, or null when the chain has none. */
    public static String of(Throwable t) {
        return carrier(t) instanceof SparkThrowable st && !"STREAM_FAILED".equals(st.getCondition()) ? st.getCondition() : null;
    }
}
