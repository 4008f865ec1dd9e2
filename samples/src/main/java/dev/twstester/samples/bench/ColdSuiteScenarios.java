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
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
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

import scala.Function1;
import scala.Option;
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
 * from a seeded {@link SplittableRandom} (2 to {@code maxBatches} batches each).
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
 * Where the engines' semantics agree the outputs are the same rows; {@link Family#comparable}
 * gives each output as a string that leaves out where they do not: FraudSessions' merchant list
 * is in MapState iteration order (RocksDB's encoded-byte order in the simulator, a Scala
 * {@code HashMap}'s in TwsTester), so it is sorted; TwsTester ignores TTL, so for TtlSessions
 * only the user and the close time are compared (the pages and the click count are what TTL left).
 */
public final class ColdSuiteScenarios {
    /** Seed of the generated scenarios. */
    public static final long SEED = 11_000L;
    /** The benchmark's sizes: 14 + 14 + 12 + 14 = 54 tests of 2 to 16 batches. */
    public static final Sizes DEFAULT = new Sizes(SEED, 14, 14, 12, 14, 16);

    static final Instant EVENT_BASE = Instant.parse("2024-05-01T10:00:00Z");
    static final Instant CLOCK_BASE = Instant.parse("2024-05-01T09:00:00Z");
    private static final long MINUTE = 60_000L;

    private ColdSuiteScenarios() {
    }

    /** How the test moves time. */
    enum Clock { EVENT_TIME, PROCESSING_TIME, NONE }

    /** How many tests of each family (the hand-written story included), and the most batches of a generated one. */
    public record Sizes(long seed, int cart, int fraud, int counts, int ttl, int maxBatches) {
        public Sizes {
            if (cart < 1 || fraud < 1 || counts < 1 || ttl < 1 || maxBatches < 2) {
                throw new IllegalArgumentException("every family needs at least its story (1 test) and maxBatches >= 2: "
                        + this);
            }
        }

        public int total() {
            return cart + fraud + counts + ttl;
        }

        /** {@code seed:cart:fraud:counts:ttl:maxBatches}, the child JVM's argument. */
        String toArg() {
            return seed + ":" + cart + ":" + fraud + ":" + counts + ":" + ttl + ":" + maxBatches;
        }

        static Sizes parse(String arg) {
            String[] p = arg.split(":");
            if (p.length != 6) {
                throw new IllegalArgumentException("sizes must be seed:cart:fraud:counts:ttl:maxBatches, got " + arg);
            }
            return new Sizes(Long.parseLong(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]),
                    Integer.parseInt(p[3]), Integer.parseInt(p[4]), Integer.parseInt(p[5]));
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
     * fires); ProcessingTime, the clock's last tick; None, unused.
     */
    record Scenario<K, I, O>(String name, Family<K, I, O> family, List<Batch<I>> batches, long endMs) {
        Scenario {
            batches = List.copyOf(batches);
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

    /**
     * A processor, its query and how to drive and compare it. The query is built anew on each call
     * of {@link #query()}, with new encoder instances, as in a test.
     */
    abstract static class Family<K, I, O> {
        final String name;
        final Clock clock;

        Family(String name, Clock clock) {
            this.name = name;
            this.clock = clock;
        }

        /** The query a test builds (new encoders every call). */
        abstract TwsQuery<K, I, O> query();

        /** A new processor instance for TwsTester. */
        abstract StatefulProcessor<K, I, O> processor();

        abstract K key(I row);

        TimeMode timeMode() {
            return switch (clock) {
                case EVENT_TIME -> TimeMode.EventTime();
                case PROCESSING_TIME -> TimeMode.ProcessingTime();
                case NONE -> TimeMode.None();
            };
        }

        /** Event time in ms (EventTime families). */
        long eventTimeMs(I row) {
            throw new UnsupportedOperationException(name + " has no event time");
        }

        long watermarkDelayMs() {
            return 0;
        }

        /** TwsTester's event-time extractor (EventTime families), in ms as its late filter compares. */
        Option<Function1<I, Object>> eventTimeExtractor() {
            if (clock != Clock.EVENT_TIME) {
                return Option.empty();
            }
            Function1<I, Object> f = row -> eventTimeMs(row);
            return Option.apply(f);
        }

        /** An output row in full. */
        String full(O out) {
            return String.valueOf(out);
        }

        /** An output row as far as both engines' semantics agree. */
        String comparable(O out) {
            return full(out);
        }
    }

    static final class Cart extends Family<String, CartEvent, CartAlert> {
        Cart() {
            super("cart", Clock.EVENT_TIME);
        }

        @Override
        TwsQuery<String, CartEvent, CartAlert> query() {
            return CartWatch.query();
        }

        @Override
        StatefulProcessor<String, CartEvent, CartAlert> processor() {
            return new CartWatch();
        }

        @Override
        String key(CartEvent row) {
            return row.getUserId();
        }

        @Override
        long eventTimeMs(CartEvent row) {
            return row.getTs().getTime();
        }

        @Override
        long watermarkDelayMs() {
            return CartWatch.WATERMARK_DELAY.toMillis();
        }
    }

    static final class Fraud extends Family<String, Payment, FraudAlert> {
        final long limitCents;
        final int maxMerchants;
        final Duration gap;

        Fraud(long limitCents, int maxMerchants, Duration gap) {
            super("fraud", Clock.PROCESSING_TIME);
            this.limitCents = limitCents;
            this.maxMerchants = maxMerchants;
            this.gap = gap;
        }

        @Override
        TwsQuery<String, Payment, FraudAlert> query() {
            return FraudSessions.query(limitCents, maxMerchants, gap);
        }

        @Override
        StatefulProcessor<String, Payment, FraudAlert> processor() {
            return new FraudSessions(limitCents, maxMerchants, gap);
        }

        @Override
        String key(Payment row) {
            return row.getCardId();
        }

        /** The merchants sorted: their order is MapState iteration order, which differs between the engines. */
        @Override
        String comparable(FraudAlert out) {
            List<String> merchants = new ArrayList<>(out.getMerchants());
            Collections.sort(merchants);
            return out.getCardId() + "|" + out.getReason() + "|" + merchants + "|" + out.getTotalCents();
        }
    }

    static final class Counts extends Family<String, String, Tuple2<String, Long>> {
        Counts() {
            super("counts", Clock.NONE);
        }

        @Override
        TwsQuery<String, String, Tuple2<String, Long>> query() {
            return RunningCount.query();
        }

        @Override
        StatefulProcessor<String, String, Tuple2<String, Long>> processor() {
            return new RunningCount();
        }

        @Override
        String key(String row) {
            return row;
        }
    }

    static final class Ttl extends Family<String, Click, SessionClosed> {
        final Duration idleGap;

        Ttl(Duration idleGap) {
            super("ttl", Clock.PROCESSING_TIME);
            this.idleGap = idleGap;
        }

        @Override
        TwsQuery<String, Click, SessionClosed> query() {
            return TtlSessions.query(idleGap);
        }

        @Override
        StatefulProcessor<String, Click, SessionClosed> processor() {
            return new TtlSessions(idleGap);
        }

        @Override
        String key(Click row) {
            return row.getUser();
        }

        /**
         * TwsTester ignores TTL, so only the user and the close time: the pages (30-minute TTL per
         * element) and the click count (30-minute TTL from its last update) depend on the batch
         * timestamp of the tick that fires the idle timer, which can be up to 25 minutes after it
         * was due; the simulator then reports what TTL left, down to 0 clicks.
         */
        @Override
        String comparable(SessionClosed out) {
            return out.getUser() + "|" + out.getClosedAt().toInstant();
        }
    }

    /** The whole suite, family by family (one test class each), each family's story first. */
    static List<Scenario<?, ?, ?>> suite(Sizes sizes) {
        SplittableRandom random = new SplittableRandom(sizes.seed());
        List<Scenario<?, ?, ?>> all = new ArrayList<>(sizes.total());
        all.add(cartStory());
        for (int i = 1; i < sizes.cart(); i++) {
            all.add(cart("cart-" + i, random.split(), sizes.maxBatches()));
        }
        all.add(fraudStory());
        for (int i = 1; i < sizes.fraud(); i++) {
            all.add(fraud("fraud-" + i, random.split(), sizes.maxBatches()));
        }
        all.add(countsStory());
        for (int i = 1; i < sizes.counts(); i++) {
            all.add(counts("counts-" + i, random.split(), sizes.maxBatches()));
        }
        all.add(ttlStory());
        for (int i = 1; i < sizes.ttl(); i++) {
            all.add(ttl("ttl-" + i, random.split(), sizes.maxBatches()));
        }
        return all;
    }

    // ---------------------------------------------------------------- the stories (known outputs)

    static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    /** ana adds boots and socks, bo adds a hat and checks out: ana's cart is flagged once, with 2 items at 10:05. */
    static Scenario<String, CartEvent, CartAlert> cartStory() {
        return new Scenario<>("cart-story", new Cart(), List.of(
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
        return new Scenario<>("fraud-story", new Fraud(FraudSessions.DEFAULT_LIMIT_CENTS,
                FraudSessions.DEFAULT_MAX_MERCHANTS, FraudSessions.DEFAULT_SESSION_GAP), List.of(
                new Batch<>(at("09:00").toEpochMilli(), List.of(new Payment("c1", "cafe", 200_00), new Payment("c1", "fuel", 350_00))),
                new Batch<>(at("09:02").toEpochMilli(), List.of(new Payment("c1", "fuel", 200_00), new Payment("c1", "bookshop", 10_00))),
                new Batch<>(at("09:04").toEpochMilli(), List.of(new Payment("c1", "electronics-outlet", 5_00)))),
                at("09:30").toEpochMilli());
    }

    /** {@code [a, b, a]} then {@code [b]}: (a,2), (b,1), then (b,2). */
    static Scenario<String, String, Tuple2<String, Long>> countsStory() {
        return new Scenario<>("counts-story", new Counts(), List.of(
                new Batch<>(0, List.of("a", "b", "a")), new Batch<>(0, List.of("b"))), 0);
    }

    /**
     * u1 views home at 09:00 and cart at 09:15; the session closes at 09:35 (idle 20 min), ticked at
     * 09:36: 2 clicks, and only cart is within its 30-minute TTL (TwsTester keeps home too).
     */
    static Scenario<String, Click, SessionClosed> ttlStory() {
        return new Scenario<>("ttl-story", new Ttl(TtlSessions.DEFAULT_IDLE_GAP), List.of(
                new Batch<>(at("09:00").toEpochMilli(), List.of(new Click("u1", "home"))),
                new Batch<>(at("09:15").toEpochMilli(), List.of(new Click("u1", "cart")))),
                at("09:36").toEpochMilli());
    }

    // ---------------------------------------------------------------- generated tests

    private static int batches(SplittableRandom r, int maxBatches) {
        return 2 + r.nextInt(maxBatches - 1);
    }

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
    static Scenario<String, CartEvent, CartAlert> cart(String name, SplittableRandom r, int maxBatches) {
        List<String> users = keys(r, "ana", "bo", "cy", "dee");
        long now = EVENT_BASE.toEpochMilli();
        long max = now;
        List<Batch<CartEvent>> batches = new ArrayList<>();
        for (int b = 0, n = batches(r, maxBatches); b < n; b++) {
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
        return new Scenario<>(name, new Cart(), batches, max + Duration.ofHours(3).toMillis());
    }

    /**
     * Payments of $5 to $300 at 2 to 5 merchants on 2 or 3 cards, batches 1 to 15 minutes apart
     * (a 10-minute session gap, so some sessions end between batches), the last tick 30 minutes after
     * the last batch. The limit is $500 or $200, and 3 or 2 merchants.
     */
    static Scenario<String, Payment, FraudAlert> fraud(String name, SplittableRandom r, int maxBatches) {
        List<String> cards = keys(r, "c1", "c2", "c3");
        List<String> merchants = List.of("cafe", "fuel", "bookshop", "electronics-outlet", "grocer")
                .subList(0, 2 + r.nextInt(4));
        Fraud family = new Fraud(r.nextBoolean() ? FraudSessions.DEFAULT_LIMIT_CENTS : 200_00L,
                r.nextBoolean() ? FraudSessions.DEFAULT_MAX_MERCHANTS : 2, FraudSessions.DEFAULT_SESSION_GAP);
        long now = CLOCK_BASE.toEpochMilli();
        List<Batch<Payment>> batches = new ArrayList<>();
        for (int b = 0, n = batches(r, maxBatches); b < n; b++) {
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
    static Scenario<String, String, Tuple2<String, Long>> counts(String name, SplittableRandom r, int maxBatches) {
        List<String> words = keys(r, "a", "b", "c", "d", "e");
        List<Batch<String>> batches = new ArrayList<>();
        for (int b = 0, n = batches(r, maxBatches); b < n; b++) {
            List<String> rows = new ArrayList<>();
            for (int i = 0, m = 1 + r.nextInt(8); i < m; i++) {
                rows.add(new String(pick(r, words)));
            }
            batches.add(new Batch<>(0, rows));
        }
        return new Scenario<>(name, new Counts(), batches, 0);
    }

    /**
     * Clicks of 2 or 3 users, batches 1 to 25 minutes apart, the last tick one minute after the
     * last session's idle timer is due. The idle gap is 20 minutes (shorter than the 30-minute
     * TTL) in three tests of four, 40 minutes otherwise.
     */
    static Scenario<String, Click, SessionClosed> ttl(String name, SplittableRandom r, int maxBatches) {
        List<String> users = keys(r, "u1", "u2", "u3");
        List<String> pages = List.of("home", "search", "item-1", "item-2", "cart");
        Duration gap = r.nextInt(4) == 0 ? Duration.ofMinutes(40) : TtlSessions.DEFAULT_IDLE_GAP;
        long now = CLOCK_BASE.toEpochMilli();
        List<Batch<Click>> batches = new ArrayList<>();
        for (int b = 0, n = batches(r, maxBatches); b < n; b++) {
            if (b > 0) {
                now += (1 + r.nextInt(25)) * MINUTE;
            }
            List<Click> rows = new ArrayList<>();
            for (int i = 0, m = 1 + r.nextInt(4); i < m; i++) {
                rows.add(new Click(pick(r, users), pick(r, pages)));
            }
            batches.add(new Batch<>(now, rows));
        }
        return new Scenario<>(name, new Ttl(gap), batches, now + gap.toMillis() + MINUTE);
    }

    // ---------------------------------------------------------------- the engines

    /** The test on the simulator: a new query (new encoders) and a new simulator, driven as described above. */
    static <K, I, O> List<O> runSimulator(Scenario<K, I, O> s, Fidelity fidelity) {
        TwsSimulator<K, I, O> sim = new TwsSimulator<>(s.family().query(), fidelity);
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
        Family<K, I, O> f = s.family();
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
                Objects.requireNonNull(s.family().query(), "query");
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
        Family f = s.family();
        List<String> rows = new ArrayList<>();
        for (Object o : outputs) {
            rows.add(f.comparable(o));
        }
        Collections.sort(rows);
        return rows;
    }
}
