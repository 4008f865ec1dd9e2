package dev.twstester.sim;

/**
 * Throws Spark's checked {@code SparkException} (Scala has no checked exceptions, so Spark throws
 * it from methods Java sees as not throwing) without wrapping it in another type.
 */
final class Sneaky {
    private Sneaky() {}

    static RuntimeException raise(Throwable t) {
        throw Sneaky.<RuntimeException>doRaise(t);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E doRaise(Throwable t) throws E {
        throw (E) t;
    }
}
