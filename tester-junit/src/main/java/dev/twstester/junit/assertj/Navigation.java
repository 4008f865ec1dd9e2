package dev.twstester.junit.assertj;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.api.ListAssert;
import org.assertj.core.api.MapAssert;
import org.assertj.core.api.OptionalAssert;
import org.assertj.core.api.SoftAssertionsProvider;
import org.assertj.core.description.TextDescription;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;

/**
 * Creates the assert a navigation method switches to: a plain one, or, inside
 * {@link TwsSoftAssertions}, a soft proxy that collects its failures. Each gets a description
 * naming what it holds (state variable, key, batch), which AssertJ puts before every message.
 */
final class Navigation {
    private final SoftAssertionsProvider soft;

    Navigation(SoftAssertionsProvider soft) {
        this.soft = soft;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    <T> ListAssert<T> list(List<? extends T> actual, String description) {
        ListAssert<T> a = soft == null ? Assertions.assertThat(actual) : soft.proxy(ListAssert.class, List.class, actual);
        return describe(a, description);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    <K, V> MapAssert<K, V> map(Map<K, V> actual, String description) {
        MapAssert<K, V> a = soft == null ? Assertions.assertThat(actual) : soft.proxy(MapAssert.class, Map.class, actual);
        return describe(a, description);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    <T> OptionalAssert<T> optional(Optional<T> actual, String description) {
        OptionalAssert<T> a = soft == null ? Assertions.assertThat(actual)
                : soft.proxy(OptionalAssert.class, Optional.class, actual);
        return describe(a, description);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    <K, I, O> BatchResultAssert<K, I, O> batch(BatchResult<K, I, O> actual) {
        BatchResultAssert<K, I, O> a = soft == null ? new BatchResultAssert<>(actual)
                : soft.proxy(BatchResultAssert.class, BatchResult.class, actual);
        a.navigation = this;
        return a;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    <K, I, O> RunResultAssert<K, I, O> run(RunResult<K, I, O> actual) {
        RunResultAssert<K, I, O> a = soft == null ? new RunResultAssert<>(actual)
                : soft.proxy(RunResultAssert.class, RunResult.class, actual);
        a.navigation = this;
        return a;
    }

    private static <A extends AbstractAssert<A, ?>> A describe(A a, String description) {
        return a.describedAs(new TextDescription("%s", description));
    }

    /** {@code "ana"} for a String key, as AssertJ shows values. */
    static String show(Object value) {
        return org.assertj.core.presentation.StandardRepresentation.STANDARD_REPRESENTATION.toStringOf(value);
    }

    /** {@code batch 4}, {@code batches 4-5}, {@code no batch}. */
    static String batches(List<? extends BatchResult<?, ?, ?>> batches) {
        if (batches.isEmpty()) {
            return "no batch";
        }
        long first = batches.get(0).batchId();
        long last = batches.get(batches.size() - 1).batchId();
        return first == last ? "batch " + first : "batches " + first + "-" + last;
    }
}
