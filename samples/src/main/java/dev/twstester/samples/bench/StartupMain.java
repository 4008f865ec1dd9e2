package dev.twstester.samples.bench;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.streaming.TwsTester;

import dev.twstester.RunResult;
import dev.twstester.sim.Fidelity;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartAlertRow;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartEventRow;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.cart.CartWatchScala;
import dev.twstester.samples.counts.RunningCount;

import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Benchmark (4), the measured program: a fresh JVM that runs one test and exits, launched by
 * {@link StartupBench}. No SparkSession. Arguments: the test ({@code running-count}, {@code cart},
 * {@code cart-scala} for the cart with case classes ({@link CartWatchScala}), {@code twstester} for Spark's
 * TwsTester on RunningCount, {@code twstester-cart} and {@code twstester-cart-scala} for Spark's TwsTester on
 * the two carts (no query definition: TwsTester takes no encoders), or {@code noop} for the JVM alone), the
 * fidelity ({@code FULL} or {@code FAST}) and the launcher's {@code System.currentTimeMillis()} just
 * before it started this JVM. Prints one line {@code STARTUP main=.. query=.. simulator=.. test=..}:
 * milliseconds from that launch to entering {@code main}, to the query built, to the simulator
 * built and to the test done.
 */
public final class StartupMain {
    private StartupMain() {
    }

    public static void main(String[] args) {
        long launched = Long.parseLong(args[2]);
        long main = System.currentTimeMillis() - launched;
        long[] phases = switch (args[0]) {
            case "noop" -> new long[] {0, 0};
            case "running-count" -> runningCount(Fidelity.valueOf(args[1]), launched);
            case "cart" -> cart(Fidelity.valueOf(args[1]), launched);
            case "cart-scala" -> cartScala(Fidelity.valueOf(args[1]), launched);
            case "twstester" -> twsTester(launched);
            case "twstester-cart" -> twsTesterCart(new CartWatch(), launched,
                    CartEvent.add("ana", "boots", at("10:00")), CartEvent.add("ana", "socks", at("10:05")),
                    e -> e.getTs().getTime(), new CartAlert("ana", 2, at("10:05")));
            case "twstester-cart-scala" -> twsTesterCart(new CartWatchScala(), launched,
                    new CartEventRow("ana", "add", "boots", Timestamp.from(at("10:00"))),
                    new CartEventRow("ana", "add", "socks", Timestamp.from(at("10:05"))),
                    e -> e.ts().getTime(), new CartAlertRow("ana", 2, Timestamp.from(at("10:05"))));
            default -> throw new IllegalArgumentException("unknown start-up test " + args[0]);
        };
        long done = System.currentTimeMillis() - launched;
        System.out.println("STARTUP main=" + main + " query=" + phases[0] + " simulator=" + phases[1] + " test=" + done);
    }

    private static long[] runningCount(Fidelity fidelity, long launched) {
        var query = RunningCount.query();
        long built = System.currentTimeMillis() - launched;
        TwsSimulator<String, String, Tuple2<String, Long>> sim = new TwsSimulator<>(query, fidelity);
        long simulator = System.currentTimeMillis() - launched;
        RunResult<String, String, Tuple2<String, Long>> run = sim.test("a", List.of("a", "a", "a"));
        require(run.outputs().equals(List.of(new Tuple2<>("a", 3L))), run.outputs());
        return new long[] {built, simulator};
    }

    private static long[] cart(Fidelity fidelity, long launched) {
        var query = CartWatch.query();
        long built = System.currentTimeMillis() - launched;
        TwsSimulator<String, CartEvent, CartAlert> sim = new TwsSimulator<>(query, fidelity);
        long simulator = System.currentTimeMillis() - launched;
        sim.runBatch(CartEvent.add("ana", "boots", at("10:00")));
        sim.runBatch(CartEvent.add("ana", "socks", at("10:05")));
        RunResult<String, CartEvent, CartAlert> run = sim.advanceWatermarkTo(at("10:36"));
        require(run.outputs().equals(List.of(new CartAlert("ana", 2, at("10:05")))), run.outputs());
        return new long[] {built, simulator};
    }

    /** {@link #cart} with {@link CartWatchScala}: its rows, output and state are case classes. */
    private static long[] cartScala(Fidelity fidelity, long launched) {
        var query = CartWatchScala.query();
        long built = System.currentTimeMillis() - launched;
        TwsSimulator<String, CartEventRow, CartAlertRow> sim = new TwsSimulator<>(query, fidelity);
        long simulator = System.currentTimeMillis() - launched;
        sim.runBatch(new CartEventRow("ana", "add", "boots", Timestamp.from(at("10:00"))));
        sim.runBatch(new CartEventRow("ana", "add", "socks", Timestamp.from(at("10:05"))));
        RunResult<String, CartEventRow, CartAlertRow> run = sim.advanceWatermarkTo(at("10:36"));
        require(run.outputs().equals(List.of(new CartAlertRow("ana", 2, Timestamp.from(at("10:05"))))), run.outputs());
        return new long[] {built, simulator};
    }

    private static long[] twsTester(long launched) {
        long built = System.currentTimeMillis() - launched;
        TwsTester<String, String, Tuple2<String, Long>> tester = ThroughputBench.newTwsTester();
        long simulator = System.currentTimeMillis() - launched;
        var out = tester.test("a", CollectionConverters.asScala(List.of("a", "a", "a")).toList());
        require(CollectionConverters.asJava(out).equals(List.of(new Tuple2<>("a", 3L))), out);
        return new long[] {built, simulator};
    }

    /** Spark's TwsTester on a cart processor: the same two adds and the watermark to 10:36 (event time 10:46). */
    private static <I, O> long[] twsTesterCart(org.apache.spark.sql.streaming.StatefulProcessor<String, I, O> processor,
            long launched, I first, I second, java.util.function.ToLongFunction<I> eventMs, O expected) {
        long built = System.currentTimeMillis() - launched;
        scala.Function1<I, Object> extractor = row -> eventMs.applyAsLong(row);
        TwsTester<String, I, O> tester = new TwsTester<>(processor,
                scala.collection.immutable.List$.MODULE$.<Tuple2<String, Object>>empty(),
                org.apache.spark.sql.streaming.TimeMode.EventTime(), org.apache.spark.sql.streaming.OutputMode.Update(),
                scala.Option.apply(extractor));
        long simulator = System.currentTimeMillis() - launched;
        tester.test("ana", CollectionConverters.asScala(List.of(first)).toList());
        tester.test("ana", CollectionConverters.asScala(List.of(second)).toList());
        var out = tester.setWatermark(at("10:36").toEpochMilli());
        require(CollectionConverters.asJava(out).equals(List.of(expected)), out);
        return new long[] {built, simulator};
    }

    private static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    private static void require(boolean ok, Object got) {
        if (!ok) {
            throw new AssertionError("start-up test got the wrong result: " + got);
        }
    }
}
