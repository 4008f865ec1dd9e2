package dev.twstester.samples.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TwsTester;

import dev.twstester.TwsQuery;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.samples.fraud.FraudAlert;
import dev.twstester.samples.fraud.FraudSessions;
import dev.twstester.samples.fraud.Payment;
import dev.twstester.samples.ttl.Click;
import dev.twstester.samples.ttl.SessionClosed;
import dev.twstester.samples.ttl.TtlSessions;

import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Benchmark (6), the workload: a suite of small tests over the samples' processors, as a user's
 * JUnit suite would hold them, each test building its own query (the samples' {@code query()}
 * methods call {@code Encoders.bean(...)} / {@code Encoders.STRING()} again on every call, so every
 * test has new encoder instances) and its own tester. Four families, in this order (one test class
 * each):
 * <ul>
 *   <li>{@code cart}: {@link CartWatch}, EventTime, watermark 10 min, a 30-minute event-time timer;</li>
 *   <li>{@code fraud}: {@link FraudSessions}, ProcessingTime, MapState, a session-gap timer;</li>
 *   <li>{@code counts}: {@link RunningCount}, TimeMode.None, ValueState;</li>
 *   <li>{@code ttl}: {@link TtlSessions}, ProcessingTime, TTL on value and list state, an idle timer.</li>
 * </ul>
 * The first test of each family is a hand-written story with known outputs, the others are drawn
 * from a seeded {@link SplittableRandom} ({@code minBatches} to {@code maxBatches} batches each, see
 * {@link Sizes}: {@link #DEFAULT} and the variant {@link #SHORT}, whose queries have 2 shuffle partitions).
 *
 * <p>The same test on the three engines:
 * <ul>
 *   <li>the simulator ({@link #runSimulator}): EventTime: {@code runBatch} per batch (which runs
 *   the no-data batch when the watermark moved), then {@code advanceWatermarkTo(end)}.
 *   ProcessingTime: the clock set to the first batch's arrival, then per batch {@code runBatch}
 *   followed by {@code setProcessingTime} to the next arrival (the last one to the end): each move
 *   is a trigger tick that fires the timers due by then. None: {@code runBatch} per batch;</li>
 *   <li>Spark's {@link TwsTester} ({@link #runTwsTester}): per batch, {@code test(key, rows)} per
 *   key (keys in order of first appearance), then, as its Javadoc says, {@code setWatermark} to
 *   {@code max(event time) - delay} when that moved it (EventTime), or {@code setProcessingTime}
 *   to the next arrival (ProcessingTime), the same calls at the end.</li>
 * </ul>
 * Where the engines' semantics agree the outputs are the same rows; {@link ColdSuiteFamilies.Family#comparable}
 * gives each output as a string that leaves out where they do not: FraudSessions' merchant list
 * is in MapState iteration order (RocksDB's encoded-byte order in the simulator, a Scala
 * {@code HashMap}'s in TwsTester), so it is sorted; TwsTester ignores TTL, so for TtlSessions
 * only the user and the close time are compared (the pages and the click count are what TTL left).
 * With 2 shuffle partitions the simulator emits a batch's rows partition by partition, TwsTester
 * key by key: the digests ({@link #digest}) are of the sorted rows, so the order does not count.
 */
public final class ColdSuiteScenarios {
    /** Seed of the generated scenarios. */
    public static final long SEED = 11_000L;
    /** The benchmark's sizes: 14 + 14 + 12 + 14 = 54 tests of 2 to 16 batches, the queries' default 1 shuffle partition. */
    public static final Sizes DEFAULT = new Sizes(SEED, 14, 14, 12, 14, 2, 16, 1);
    /**
     * The variant in the shape most users' queries have: the same 54 tests and families, generated
     * tests of 3 to 8 batches, every test's query with 2 shuffle partitions.
     */
    public static final Sizes SHORT = new Sizes(SEED, 14, 14, 12, 14, 3, 8, 2);

    static final Instant EVENT_BASE = Instant.parse("2024-05-01T10:00:00Z");
    static final Instant CLOCK_BASE = Instant.parse("2024-05-01T09:00:00Z");
    private static final long MINUTE = 60_000L;

    private ColdSuiteScenarios() {
    }

    /** How the test moves time. */
    enum Clock { EVENT_TIME, PROCESSING_TIME, NONE }

    /**
     * How many tests of each family (the hand-written story included), the fewest and the most
     * batches of a generated one, and the shuffle partitions of every test's query (1: the query as
     * the sample builds it, without {@code withShufflePartitions}).
     */
    public record Sizes(long seed, int cart, int fraud, int counts, int ttl, int minBatches, int maxBatches,
            int shufflePartitions) {
        public Sizes {
            if (cart < 1 || fraud < 1 || counts < 1 || ttl < 1 || minBatches < 1 || maxBatches < minBatches
                    || shufflePartitions < 1) {
                throw new IllegalArgumentException("every family needs at least its story (1 test), 1 <= minBatches <= "
                        + "maxBatches and shufflePartitions >= 1: " + this);
            }
        }

        public int total() {
            return cart + fraud + counts + ttl;
        }

        /** How many batches a generated test has: minBatches to maxBatches, drawn from the test's random. */
        int batches(SplittableRandom r) {
            return minBatches + r.nextInt(maxBatches - minBatches + 1);
        }

        /** {@code seed:cart:fraud:counts:ttl:minBatches:maxBatches:shufflePartitions}, the child JVM's argument. */
        String toArg() {
            return seed + ":" + cart + ":" + fraud + ":" + counts + ":" + ttl + ":" + minBatches + ":" + maxBatches + ":"
                    + shufflePartitions;
        }

        static Sizes parse(String arg) {
            String[] p = arg.split(":");
            if (p.length != 8) {
                throw new IllegalArgumentException(
                        "sizes must be seed:cart:fraud:counts:ttl:minBatches:maxBatches:shufflePartitions, got " + arg);
            }
            return new Sizes(Long.parseLong(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]),
                    Integer.parseInt(p[3]), Integer.parseInt(p[4]), Integer.parseInt(p[5]), Integer.parseInt(p[6]),
                    Integer.parseInt(p[7]));
        }
    }

    /** One micro-batch: its rows and, for ProcessingTime tests, when it arrives (epoch ms; 0 otherwise). */
    record Batch<I>(long atMs, List<I> rows) {
        Batch {
            rows = List.copyOf(rows);
        }
    }

    /**
     * One test. {@code endMs}: EventTime, the watermark the test moves to at the end (every timer
     * fires); ProcessingTime, the clock's last tick; None, unused. {@code shufflePartitions}: those
     * of the test's query.
     */
    record Scenario<K, I, O>(String name, ColdSuiteFamilies.Family<K, I, O> family, List<Batch<I>> batches, long endMs,
            int shufflePartitions) {
        Scenario {
            batches = List.copyOf(batches);
        }

        Scenario(String name, ColdSuiteFamilies.Family<K, I, O> family, List<Batch<I>> batches, long endMs) {
            this(name, family, batches, endMs, 1);
        }

        /** The test's query, built anew (new encoders), with its shuffle partitions. */
        TwsQuery<K, I, O> query() {
            TwsQuery<K, I, O> q = family.query();
            return shufflePartitions == 1 ? q : q.withShufflePartitions(shufflePartitions);
        }

        Scenario<K, I, O> withShufflePartitions(int partitions) {
            return new Scenario<>(name, family, batches, endMs, partitions);
        }

        int rows() {
            return batches.stream().mapToInt(b -> b.rows().size()).sum();
        }
    }

    /** What a scenario produced on one engine: output count and digests of its rows, all and comparable. */
    record Outcome(String name, int outputs, String comparable, String full) {
        /** One line of the expectations file. */
        String line() {
            return name + " " + outputs + " " + comparable + " " + full;
        }

        static Outcome parse(String line) {
            String[] p = line.trim().split(" ");
            if (p.length != 4) {
                throw new IllegalArgumentException("expected 'name outputs comparable full', got: " + line);
            }
            return new Outcome(p[0], Integer.parseInt(p[1]), p[2], p[3]);
        }
    }

    /** The whole suite, family by family (one test class each), each family's story first. */
    static List<Scenario<?, ?, ?>> suite(Sizes sizes) {
        SplittableRandom random = new SplittableRandom(sizes.seed());
        List<Scenario<?, ?, ?>> all = new ArrayList<>(sizes.total());
        all.add(cartStory());
        for (int i = 1; i < sizes.cart(); i++) {
            all.add(cart("cart-" + i, random.split(), sizes));
        }
        all.add(fraudStory());
        for (int i = 1; i < sizes.fraud(); i++) {
            all.add(fraud("fraud-" + i, random.split(), sizes));
        }
        all.add(countsStory());
        for (int i = 1; i < sizes.counts(); i++) {
            all.add(counts("counts-" + i, random.split(), sizes));
        }
        all.add(ttlStory());
        for (int i = 1; i < sizes.ttl(); i++) {
            all.add(ttl("ttl-" + i, random.split(), sizes));
        }
        return all.stream().<Scenario<?, ?, ?>>map(s -> s.withShufflePartitions(sizes.shufflePartitions())).toList();
    }

    // ---------------------------------------------------------------- the stories (known outputs)

    static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    /** ana adds boots and socks, bo adds a hat and checks out: ana's cart is flagged once, with 2 items at 10:05. */
    static Scenario<String, CartEvent, CartAlert> cartStory() {
        return new Scenario<>("cart-story", new ColdSuiteFamilies.Cart(), List.of(
                new Batch<>(0, List.of(CartEvent.add("ana", "boots", at("10:00")))),
                new Batch<>(0, List.of(CartEvent.add("ana", "socks", at("10:05")), CartEvent.add("bo", "hat", at("10:06")),
                        CartEvent.checkout("bo", at("10:20"))))),
                at("11:00").toEpochMilli());
    }

    /**
     * Card c1: fuel goes over $500 at 09:02 (MERCHANT_LIMIT), a fourth merchant at 09:04
     * (TOO_MANY_MERCHANTS, session total $765); the session then ends quietly.
     */
    static Scenario<String, Payment, FraudAlert> fraudStory() {
        return new Scenario<>("fraud-story", new ColdSuiteFamilies.Fraud(FraudSessions.DEFAULT_LIMIT_CENTS,
                FraudSessions.DEFAULT_MAX_MERCHANTS, FraudSessions.DEFAULT_SESSION_GAP), List.of(
                new Batch<>(at("09:00").toEpochMilli(), List.of(new Payment("c1", "cafe", 200_00), new Payment("c1", "fuel", 350_00))),
                new Batch<>(at("09:02").toEpochMilli(), List.of(new Payment("c1", "fuel", 200_00), new Payment("c1", "bookshop", 10_00))),
                new Batch<>(at("09:04").toEpochMilli(), List.of(new Payment("c1", "electronics-outlet", 5_00)))),
                at("09:30").toEpochMilli());
    }

    /** {@code [a, b, a]} then {@code [b]}: (a,2), (b,1), then (b,2). */
    static Scenario<String, String, Tuple2<String, Long>> countsStory() {
        return new Scenario<>("counts-story", new ColdSuiteFamilies.Counts(), List.of(
                new Batch<>(0, List.of("a", "b", "a")), new Batch<>(0, List.of("b"))), 0);
    }

    /**
     * u1 views home at 09:00 and cart at 09:15; the session closes at 09:35 (idle 20 min), ticked at
     * 09:36: 2 clicks, and only cart is within its 30-minute TTL (TwsTester keeps home too).
     */
    static Scenario<String, Click, SessionClosed> ttlStory() {
        return new Scenario<>("ttl-story", new ColdSuiteFamilies.Ttl(TtlSessions.DEFAULT_IDLE_GAP), List.of(
                new Batch<>(at("09:00").toEpochMilli(), List.of(new Click("u1", "home"))),
                new Batch<>(at("09:15").toEpochMilli(), List.of(new Click("u1", "cart")))),
                at("09:36").toEpochMilli());
    }

    // ---------------------------------------------------------------- generated tests

    private static List<String> keys(SplittableRandom r, String... pool) {
        int n = 2 + r.nextInt(pool.length - 1);
        return List.of(pool).subList(0, n);
    }

    private static <T> T pick(SplittableRandom r, List<T> from) {
        return from.get(r.nextInt(from.size()));
    }

    /**
     * Adds (80%) and checkouts at event times up to 20 minutes behind a clock that moves 0 to 15
     * minutes per batch (some rows are late), 1 to 5 rows per batch; the watermark then moves 3 hours
     * past the last event, which fires every timer left.
     */
    static Scenario<String, CartEvent, CartAlert> cart(String name, SplittableRandom r, Sizes sizes) {
        List<String> users = keys(r, "ana", "bo", "cy", "dee");
        long now = EVENT_BASE.toEpochMilli();
        long max = now;
        List<Batch<CartEvent>> batches = new ArrayList<>();
        for (int b = 0, n = sizes.batches(r); b < n; b++) {
            now += r.nextInt(16) * MINUTE;
            List<CartEvent> rows = new ArrayList<>();
            for (int i = 0, m = 1 + r.nextInt(5); i < m; i++) {
                Instant ts = Instant.ofEpochMilli(now - r.nextInt(20 * 60) * 1000L);
                String user = pick(r, users);
                rows.add(r.nextInt(5) == 0 ? CartEvent.checkout(user, ts) : CartEvent.add(user, "item" + r.nextInt(9), ts));
                max = Math.max(max, ts.toEpochMilli());
            }
            batches.add(new Batch<>(0, rows));
        }
        return new Scenario<>(name, new ColdSuiteFamilies.Cart(), batches, max + Duration.ofHours(3).toMillis());
    }

    /**
     * Payments of $5 to $300 at 2 to 5 merchants on 2 or 3 cards, batches 1 to 15 minutes apart
     * (a 10-minute session gap, so some sessions end between batches), the last tick 30 minutes after
     * the last batch. The limit is $500 or $200, and 3 or 2 merchants.
     */
    static Scenario<String, Payment, FraudAlert> fraud(String name, SplittableRandom r, Sizes sizes) {
        List<String> cards = keys(r, "c1", "c2", "c3");
        List<String> merchants = List.of("cafe", "fuel", "bookshop", "electronics-outlet", "grocer")
                .subList(0, 2 + r.nextInt(4));
        ColdSuiteFamilies.Fraud family = new ColdSuiteFamilies.Fraud(r.nextBoolean() ? FraudSessions.DEFAULT_LIMIT_CENTS : 200_00L,
                r.nextBoolean() ? FraudSessions.DEFAULT_MAX_MERCHANTS : 2, FraudSessions.DEFAULT_SESSION_GAP);
        long now = CLOCK_BASE.toEpochMilli();
        List<Batch<Payment>> batches = new ArrayList<>();
        for (int b = 0, n = sizes.batches(r); b < n; b++) {
            if (b > 0) {
                now += (1 + r.nextInt(15)) * MINUTE;
            }
            List<Payment> rows = new ArrayList<>();
            for (int i = 0, m = 1 + r.nextInt(4); i < m; i++) {
                rows.add(new Payment(pick(r, cards), pick(r, merchants), (5 + r.nextInt(296)) * 100L));
            }
            batches.add(new Batch<>(now, rows));
        }
        return new Scenario<>(name, family, batches, now + 30 * MINUTE);
    }

    /** 1 to 8 words of 2 to 5 keys per batch. */
    static Scenario<String, String, Tuple2<String, Long>> counts(String name, SplittableRandom r, Sizes sizes) {
        List<String> words = keys(r, "a", "b", "c", "d", "e");
        List<Batch<String>> batches = new ArrayList<>();
        for (int b = 0, n = sizes.batches(r); b < n; b++) {
            List<String> rows = new ArrayList<>();
            for (int i = 0, m = 1 + r.nextInt(8); i < m; i++) {
                rows.add(new String(pick(r, words)));
            }
            batches.add(new Batch<>(0, rows));
        }
        return new Scenario<>(name, new ColdSuiteFamilies.Counts(), batches, 0);
    }

    /**
     * Clicks of 2 or 3 users, batches 1 to 25 minutes apart, the last tick one minute after the
     * last session's idle timer is due. The idle gap is 20 minutes (shorter than the 30-minute
     * TTL) in three tests of four, 40 minutes otherwise.
     */
    static Scenario<String, Click, SessionClosed> ttl(String name, SplittableRandom r, Sizes sizes) {
        List<String> users = keys(r, "u1", "u2", "u3");
        List<String> pages = List.of("home", "search", "item-1", "item-2", "cart");
        Duration gap = r.nextInt(4) == 0 ? Duration.ofMinutes(40) : TtlSessions.DEFAULT_IDLE_GAP;
        long now = CLOCK_BASE.toEpochMilli();
        List<Batch<Click>> batches = new ArrayList<>();
        for (int b = 0, n = sizes.batches(r); b < n; b++) {
            if (b > 0) {
                now += (1 + r.nextInt(25)) * MINUTE;
            }
            List<Click> rows = new ArrayList<>();
            for (int i = 0, m = 1 + r.nextInt(4); i < m; i++) {
                rows.add(new Click(pick(r, users), pick(r, pages)));
            }
            batches.add(new Batch<>(now, rows));
        }
        return new Scenario<>(name, new ColdSuiteFamilies.Ttl(gap), batches, now + gap.toMillis() + MINUTE);
    }

    // ---------------------------------------------------------------- the engines

    /** The test on the simulator: a new query (new encoders) and a new simulator, driven as described above. */
    static <K, I, O> List<O> runSimulator(Scenario<K, I, O> s, Fidelity fidelity) {
        return drive(s, new TwsSimulator<>(s.query(), fidelity));
    }

    /** The test's calls on {@code sim}, as described above; returns every output. */
    static <K, I, O> List<O> drive(Scenario<K, I, O> s, TwsSimulator<K, I, O> sim) {
        List<O> out = new ArrayList<>();
        List<Batch<I>> batches = s.batches();
        switch (s.family().clock) {
            case EVENT_TIME -> {
                for (Batch<I> b : batches) {
                    out.addAll(sim.runBatch(b.rows()).outputs());
                }
                out.addAll(sim.advanceWatermarkTo(Instant.ofEpochMilli(s.endMs())).outputs());
            }
            case PROCESSING_TIME -> {
                sim.setProcessingTime(Instant.ofEpochMilli(batches.get(0).atMs()));
                for (int i = 0; i < batches.size(); i++) {
                    out.addAll(sim.runBatch(batches.get(i).rows()).outputs());
                    long next = i + 1 < batches.size() ? batches.get(i + 1).atMs() : s.endMs();
                    out.addAll(sim.setProcessingTime(Instant.ofEpochMilli(next)).outputs());
                }
            }
            case NONE -> {
                for (Batch<I> b : batches) {
                    out.addAll(sim.runBatch(b.rows()).outputs());
                }
            }
        }
        return out;
    }

    /** The test on Spark's TwsTester: a new processor and tester, driven per key as described above. */
    static <K, I, O> List<O> runTwsTester(Scenario<K, I, O> s) {
        ColdSuiteFamilies.Family<K, I, O> f = s.family();
        TwsTester<K, I, O> tester = new TwsTester<>(f.processor(),
                scala.collection.immutable.List$.MODULE$.<Tuple2<K, Object>>empty(), f.timeMode(), OutputMode.Update(),
                f.eventTimeExtractor());
        List<O> out = new ArrayList<>();
        List<Batch<I>> batches = s.batches();
        long watermark = 0; // TwsTester's starts at 0 and must move strictly forward
        if (f.clock == Clock.PROCESSING_TIME) {
            out.addAll(CollectionConverters.asJava(tester.setProcessingTime(batches.get(0).atMs())));
        }
        for (int i = 0; i < batches.size(); i++) {
            Map<K, List<I>> byKey = new LinkedHashMap<>();
            for (I row : batches.get(i).rows()) {
                byKey.computeIfAbsent(f.key(row), k -> new ArrayList<>()).add(row);
            }
            for (Map.Entry<K, List<I>> e : byKey.entrySet()) {
                out.addAll(CollectionConverters.asJava(
                        tester.test(e.getKey(), CollectionConverters.asScala(e.getValue()).toList())));
            }
            if (f.clock == Clock.EVENT_TIME) {
                long next = watermark;
                for (I row : batches.get(i).rows()) {
                    next = Math.max(next, f.eventTimeMs(row) - f.watermarkDelayMs());
                }
                if (next > watermark) {
                    watermark = next;
                    out.addAll(CollectionConverters.asJava(tester.setWatermark(watermark)));
                }
            } else if (f.clock == Clock.PROCESSING_TIME) {
                long next = i + 1 < batches.size() ? batches.get(i + 1).atMs() : s.endMs();
                out.addAll(CollectionConverters.asJava(tester.setProcessingTime(next)));
            }
        }
        if (f.clock == Clock.EVENT_TIME && s.endMs() > watermark) {
            out.addAll(CollectionConverters.asJava(tester.setWatermark(s.endMs())));
        }
        return out;
    }

    /** What a scenario's outputs come to: their count and order-free digests, all and comparable. */
    static <K, I, O> Outcome outcome(Scenario<K, I, O> s, List<O> outputs) {
        List<String> full = new ArrayList<>(outputs.size());
        List<String> comparable = new ArrayList<>(outputs.size());
        for (O o : outputs) {
            full.add(s.family().full(o));
            comparable.add(s.family().comparable(o));
        }
        return new Outcome(s.name(), outputs.size(), digest(comparable), digest(full));
    }

    /** Order-free: batches and timers of the same time may come out in a different order on TwsTester. */
    static String digest(List<String> rows) {
        List<String> sorted = new ArrayList<>(rows);
        Collections.sort(sorted);
        CRC32 crc = new CRC32();
        for (String row : sorted) {
            crc.update(row.getBytes(StandardCharsets.UTF_8));
            crc.update('\n');
        }
        return String.format("%08x", crc.getValue());
    }

    /** The engine arguments {@link #run} takes. */
    static final List<String> ENGINES = List.of("FULL", "FAST", "TWSTESTER", "TWSTESTER_QUERIES");

    /**
     * Runs one scenario on {@code engine}: {@code FULL} or {@code FAST} (the simulator at that
     * fidelity), {@code TWSTESTER} (Spark's TwsTester), or {@code TWSTESTER_QUERIES}: the same
     * TwsTester test that also builds the scenario's query definition first, as a test that keeps
     * one query for the simulator and live Spark would. That engine isolates what the query
     * definitions (Spark's encoder inference) cost from what the simulator costs.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static List<Object> run(Scenario<?, ?, ?> s, String engine) {
        Scenario raw = s;
        return switch (engine) {
            case "FULL" -> runSimulator(raw, Fidelity.FULL);
            case "FAST" -> runSimulator(raw, Fidelity.FAST);
            case "TWSTESTER" -> runTwsTester(raw);
            case "TWSTESTER_QUERIES" -> {
                Objects.requireNonNull(s.query(), "query");
                yield runTwsTester(raw);
            }
            default -> throw new IllegalArgumentException("unknown engine " + engine + "; engines: " + ENGINES);
        };
    }

    /** {@link #outcome} for a scenario whose type arguments are unknown here. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Outcome outcomeOf(Scenario<?, ?, ?> s, List<Object> outputs) {
        Scenario raw = s;
        return outcome(raw, outputs);
    }

    /** The comparable rows of a scenario's outputs, sorted (for error messages). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static List<String> comparableRows(Scenario<?, ?, ?> s, List<Object> outputs) {
        ColdSuiteFamilies.Family f = s.family();
        List<String> rows = new ArrayList<>();
        for (Object o : outputs) {
            rows.add(f.comparable(o));
        }
        Collections.sort(rows);
        return rows;
    }
}
