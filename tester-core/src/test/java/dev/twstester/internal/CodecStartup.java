package dev.twstester.internal;

import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;

/**
 * Not a test: a main that measures, in a fresh JVM, the time to the first encode and decode of a
 * five-field bean through the native codec ({@code native}) or Spark's encoder ({@code catalyst}),
 * then the per-call cost of each. Run with the tester-core test classpath:
 * {@code java -cp target/test-classes:target/classes:$(cat cp.txt) dev.twstester.internal.CodecStartup native}
 * (add {@code -Xlog:class+load} to count the classes loaded).
 */
public final class CodecStartup {
    private CodecStartup() {
    }

    /** String, long, int, Instant and a nested list. */
    public static class Click {
        private String user;
        private long count;
        private int page;
        private Instant at;
        private List<String> tags;

        public String getUser() { return user; }
        public void setUser(String user) { this.user = user; }
        public long getCount() { return count; }
        public void setCount(long count) { this.count = count; }
        public int getPage() { return page; }
        public void setPage(int page) { this.page = page; }
        public Instant getAt() { return at; }
        public void setAt(Instant at) { this.at = at; }
        public List<String> getTags() { return tags; }
        public void setTags(List<String> tags) { this.tags = tags; }
    }

    public static void main(String[] args) {
        long start = System.nanoTime();
        boolean catalyst = args.length > 0 && args[0].equals("catalyst");
        Encoder<Click> encoder = Encoders.bean(Click.class);
        long built = System.nanoTime();
        RowCodec<Click> codec = catalyst ? new CatalystCodec<>(encoder, "measured") : RowCodec.of(encoder);
        long codecBuilt = System.nanoTime();
        Click click = new Click();
        click.setUser("ana");
        click.setCount(42);
        click.setPage(7);
        click.setAt(Instant.parse("2024-05-01T10:00:00.123456Z"));
        click.setTags(List.of("a", "bb"));
        Click back = codec.decode(codec.encode(click));
        byte[] once = codec.encode(click);
        int partition = codec.partition(once, 5) + codec.compareNatural(once, once);
        long first = System.nanoTime() - start;
        if (args.length > 1 && args[1].equals("of")) {
            for (int round = 0; round < 3; round++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < 10_000; i++) {
                    RowCodec.of(Encoders.bean(Click.class));
                }
                long t1 = System.nanoTime();
                Encoder<scala.Tuple2<String, Long>> tuple = Encoders.tuple(Encoders.STRING(), Encoders.LONG());
                RowCodec.of(tuple);
                long t2 = System.nanoTime();
                for (int i = 0; i < 10_000; i++) {
                    RowCodec.of(Encoders.tuple(Encoders.STRING(), Encoders.LONG()));
                }
                long t3 = System.nanoTime();
                System.out.printf("of(Encoders.bean(...)) %.0f ns (Encoders.bean itself included), of(tuple) %.0f ns%n",
                        (t1 - t0) / 1e4, (t3 - t2) / 1e4);
            }
            return;
        }
        System.out.printf("%s: first encode+decode %.0f ms after main started (Encoders.bean %.0f ms, codec %.0f ms,"
                + " first encode+decode+partition+compare %.0f ms) %s %s%n", codec.path(), first / 1e6,
                (built - start) / 1e6, (codecBuilt - built) / 1e6, (start + first - codecBuilt) / 1e6, back.getTags(),
                partition);
        if (args.length > 1 && args[1].equals("exit")) {
            return;
        }
        int n = 300_000;
        byte[] bytes = codec.encode(click);
        long sink = 0;
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += codec.encode(click).length;
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += codec.decode(bytes).getPage();
            }
            long t2 = System.nanoTime();
            System.out.printf("round %d: encode %.0f ns, decode %.0f ns%n", round, (t1 - t0) / (double) n,
                    (t2 - t1) / (double) n);
        }
        System.out.println(sink == 0 ? "" : "done");
    }
}
