package dev.twstester;

import java.util.Objects;
import java.util.function.Supplier;

import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.StatefulProcessor;

/**
 * A query's {@code groupByKey(...).mapValues(function, encoder)} ({@link TwsQuery.Builder#mapValues}):
 * the key function reads the source row {@code I}, the processor gets {@code function}'s value
 * {@code V}, serialized by {@code encoder} as Spark's {@code AppendColumns} does before the
 * shuffle.
 *
 * <pre>{@code
 * TwsQuery<String, Click, Alert> query = TwsQuery.builder(CountClicks::new)   // StatefulProcessor<String, Long, Alert>
 *         .mapValues(Click::getMillis, Encoders.LONG())                    // groupByKey(...).mapValues(...)
 *         .keyBy(Click::getUser, Encoders.STRING())
 *         .input(Encoders.bean(Click.class))
 *         .output(Encoders.bean(Alert.class))
 *         .build();
 * query.valueMapping().get().encoder();                                     // Encoders.LONG()
 * }</pre>
 *
 * @param <K> grouping key type
 * @param <I> source row type (what the key function reads)
 * @param <V> mapped value type (what the processor reads)
 * @param <O> output row type
 */
public final class ValueMapping<K, I, V, O> {
    private final MapFunction<I, V> function;
    private final Encoder<V> encoder;
    private final Supplier<? extends StatefulProcessor<K, V, O>> processor;

    ValueMapping(MapFunction<I, V> function, Encoder<V> encoder, Supplier<? extends StatefulProcessor<K, V, O>> processor) {
        this.function = Objects.requireNonNull(function, "mapValues function must not be null");
        this.encoder = Objects.requireNonNull(encoder, "mapValues encoder must not be null");
        this.processor = processor;
    }

    /** The function {@code mapValues} applies to each source row. */
    public MapFunction<I, V> function() {
        return function;
    }

    /** The encoder of the mapped values. */
    public Encoder<V> encoder() {
        return encoder;
    }

    /** A new instance of the user's processor, which reads the mapped values. */
    public StatefulProcessor<K, V, O> newProcessor() {
        StatefulProcessor<K, V, O> p = processor.get();
        if (p == null) {
            throw new IllegalStateException("the processor supplier returned null; pass e.g. MyProcessor::new");
        }
        return p;
    }

    /** The user's processor behind an adapter that reads source rows and hands it the mapped values. */
    StatefulProcessor<K, I, O> newAdapter() {
        return MappedValuesProcessor.of(newProcessor(), function, encoder);
    }
}
