package dev.twstester.internal;

/**
 * Internal, not API: may change in any release.
 *
 * <p>Throws a checked exception (Spark's {@code SparkException}, or what a bean getter threw)
 * without wrapping it in another type, as Scala code and Spark's generated code do
 * ({@code Platform.throwException}): {@code throw Sneaky.raise(e);}.
 *
 * <p>Public for {@code dev.twstester.sim} ({@code ProcessorCopies}, {@code Scope}, {@code Engine},
 * {@code SparkErrors}), {@code dev.twstester.spark} ({@code SparkStreaming}) and {@code dev.twstester}
 * ({@code MappedValuesProcessor}, a {@code mapValues} function's), which rethrow the processor's and
 * Spark's checked exceptions.
 */
public final class Sneaky {
    private Sneaky() {}

    /** Never returns: throws {@code t} as it is. */
    public static RuntimeException raise(Throwable t) {
        throw Sneaky.<RuntimeException>doRaise(t);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E doRaise(Throwable t) throws E {
        throw (E) t;
    }
}
