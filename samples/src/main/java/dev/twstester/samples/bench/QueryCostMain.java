package dev.twstester.samples.bench;

import org.apache.spark.sql.Encoders;

import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.samples.fraud.FraudSessions;
import dev.twstester.samples.ttl.TtlSessions;

/**
 * What bounds benchmark (6): a fresh JVM that only builds the cold suite's 54 queries (14 CartWatch,
 * 14 FraudSessions, 12 RunningCount, 14 TtlSessions, as its tests do) and prints how long that took
 * per family. {@code Encoders.STRING()} and {@code LONG()} are built first and not counted: Spark's
 * TwsTester pays them too, when the processors' {@code init} asks for state. What is left is Spark's
 * inference of bean and tuple encoders, which a query definition needs and TwsTester does not take.
 * <pre>java -cp samples/target/classes:CLASSPATH dev.twstester.samples.bench.QueryCostMain</pre>
 */
public final class QueryCostMain {
    private QueryCostMain() {
    }

    public static void main(String[] args) {
        Encoders.STRING();
        Encoders.LONG();
        long t0 = System.nanoTime();
        for (int i = 0; i < 14; i++) {
            CartWatch.query();
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < 14; i++) {
            FraudSessions.query();
        }
        long t2 = System.nanoTime();
        for (int i = 0; i < 12; i++) {
            RunningCount.query();
        }
        long t3 = System.nanoTime();
        for (int i = 0; i < 14; i++) {
            TtlSessions.query();
        }
        long t4 = System.nanoTime();
        System.out.printf("QUERIES cart=%.0f fraud=%.0f counts=%.0f ttl=%.0f total=%.0f ms%n", (t1 - t0) / 1e6,
                (t2 - t1) / 1e6, (t3 - t2) / 1e6, (t4 - t3) / 1e6, (t4 - t0) / 1e6);
    }
}
