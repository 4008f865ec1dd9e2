package dev.twstester.samples.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.Scenario;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartEventFiles;
import dev.twstester.samples.cart.CartWatch;

/** The inputs every benchmark uses, built once per trial so no benchmark pays for making them. */
public final class Workloads {
    /** Benchmark (1) and (2): 1,000,000 rows over 10,000 keys. */
    public static final int KEYS = 10_000;
    /** Rows of one key in benchmark (1): one {@code test(key, rows)} call each. */
    public static final int ROWS_PER_KEY = 100;
    /** Benchmark (2): the same rows in this many micro-batches. */
    public static final int BATCHES = 10;
    /** Benchmark (3): generated cart scenarios beside the story. */
    public static final int GENERATED_SCENARIOS = 10;
    /** Seed of the first generated cart scenario; scenario i uses {@code FIRST_SEED + i}. */
    public static final long FIRST_SEED = 6_000L;

    private static final Instant CART_BASE = Instant.parse("2024-05-01T10:00:00Z");

    private Workloads() {
    }

    /** Key {@code i}: {@code "k00042"}; zero-padded so string order is index order. */
    public static String key(int i) {
        return String.format("k%05d", i);
    }

    public static List<String> keys(int keys) {
        List<String> all = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            all.add(key(i));
        }
        return all;
    }

    /**
     * Benchmark (1): per key, its rows for one call. RunningCount's rows are the keys themselves
     * ({@code groupByKey(w -> w)}); every row is its own String object, as rows read from a source are.
     */
    public static List<List<String>> rowsPerKey(List<String> keys, int rowsPerKey) {
        List<List<String>> calls = new ArrayList<>(keys.size());
        for (String k : keys) {
            List<String> rows = new ArrayList<>(rowsPerKey);
            for (int r = 0; r < rowsPerKey; r++) {
                rows.add(new String(k));
            }
            calls.add(rows);
        }
        return calls;
    }

    /**
     * Benchmark (2): the same rows as {@link #rowsPerKey} in {@code batches} micro-batches; every
     * batch has {@code rowsPerKey / batches} rows of every key, keys interleaved as a stream would
     * bring them.
     */
    public static Scenario<String> microBatches(List<String> keys, int rowsPerKey, int batches) {
        if (rowsPerKey % batches != 0) {
            throw new IllegalArgumentException(rowsPerKey + " rows per key do not split into " + batches + " batches");
        }
        Scenario.Builder<String> b = Scenario.builder();
        for (int batch = 0; batch < batches; batch++) {
            List<String> rows = new ArrayList<>(keys.size() * rowsPerKey / batches);
            for (int r = 0; r < rowsPerKey / batches; r++) {
                for (String k : keys) {
                    rows.add(new String(k));
                }
            }
            b.batch(rows);
        }
        return b.build();
    }

    /** Benchmark (3): the cart story of Spark's guide, one micro-batch per file (as {@code CartStory}). */
    public static Scenario<CartEvent> cartStory() {
        Scenario.Builder<CartEvent> b = Scenario.builder();
        for (CartEventFiles.EventFile file : CartEventFiles.story()) {
            b.batch(file.events());
        }
        return b.build();
    }

    /**
     * The generator {@code GeneratedScenariosTest.cart_watch} uses, without its restarts and trigger
     * intervals: event-time cart scenarios of 1 to 6 batches.
     */
    public static ScenarioGenerator cartGenerator() {
        return ScenarioGenerator.create().keys("ana", "bo", "cy").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(CartWatch.WATERMARK_DELAY)
                .eventTimeBase(CART_BASE).eventTimeSpread(Duration.ofMinutes(90))
                .interestingDurations(CartWatch.IDLE).batches(1, 6).eventsPerBatch(0, 4);
    }

    /** Benchmark (3): {@code count} generated event-time cart scenarios, seeds {@link #FIRST_SEED} on. */
    public static List<Scenario<CartEvent>> generatedCarts(int count) {
        ScenarioGenerator gen = cartGenerator();
        List<Scenario<CartEvent>> all = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            all.add(gen.generate(FIRST_SEED + i).toScenario((key, ms, variant) -> variant == 0
                    ? CartEvent.add(key, "item" + ms % 7, Instant.ofEpochMilli(ms))
                    : CartEvent.checkout(key, Instant.ofEpochMilli(ms))));
        }
        return all;
    }

    /** Rough size of a scenario list: input steps and rows. */
    public static String describe(List<? extends Scenario<?>> scenarios) {
        int steps = 0;
        int rows = 0;
        for (Scenario<?> s : scenarios) {
            steps += s.steps().size();
            rows += s.rowCount();
        }
        return scenarios.size() + " scenario(s), " + steps + " steps, " + rows + " rows";
    }
}
