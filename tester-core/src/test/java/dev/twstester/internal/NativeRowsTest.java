package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.Test;

import scala.Tuple2;
import scala.Tuple3;

/**
 * The native codec against Spark's own encoder ({@link CatalystCodec}): the same bytes, the same
 * decoded objects, the same order, the same errors, for every covered shape.
 */
class NativeRowsTest {

    public enum Color { RED, GREEN, BLUE }

    /** Java-serializable, for the fallback. */
    public static class Blob implements java.io.Serializable {
        public int n = 3;
    }

    /** The same schema as {@link PrimitiveN}, nullable. */
    public static class BoxedN {
        private Integer n;
        public Integer getN() { return n; }
        public void setN(Integer n) { this.n = n; }
    }

    public static class PrimitiveN {
        private int n = 5;
        public int getN() { return n; }
        public void setN(int n) { this.n = n; }
    }

    /** Orderable fields only (no maps), for Spark SQL's order. */
    public static class Sortable {
        private Double d; private float f; private String s; private byte[] b; private BigDecimal dec;
        private List<Integer> list; private Point p; private Timestamp ts; private LocalDate day; private Boolean flag;
        private long[] longs;

        public Double getD() { return d; } public void setD(Double v) { d = v; }
        public float getF() { return f; } public void setF(float v) { f = v; }
        public String getS() { return s; } public void setS(String v) { s = v; }
        public byte[] getB() { return b; } public void setB(byte[] v) { b = v; }
        public BigDecimal getDec() { return dec; } public void setDec(BigDecimal v) { dec = v; }
        public List<Integer> getList() { return list; } public void setList(List<Integer> v) { list = v; }
        public Point getP() { return p; } public void setP(Point v) { p = v; }
        public Timestamp getTs() { return ts; } public void setTs(Timestamp v) { ts = v; }
        public LocalDate getDay() { return day; } public void setDay(LocalDate v) { day = v; }
        public Boolean getFlag() { return flag; } public void setFlag(Boolean v) { flag = v; }
        public long[] getLongs() { return longs; } public void setLongs(long[] v) { longs = v; }
    }

    /** A getter that fails. */
    public static class AngryGetter {
        public String getName() { throw new IllegalStateException("no name today"); }
        public void setName(String name) { }
    }

    /** A bean whose getter encodes another bean of its type (with the same shared codec) while it is being encoded. */
    public static class Reentrant {
        private String name = "outer";
        private long count = 7;
        private String inner;
        public String getName() {
            if (name.equals("outer")) {
                Reentrant other = new Reentrant();
                other.setName("a much longer inner name that takes more room in the row's buffer");
                other.setCount(-1);
                inner = java.util.HexFormat.of().formatHex(RowCodec.of(Encoders.bean(Reentrant.class)).encode(other));
            }
            return name;
        }
        public void setName(String name) { this.name = name; }
        public long getCount() { return count; }
        public void setCount(long count) { this.count = count; }
        public String getInner() { return inner; }
        public void setInner(String inner) { this.inner = inner; }
    }

    /** A setter that fails. */
    public static class AngrySetter {
        public String getName() { return "x"; }
        public void setName(String name) { throw new IllegalArgumentException("read-only: " + name); }
    }

    /** A map with dates for keys. */
    public static class DayMap {
        private Map<LocalDate, BigDecimal> byDay;
        public Map<LocalDate, BigDecimal> getByDay() { return byDay; }
        public void setByDay(Map<LocalDate, BigDecimal> v) { byDay = v; }
    }

    /** Concrete list classes. */
    public static class ConcreteLists {
        private ArrayList<String> names;
        public ArrayList<String> getNames() { return names; }
        public void setNames(ArrayList<String> v) { names = v; }
    }

    public static class Linked {
        private java.util.LinkedList<String> names;
        public java.util.LinkedList<String> getNames() { return names; }
        public void setNames(java.util.LinkedList<String> v) { names = v; }
    }

    /** A BigInteger field. */
    public static class Big {
        private BigInteger n;
        public BigInteger getN() { return n; }
        public void setN(BigInteger n) { this.n = n; }
    }

    /** A nested bean. */
    public static class Point {
        private int x;
        private Long y;
        private String label;

        public Point() {
        }

        Point(int x, Long y, String label) {
            this.x = x;
            this.y = y;
            this.label = label;
        }

        public int getX() { return x; }
        public void setX(int x) { this.x = x; }
        public Long getY() { return y; }
        public void setY(Long y) { this.y = y; }
        public String getLabel() { return label; }
        public void setLabel(String label) { this.label = label; }
    }

    /** Every covered field kind. */
    public static class Everything {
        private boolean pBool; private byte pByte; private short pShort; private int pInt; private long pLong;
        private float pFloat; private double pDouble;
        private Boolean bBool; private Byte bByte; private Short bShort; private Integer bInt; private Long bLong;
        private Float bFloat; private Double bDouble;
        private String text; private byte[] bin; private Timestamp ts; private Instant instant; private Date date;
        private LocalDate localDate; private LocalDateTime localDateTime; private BigDecimal dec; private BigInteger bigInt;
        private Color color; private int[] ints; private double[] doubles; private String[] names; private List<String> tags;
        private List<Point> points; private Map<String, Long> counts; private Map<Integer, Point> byId; private Point point;
        private List<List<Integer>> nested; private Point[] pointArray; private List<Timestamp> times;
        private List<BigDecimal> decs; private Map<String, List<String>> multi; private boolean[] flags;
        private Color[] colors; private List<Color> colorList; private Map<Color, Color> colorMap;

        public boolean isPBool() { return pBool; } public void setPBool(boolean v) { pBool = v; }
        public byte getPByte() { return pByte; } public void setPByte(byte v) { pByte = v; }
        public short getPShort() { return pShort; } public void setPShort(short v) { pShort = v; }
        public int getPInt() { return pInt; } public void setPInt(int v) { pInt = v; }
        public long getPLong() { return pLong; } public void setPLong(long v) { pLong = v; }
        public float getPFloat() { return pFloat; } public void setPFloat(float v) { pFloat = v; }
        public double getPDouble() { return pDouble; } public void setPDouble(double v) { pDouble = v; }
        public Boolean getBBool() { return bBool; } public void setBBool(Boolean v) { bBool = v; }
        public Byte getBByte() { return bByte; } public void setBByte(Byte v) { bByte = v; }
        public Short getBShort() { return bShort; } public void setBShort(Short v) { bShort = v; }
        public Integer getBInt() { return bInt; } public void setBInt(Integer v) { bInt = v; }
        public Long getBLong() { return bLong; } public void setBLong(Long v) { bLong = v; }
        public Float getBFloat() { return bFloat; } public void setBFloat(Float v) { bFloat = v; }
        public Double getBDouble() { return bDouble; } public void setBDouble(Double v) { bDouble = v; }
        public String getText() { return text; } public void setText(String v) { text = v; }
        public byte[] getBin() { return bin; } public void setBin(byte[] v) { bin = v; }
        public Timestamp getTs() { return ts; } public void setTs(Timestamp v) { ts = v; }
        public Instant getInstant() { return instant; } public void setInstant(Instant v) { instant = v; }
        public Date getDate() { return date; } public void setDate(Date v) { date = v; }
        public LocalDate getLocalDate() { return localDate; } public void setLocalDate(LocalDate v) { localDate = v; }
        public LocalDateTime getLocalDateTime() { return localDateTime; } public void setLocalDateTime(LocalDateTime v) { localDateTime = v; }
        public BigDecimal getDec() { return dec; } public void setDec(BigDecimal v) { dec = v; }
        public BigInteger getBigInt() { return bigInt; } public void setBigInt(BigInteger v) { bigInt = v; }
        public Color getColor() { return color; } public void setColor(Color v) { color = v; }
        public int[] getInts() { return ints; } public void setInts(int[] v) { ints = v; }
        public double[] getDoubles() { return doubles; } public void setDoubles(double[] v) { doubles = v; }
        public String[] getNames() { return names; } public void setNames(String[] v) { names = v; }
        public List<String> getTags() { return tags; } public void setTags(List<String> v) { tags = v; }
        public List<Point> getPoints() { return points; } public void setPoints(List<Point> v) { points = v; }
        public Map<String, Long> getCounts() { return counts; } public void setCounts(Map<String, Long> v) { counts = v; }
        public Map<Integer, Point> getById() { return byId; } public void setById(Map<Integer, Point> v) { byId = v; }
        public Point getPoint() { return point; } public void setPoint(Point v) { point = v; }
        public List<List<Integer>> getNested() { return nested; } public void setNested(List<List<Integer>> v) { nested = v; }
        public Point[] getPointArray() { return pointArray; } public void setPointArray(Point[] v) { pointArray = v; }
        public List<Timestamp> getTimes() { return times; } public void setTimes(List<Timestamp> v) { times = v; }
        public List<BigDecimal> getDecs() { return decs; } public void setDecs(List<BigDecimal> v) { decs = v; }
        public Map<String, List<String>> getMulti() { return multi; } public void setMulti(Map<String, List<String>> v) { multi = v; }
        public boolean[] getFlags() { return flags; } public void setFlags(boolean[] v) { flags = v; }
        public Color[] getColors() { return colors; } public void setColors(Color[] v) { colors = v; }
        public List<Color> getColorList() { return colorList; } public void setColorList(List<Color> v) { colorList = v; }
        public Map<Color, Color> getColorMap() { return colorMap; } public void setColorMap(Map<Color, Color> v) { colorMap = v; }
    }

    // ------------------------------------------------------------------ generators

    static final class Gen {
        final SplittableRandom r;

        Gen(long seed) {
            r = new SplittableRandom(seed);
        }

        boolean nul() {
            return r.nextInt(6) == 0;
        }

        String string() {
            String[] pool = {"", "a", "B", "é", "\uD83D\uDE00", "exactly8", "exactly8+", "z".repeat(40), "日本語", "\u0000"};
            return nul() ? null : pool[r.nextInt(pool.length)] + (r.nextBoolean() ? "" : Integer.toString(r.nextInt(1000)));
        }

        long anyLong() {
            return switch (r.nextInt(4)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> r.nextLong(-1000, 1000);
                default -> r.nextLong();
            };
        }

        Timestamp timestamp() {
            if (nul()) {
                return null;
            }
            // from year 1 to 9999, sometimes before 1582 (Julian) or 1970
            long ms = r.nextLong(-62_135_596_800_000L, 253_402_300_799_000L);
            Timestamp t = new Timestamp(ms);
            t.setNanos(r.nextInt(1_000_000_000));
            return t;
        }

        Instant instant() {
            return nul() ? null : Instant.ofEpochSecond(r.nextLong(-62_135_596_800L, 253_402_300_799L), r.nextInt(1_000_000_000));
        }

        BigDecimal decimal() {
            if (nul()) {
                return null;
            }
            return switch (r.nextInt(5)) {
                case 0 -> new BigDecimal("99999999999999999999.999999999999999999");
                case 1 -> new BigDecimal("-0.0000000000000000005");
                case 2 -> BigDecimal.valueOf(r.nextLong(), r.nextInt(25));
                case 3 -> new BigDecimal("1.23456789012345678901234567");
                default -> BigDecimal.valueOf(r.nextInt(1000) - 500, 2);
            };
        }

        Point point() {
            return nul() ? null : new Point(r.nextInt(), r.nextBoolean() ? null : anyLong(), string());
        }

        <E> List<E> list(java.util.function.Supplier<E> e) {
            if (nul()) {
                return null;
            }
            int n = r.nextInt(4);
            List<E> list = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                list.add(e.get());
            }
            return list;
        }

        Sortable sortable() {
            Sortable v = new Sortable();
            double[] doubles = {Double.NaN, -0.0, 0.0, Double.NEGATIVE_INFINITY, 1.0, -1.0};
            v.d = nul() ? null : doubles[r.nextInt(doubles.length)];
            v.f = new float[] {Float.NaN, -0.0f, 0.0f, 2f}[r.nextInt(4)];
            v.s = r.nextBoolean() ? string() : null;
            v.b = nul() ? null : new byte[] {(byte) r.nextInt(3), (byte) (r.nextInt(3) - 1)};
            v.dec = r.nextBoolean() ? null : BigDecimal.valueOf(r.nextInt(5) - 2, r.nextInt(3));
            v.list = list(() -> nul() ? null : r.nextInt(3));
            v.p = r.nextBoolean() ? null : new Point(r.nextInt(2), nul() ? null : (long) r.nextInt(2), null);
            v.ts = r.nextBoolean() ? null : new Timestamp(r.nextInt(3) * 1000L - 1000);
            v.day = r.nextBoolean() ? null : LocalDate.ofEpochDay(r.nextInt(3) - 1);
            v.flag = nul() ? null : r.nextBoolean();
            v.longs = nul() ? null : r.longs(r.nextInt(3), -1, 2).toArray();
            return v;
        }

        Everything everything() {
            Everything v = new Everything();
            v.pBool = r.nextBoolean(); v.pByte = (byte) r.nextInt(); v.pShort = (short) r.nextInt(); v.pInt = r.nextInt();
            v.pLong = anyLong();
            float[] floats = {Float.NaN, -0.0f, 0.0f, Float.NEGATIVE_INFINITY, 1.5f, Float.MIN_VALUE};
            double[] doubles = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, -2.25, Double.MAX_VALUE};
            v.pFloat = floats[r.nextInt(floats.length)];
            v.pDouble = doubles[r.nextInt(doubles.length)];
            v.bBool = nul() ? null : r.nextBoolean(); v.bByte = nul() ? null : (byte) r.nextInt();
            v.bShort = nul() ? null : (short) r.nextInt(); v.bInt = nul() ? null : r.nextInt();
            v.bLong = nul() ? null : anyLong(); v.bFloat = nul() ? null : floats[r.nextInt(floats.length)];
            v.bDouble = nul() ? null : doubles[r.nextInt(doubles.length)];
            v.text = string();
            v.bin = nul() ? null : new byte[r.nextInt(12)];
            if (v.bin != null) {
                for (int i = 0; i < v.bin.length; i++) {
                    v.bin[i] = (byte) r.nextInt();
                }
            }
            v.ts = timestamp();
            v.instant = instant();
            v.date = nul() ? null : new Date(r.nextLong(-62_135_596_800_000L, 253_402_300_799_000L));
            v.localDate = nul() ? null : LocalDate.ofEpochDay(r.nextLong(-719_162, 2_932_896));
            v.localDateTime = nul() ? null : LocalDateTime.ofEpochSecond(r.nextLong(-62_135_596_800L, 253_402_300_799L),
                    r.nextInt(1_000_000_000), java.time.ZoneOffset.UTC);
            v.dec = decimal();
            v.bigInt = nul() ? null : BigInteger.valueOf(anyLong()).multiply(BigInteger.valueOf(r.nextInt(1000)));
            v.color = nul() ? null : Color.values()[r.nextInt(3)];
            v.ints = nul() ? null : r.ints(r.nextInt(5)).toArray();
            v.doubles = nul() ? null : Arrays.stream(new double[r.nextInt(4)]).map(x -> doubles[r.nextInt(doubles.length)]).toArray();
            List<String> names = list(this::string);
            v.names = names == null ? null : names.toArray(new String[0]);
            v.tags = list(this::string);
            v.points = list(this::point);
            List<String> keys = list(this::string);
            if (keys != null) {
                v.counts = new LinkedHashMap<>();
                for (String k : keys) {
                    if (k != null) {
                        v.counts.put(k, nul() ? null : anyLong());
                    }
                }
            }
            if (!nul()) {
                v.byId = new HashMap<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    v.byId.put(r.nextInt(), point());
                }
            }
            v.point = point();
            v.nested = list(() -> list(() -> nul() ? null : r.nextInt()));
            List<Point> arr = list(this::point);
            v.pointArray = arr == null ? null : arr.toArray(new Point[0]);
            v.times = list(this::timestamp);
            v.decs = list(this::decimal);
            if (!nul()) {
                v.multi = new HashMap<>();
                v.multi.put("k" + r.nextInt(3), list(this::string));
            }
            if (!nul()) {
                v.flags = new boolean[r.nextInt(10)];
                for (int i = 0; i < v.flags.length; i++) {
                    v.flags[i] = r.nextBoolean();
                }
            }
            List<Color> colors = list(() -> nul() ? null : Color.values()[r.nextInt(3)]);
            v.colors = colors == null ? null : colors.toArray(new Color[0]);
            v.colorList = list(() -> nul() ? null : Color.values()[r.nextInt(3)]);
            if (!nul()) {
                v.colorMap = new java.util.EnumMap<>(Color.class);
                v.colorMap.put(Color.values()[r.nextInt(3)], nul() ? null : Color.BLUE);
            }
            return v;
        }
    }

    // ------------------------------------------------------------------ comparison

    private static <T> CatalystCodec<T> spark(Encoder<T> encoder) {
        return new CatalystCodec<>(encoder, "test");
    }

    private static <T> NativeCodec<T> nativeOf(Encoder<T> encoder) {
        RowCodec<T> codec = RowCodec.create(encoder);
        assertThat(codec.path()).isEqualTo("native");
        return (NativeCodec<T>) codec;
    }

    /** Same bytes, same decoded object (field by field, same classes), same schema, same order. */
    private static <T> void assertSame(Encoder<T> encoder, List<T> values, long seed) {
        NativeCodec<T> mine = nativeOf(encoder);
        CatalystCodec<T> spark = spark(encoder);
        assertThat(mine.schema()).isEqualTo(spark.schema());
        assertThat(mine.isSerializedAsStruct()).isEqualTo(spark.isSerializedAsStruct());
        List<byte[]> encoded = new ArrayList<>();
        for (T v : values) {
            byte[] expected;
            try {
                expected = spark.encode(v);
            } catch (RuntimeException e) {
                assertSameFailure(e, catchThrowable(() -> mine.encode(v)), "seed " + seed + ": encoding " + v);
                continue;
            }
            byte[] actual = mine.encode(v);
            assertThat(actual).as("seed %s: bytes of %s", seed, v).containsExactly(expected);
            T decoded = mine.decode(expected);
            T sparkDecoded = spark.decode(expected);
            if (sparkDecoded == null) {
                assertThat(decoded).isNull();
            } else {
                assertThat(decoded).as("seed %s: decoded %s", seed, v).usingRecursiveComparison().withStrictTypeChecking()
                        .withComparatorForType(Double::compare, Double.class)
                        .withComparatorForType(Float::compare, Float.class)
                        .isEqualTo(sparkDecoded);
                if (mine.isSerializedAsStruct()) {
                    assertThat(decoded).isNotSameAs(v);
                }
            }
            assertThat(mine.nestedBytes(expected)).containsExactly(spark.nestedBytes(expected));
            for (int n : new int[] {1, 3, 7}) {
                assertThat(mine.partition(expected, n)).isEqualTo(spark.partition(expected, n));
            }
            encoded.add(expected);
        }
        if (!(mine.schema().toString().contains("MapType"))) {
            for (byte[] a : encoded) {
                for (byte[] b : encoded) {
                    assertThat(Integer.signum(mine.compareNatural(a, b))).as("seed %s: order", seed)
                            .isEqualTo(Integer.signum(spark.compareNatural(a, b)));
                }
            }
        }
    }

    private static void assertSameFailure(Throwable expected, Throwable actual, String what) {
        assertThat(actual).as(what + ": Spark failed with " + expected).isNotNull();
        assertThat(actual.getClass()).as(what).isEqualTo(expected.getClass());
        assertThat(condition(actual)).as(what).isEqualTo(condition(expected));
        Throwable ec = expected.getCause();
        Throwable ac = actual.getCause();
        assertThat(ac == null ? null : ac.getClass()).as(what + ": cause " + ec + " vs " + ac)
                .isEqualTo(ec == null ? null : ec.getClass());
        if (ec != null) {
            assertThat(condition(ac)).as(what).isEqualTo(condition(ec));
            // (a hot ClassCastException may lose its message: HotSpot's OmitStackTraceInFastThrow)
            if (!(ec instanceof SparkThrowable) && !(ec instanceof ClassCastException)) {
                assertThat(ac.getMessage()).as(what).isEqualTo(ec.getMessage());
            }
        }
    }

    private static String condition(Throwable t) {
        return t instanceof SparkThrowable s ? s.getCondition() : null;
    }

    private static long seed() {
        return Long.getLong("twstester.seed", System.nanoTime());
    }

    private static <T> List<T> generate(long seed, Function<Gen, T> f, int n) {
        Gen g = new Gen(seed);
        List<T> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(f.apply(g));
        }
        return out;
    }

    // ------------------------------------------------------------------ tests

    @Test
    void beans_with_every_field_kind_match_spark_byte_for_byte() {
        long seed = seed();
        System.out.println("NativeRowsTest seed " + seed);
        assertSame(Encoders.bean(Everything.class), generate(seed, Gen::everything, 300), seed);
    }

    @Test
    void spark_sql_order_of_structs_arrays_and_atomic_values() {
        long seed = seed();
        System.out.println("NativeRowsTest order seed " + seed);
        assertSame(Encoders.bean(Sortable.class), generate(seed, Gen::sortable, 120), seed);
    }

    @Test
    void one_codec_encodes_and_decodes_on_many_threads_at_once() throws Exception {
        long seed = seed();
        List<Everything> values = generate(seed, Gen::everything, 200);
        CatalystCodec<Everything> spark = spark(Encoders.bean(Everything.class));
        List<byte[]> expected = new ArrayList<>();
        for (Everything v : values) {
            try {
                expected.add(spark.encode(v));
            } catch (RuntimeException e) {
                expected.add(null);
            }
        }
        RowCodec<Everything> shared = RowCodec.of(Encoders.bean(Everything.class));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    int checked = 0;
                    for (int round = 0; round < 5; round++) {
                        for (int i = 0; i < values.size(); i++) {
                            if (expected.get(i) == null) {
                                continue;
                            }
                            byte[] bytes = shared.encode(values.get(i));
                            assertThat(bytes).as("seed %s value %s", seed, i).containsExactly(expected.get(i));
                            Everything back = shared.decode(bytes);
                            assertThat(back.getText()).isEqualTo(values.get(i).getText());
                            assertThat(back.getTs()).isEqualTo(spark.decode(bytes).getTs());
                            checked++;
                        }
                    }
                    return checked;
                }));
            }
            for (java.util.concurrent.Future<Integer> f : results) {
                assertThat(f.get()).isPositive();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void an_empty_bean_edge_values_match_spark() {
        Everything empty = new Everything();
        Everything emptyCollections = new Everything();
        emptyCollections.setText("");
        emptyCollections.setBin(new byte[0]);
        emptyCollections.setInts(new int[0]);
        emptyCollections.setNames(new String[0]);
        emptyCollections.setTags(new ArrayList<>());
        emptyCollections.setCounts(new HashMap<>());
        emptyCollections.setNested(List.of(List.of()));
        emptyCollections.setPoint(new Point());
        Everything times = new Everything();
        Timestamp nanos = Timestamp.valueOf("1500-03-01 12:34:56.123456789");
        times.setTs(nanos);
        times.setDate(Date.valueOf("1000-02-29"));
        times.setLocalDate(LocalDate.of(1582, 10, 10));
        times.setInstant(Instant.parse("1969-12-31T23:59:59.999999999Z"));
        times.setLocalDateTime(LocalDateTime.of(1, 1, 1, 0, 0, 0, 1));
        times.setDec(new BigDecimal("-99999999999999999999.9999999999999999994"));
        assertSame(Encoders.bean(Everything.class), Arrays.asList(empty, emptyCollections, times), 0);
    }

    @Test
    void flat_encoders_match_spark() {
        long seed = seed();
        Gen g = new Gen(seed);
        assertSame(Encoders.STRING(), generate(seed, Gen::string, 50), seed);
        assertSame(Encoders.LONG(), Arrays.asList(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 42L, null), seed);
        assertSame(Encoders.INT(), Arrays.asList(0, -1, Integer.MIN_VALUE, 7, null), seed);
        assertSame(Encoders.SHORT(), Arrays.asList((short) 0, (short) -1, Short.MIN_VALUE, null), seed);
        assertSame(Encoders.BYTE(), Arrays.asList((byte) 0, (byte) -1, Byte.MIN_VALUE, null), seed);
        assertSame(Encoders.BOOLEAN(), Arrays.asList(true, false, null), seed);
        assertSame(Encoders.DOUBLE(), Arrays.asList(0.0, -0.0, Double.NaN, Double.NEGATIVE_INFINITY, 1e300, null), seed);
        assertSame(Encoders.FLOAT(), Arrays.asList(0.0f, -0.0f, Float.NaN, 1.5f, null), seed);
        assertSame(Encoders.BINARY(), Arrays.asList(new byte[0], new byte[] {1, -1, 0}, new byte[9], null), seed);
        assertSame(Encoders.TIMESTAMP(), generate(seed, Gen::timestamp, 40), seed);
        assertSame(Encoders.INSTANT(), generate(seed, Gen::instant, 40), seed);
        assertSame(Encoders.DATE(), Arrays.asList(Date.valueOf("1000-01-01"), Date.valueOf("2024-02-29"), null), seed);
        assertSame(Encoders.LOCALDATE(), Arrays.asList(LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31), null), seed);
        assertSame(Encoders.LOCALDATETIME(), Arrays.asList(LocalDateTime.of(1582, 10, 14, 1, 2, 3, 456789123), null), seed);
        assertSame(Encoders.DECIMAL(), generate(seed, Gen::decimal, 40), seed);
        assertSame(Encoders.tuple(Encoders.STRING(), Encoders.LONG()),
                Arrays.asList(new Tuple2<>("a", 1L), new Tuple2<>(null, null), new Tuple2<>("", Long.MIN_VALUE)), seed);
        assertSame(Encoders.tuple(Encoders.INT(), Encoders.bean(Point.class), Encoders.TIMESTAMP()),
                Arrays.asList(new Tuple3<>(1, new Point(1, 2L, "p"), g.timestamp()), new Tuple3<>(null, null, null)), seed);
        assertSame(Encoders.bean(Point.class), generate(seed, gen -> {
            Point p = gen.point();
            return p == null ? new Point() : p;
        }, 40), seed);
    }

    @Test
    void failures_are_sparks() {
        NativeCodec<Point> points = nativeOf(Encoders.bean(Point.class));
        assertSameFailure(catchThrowable(() -> spark(Encoders.bean(Point.class)).encode(null)),
                catchThrowable(() -> points.encode(null)), "null bean");
        Everything overflow = new Everything();
        overflow.setDec(new BigDecimal("1e30"));
        NativeCodec<Everything> everything = nativeOf(Encoders.bean(Everything.class));
        CatalystCodec<Everything> spark = spark(Encoders.bean(Everything.class));
        assertSameFailure(catchThrowable(() -> spark.encode(overflow)), catchThrowable(() -> everything.encode(overflow)),
                "decimal overflow");
        assertThat(((SparkThrowable) catchThrowable(() -> everything.encode(overflow)).getCause()).getCondition())
                .startsWith("NUMERIC_VALUE_OUT_OF_RANGE");
        Everything nullKey = new Everything();
        nullKey.setCounts(new HashMap<>());
        nullKey.getCounts().put(null, 1L);
        assertSameFailure(catchThrowable(() -> spark.encode(nullKey)), catchThrowable(() -> everything.encode(nullKey)),
                "null map key");
        Everything wrongElement = new Everything();
        @SuppressWarnings({"unchecked", "rawtypes"})
        List<String> raw = (List) List.of(1, 2);
        wrongElement.setTags(raw);
        assertSameFailure(catchThrowable(() -> spark.encode(wrongElement)),
                catchThrowable(() -> everything.encode(wrongElement)), "wrong list element type");
        @SuppressWarnings({"unchecked", "rawtypes"})
        Tuple2<String, Long> wrongTuple = (Tuple2) new Tuple2<>("a", 1);
        Encoder<Tuple2<String, Long>> tuples = Encoders.tuple(Encoders.STRING(), Encoders.LONG());
        assertSameFailure(catchThrowable(() -> spark(tuples).encode(wrongTuple)),
                catchThrowable(() -> nativeOf(tuples).encode(wrongTuple)), "wrong tuple element type");
        assertSameFailure(catchThrowable(() -> spark(Encoders.bean(AngryGetter.class)).encode(new AngryGetter())),
                catchThrowable(() -> nativeOf(Encoders.bean(AngryGetter.class)).encode(new AngryGetter())), "getter throws");
        byte[] angry = spark(Encoders.bean(AngrySetter.class)).encode(new AngrySetter());
        assertSameFailure(catchThrowable(() -> spark(Encoders.bean(AngrySetter.class)).decode(angry)),
                catchThrowable(() -> nativeOf(Encoders.bean(AngrySetter.class)).decode(angry)), "setter throws");
        @SuppressWarnings({"unchecked", "rawtypes"})
        Encoder<Object> longs = (Encoder) Encoders.LONG();
        assertSameFailure(catchThrowable(() -> spark(longs).encode(1)), catchThrowable(() -> RowCodec.of(longs).encode(1)),
                "an Integer for a Long");
        // the first entry's value fails (overflow) before the second entry's key (LocalDate.MAX's day overflows)
        Map<LocalDate, BigDecimal> byDay = new LinkedHashMap<>();
        byDay.put(LocalDate.of(2020, 1, 1), new BigDecimal("1e30"));
        byDay.put(LocalDate.MAX, BigDecimal.ONE);
        DayMap dayMap = new DayMap();
        dayMap.setByDay(byDay);
        assertSameFailure(catchThrowable(() -> spark(Encoders.bean(DayMap.class)).encode(dayMap)),
                catchThrowable(() -> nativeOf(Encoders.bean(DayMap.class)).encode(dayMap)), "map entries in order");
        Everything wrongThenNull = new Everything();
        Map<String, Long> counts = new LinkedHashMap<>();
        @SuppressWarnings({"unchecked", "rawtypes"})
        Map<String, Object> raw2 = (Map) counts;
        raw2.put("a", "x");
        raw2.put(null, 1L);
        wrongThenNull.setCounts(counts);
        assertSameFailure(catchThrowable(() -> spark.encode(wrongThenNull)),
                catchThrowable(() -> everything.encode(wrongThenNull)), "a wrong value before a null key");
        for (Encoder<?> primitive : List.of(Encoders.scalaInt(), Encoders.scalaLong(), Encoders.scalaBoolean(),
                Encoders.scalaDouble(), Encoders.scalaFloat(), Encoders.scalaShort(), Encoders.scalaByte())) {
            @SuppressWarnings("unchecked")
            Encoder<Object> e = (Encoder<Object>) primitive;
            // Spark unboxes a null given to a primitive encoder to 0 / false
            assertSame(e, Arrays.asList(null, spark(e).decode(spark(e).encode(null))), 0);
        }
        Big big = new Big();
        big.setN(BigInteger.TEN.pow(40));
        assertSameFailure(catchThrowable(() -> spark(Encoders.bean(Big.class)).encode(big)),
                catchThrowable(() -> nativeOf(Encoders.bean(Big.class)).encode(big)), "BigInteger overflow");
        big.setN(BigInteger.TEN.pow(37).negate());
        assertSame(Encoders.bean(Big.class), List.of(big, new Big()), 0);
        byte[] nullLong = spark(tuples).encode(new Tuple2<>("a", null));
        Encoder<Tuple2<String, Object>> primitive = Encoders.tuple(Encoders.STRING(), Encoders.scalaLong());
        // Spark reads a null column into a primitive as its default value, no error
        assertThat(nativeOf(primitive).decode(nullLong)).isEqualTo(spark(primitive).decode(nullLong))
                .isEqualTo(new Tuple2<>("a", 0L));
        byte[] nullN = spark(Encoders.bean(BoxedN.class)).encode(new BoxedN());
        assertThat(nativeOf(Encoders.bean(PrimitiveN.class)).decode(nullN).getN())
                .isEqualTo(spark(Encoders.bean(PrimitiveN.class)).decode(nullN).getN()).isZero();
        byte[] nullFlat = spark(Encoders.LONG()).encode(null);
        assertThat(nativeOf(Encoders.scalaLong()).decode(nullFlat)).isEqualTo(spark(Encoders.scalaLong()).decode(nullFlat));
        assertThatThrownBy(() -> everything.encode(overflow))
                .isInstanceOfSatisfying(org.apache.spark.SparkRuntimeException.class,
                        e -> assertThat(e.getCondition()).isEqualTo("EXPRESSION_ENCODING_FAILED"));
    }

    /** The thread's row buffer is not reused while a getter encodes a value of the same type during a row. */
    @Test
    void a_getter_that_encodes_with_the_same_codec_gets_its_own_buffer() {
        RowCodec<Reentrant> codec = RowCodec.of(Encoders.bean(Reentrant.class));
        Reentrant outer = new Reentrant();
        codec.encode(outer);
        // the columns in order: count, inner (set by the first encode), name, whose getter encodes another
        // Reentrant while count and inner are in the row's buffer
        byte[] bytes = codec.encode(outer);
        Reentrant back = codec.decode(bytes);
        assertThat(back.getCount()).isEqualTo(7);
        assertThat(back.name).isEqualTo("outer");
        Reentrant expectedInner = new Reentrant();
        expectedInner.setName("a much longer inner name that takes more room in the row's buffer");
        expectedInner.setCount(-1);
        assertThat(back.getInner()).isEqualTo(java.util.HexFormat.of().formatHex(codec.encode(expectedInner)));
        assertThat(bytes).containsExactly(spark(Encoders.bean(Reentrant.class)).encode(outer));
    }

    @Test
    void uncovered_encoders_fall_back_to_catalyst_naming_the_part() {
        RowCodec<Point> kryo = RowCodec.create(Encoders.kryo(Point.class));
        assertThat(kryo.isNative()).isFalse();
        assertThat(kryo.path()).startsWith("Catalyst (Spark's encoder): value: TransformingEncoder");
        RowCodec<Tuple2<String, Blob>> tupleWithKryo = RowCodec.create(
                Encoders.tuple(Encoders.STRING(), Encoders.javaSerialization(Blob.class)));
        assertThat(tupleWithKryo.path()).startsWith("Catalyst (Spark's encoder): _2: TransformingEncoder");
        assertThat(tupleWithKryo.decode(tupleWithKryo.encode(new Tuple2<>("a", new Blob())))._2().n).isEqualTo(3);
        ConcreteLists lists = new ConcreteLists();
        lists.setNames(new ArrayList<>(Arrays.asList("b", null, "a")));
        assertSame(Encoders.bean(ConcreteLists.class), List.of(lists, new ConcreteLists()), 0);
        RowCodec<Linked> linked = RowCodec.create(Encoders.bean(Linked.class));
        assertThat(linked.path()).isEqualTo("Catalyst (Spark's encoder): names: IterableEncoder"
                + " (java.util.LinkedList; java.util.List and Scala's immutable Seq, List, Vector and Set (not ArraySeq) are native)");
        Linked l = new Linked();
        l.setNames(new java.util.LinkedList<>(List.of("x")));
        assertThat(linked.decode(linked.encode(l)).getNames()).containsExactly("x");
        RowCodec<org.apache.spark.sql.Row> rows = RowCodec.create(Encoders.row(
                new org.apache.spark.sql.types.StructType().add("a", "string")));
        assertThat(rows.path()).isEqualTo("Catalyst (Spark's encoder): value: RowEncoder");
    }

    @Test
    void of_is_shared_by_equal_encoders_and_cheap() {
        RowCodec<Everything> first = RowCodec.of(Encoders.bean(Everything.class));
        assertThat(RowCodec.of(Encoders.bean(Everything.class))).isSameAs(first);
        assertThat(first.isNative()).isTrue();
        Encoder<Everything> encoder = Encoders.bean(Everything.class);
        long start = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            RowCodec.of(encoder);
        }
        assertThat((System.nanoTime() - start) / 1000).as("ns per of()").isLessThan(5_000);
        Encoder<Tuple2<String, Long>> tuples = Encoders.tuple(Encoders.STRING(), Encoders.LONG());
        RowCodec<Tuple2<String, Long>> tuple = RowCodec.of(tuples);
        assertThat(RowCodec.of(Encoders.tuple(Encoders.STRING(), Encoders.LONG()))).isSameAs(tuple);
    }
}
