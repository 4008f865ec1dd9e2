package dev.twstester.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Seeded value generators for {@link NativeCodecPropertyTest}. Every generator mixes a small pool of
 * common values (so that values tie and orders look further), the extremes of the type, and uniformly
 * random values; nullable values are null now and then.
 */
final class Gen {
    private final SplittableRandom r;
    private double wild = 0.03;

    Gen(long seed) {
        this.r = new SplittableRandom(seed);
    }

    /**
     * How often the {@code sane*} and {@code fitting*} generators give any value instead (extremes Spark
     * refuses included): 3% unless set. Shapes with many such values per object set it lower, so that most
     * objects still encode (each Spark failure costs a long message).
     */
    Gen wild(double probability) {
        this.wild = probability;
        return this;
    }

    boolean chance(double p) {
        return r.nextDouble() < p;
    }

    /** Uniform in {@code [lo, hi]}. */
    int between(int lo, int hi) {
        return lo + r.nextInt(hi - lo + 1);
    }

    long between(long lo, long hi) {
        return lo + r.nextLong(hi - lo + 1);
    }

    @SafeVarargs
    final <T> T oneOf(T... values) {
        return values[r.nextInt(values.length)];
    }

    /** {@code null} with probability 1/12, else a value. */
    <T> T nullable(Supplier<T> value) {
        return r.nextInt(12) == 0 ? null : value.get();
    }

    // ---- primitives ----

    boolean bool() {
        return r.nextBoolean();
    }

    byte byteValue() {
        return switch (r.nextInt(3)) {
            case 0 -> oneOf((byte) 0, (byte) 1, (byte) -1, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case 1 -> (byte) between(-3, 3);
            default -> (byte) r.nextInt();
        };
    }

    short shortValue() {
        return switch (r.nextInt(3)) {
            case 0 -> oneOf((short) 0, (short) 1, (short) -1, Short.MIN_VALUE, Short.MAX_VALUE, (short) 255, (short) 256);
            case 1 -> (short) between(-3, 3);
            default -> (short) r.nextInt();
        };
    }

    int intValue() {
        return switch (r.nextInt(4)) {
            case 0 -> oneOf(0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE + 1, Integer.MAX_VALUE - 1, 255, 256, -256, 65536);
            case 1 -> between(-3, 3);
            case 2 -> between(-100_000, 100_000);
            default -> r.nextInt();
        };
    }

    long longValue() {
        return switch (r.nextInt(4)) {
            case 0 -> oneOf(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
                    (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE + 1, 1L << 32, 255L, 256L);
            case 1 -> between(-3L, 3L);
            case 2 -> r.nextInt();
            default -> r.nextLong();
        };
    }

    float floatValue() {
        return switch (r.nextInt(5)) {
            case 0 -> oneOf(0f, -0f, 1f, -1f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
                    Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_NORMAL,
                    Float.intBitsToFloat(0x7fc00001), Float.intBitsToFloat(0xffc00000), Float.intBitsToFloat(0x7f800001));
            case 1 -> (float) between(-3, 3);
            case 2 -> (float) ((r.nextDouble() - 0.5) * 2e6);
            default -> Float.intBitsToFloat(r.nextInt());
        };
    }

    double doubleValue() {
        return switch (r.nextInt(5)) {
            case 0 -> oneOf(0d, -0d, 1d, -1d, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                    Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL,
                    Double.longBitsToDouble(0x7ff8000000000001L), Double.longBitsToDouble(0xfff8000000000000L),
                    Double.longBitsToDouble(0x7ff0000000000001L));
            case 1 -> (double) between(-3, 3);
            case 2 -> (r.nextDouble() - 0.5) * 2e9;
            default -> Double.longBitsToDouble(r.nextLong());
        };
    }

    // ---- strings and bytes ----

    /** Length: empty often, mostly short, sometimes hundreds of characters. */
    private int length() {
        int k = r.nextInt(100);
        if (k < 10) {
            return 0;
        } else if (k < 75) {
            return between(1, 10);
        } else if (k < 96) {
            return between(11, 60);
        }
        return between(200, 1200);
    }

    String string() {
        if (chance(0.15)) {
            return oneOf("", "a", "b", "A", "aa", "ab", "b\u0000", "\u00e9", "\uD83D\uDE00", "exactly8", "exactly8+");
        }
        int n = length();
        StringBuilder b = new StringBuilder(n + 4);
        while (b.length() < n) {
            int k = r.nextInt(100);
            if (k < 30) {
                b.append((char) between('a', 'c'));
            } else if (k < 55) {
                b.append((char) between(0x20, 0x7e));
            } else if (k < 62) {
                b.append((char) between(0x00, 0x1f));
            } else if (k < 72) {
                b.append((char) between(0x80, 0x7ff));
            } else if (k < 80) {
                char c = (char) between(0x800, 0xfffd);
                b.append(Character.isSurrogate(c) ? 'z' : c);
            } else if (k < 88) {
                b.appendCodePoint(between(0x10000, 0x10ffff));
            } else if (k < 93) {
                b.append((char) between(0xd800, 0xdbff)); // high surrogate, maybe unpaired
            } else if (k < 97) {
                b.append((char) between(0xdc00, 0xdfff)); // low surrogate, maybe unpaired
            } else {
                b.append(oneOf('\uffff', '\ufffe', '\ufeff', '\u0000'));
            }
        }
        return b.toString();
    }

    byte[] binary() {
        int n = chance(0.1) ? 0 : length();
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = chance(0.3) ? oneOf((byte) 0, (byte) 1, (byte) -1) : (byte) r.nextInt();
        }
        return bytes;
    }

    // ---- times ----

    private static final long YEAR_1_MILLIS = -62135596800000L;
    private static final long GREGORIAN_START_MILLIS = -12219292800000L; // 1582-10-15T00:00Z
    private static final long MAX_MICROS_MILLIS = Long.MAX_VALUE / 1000;

    /** Epoch milliseconds: modern, pre-1970, pre-1582, around the calendar switch and the zone's 1995 skip, far and extreme. */
    long epochMillis() {
        return epochMillis(10);
    }

    /** Epoch milliseconds in years 1..9999 or a little before (no far or extreme ones). */
    long saneEpochMillis() {
        return epochMillis(8);
    }

    private long epochMillis(int cases) {
        return switch (r.nextInt(cases)) {
            case 0, 1 -> between(-2208988800000L, 4102444800000L); // 1900..2100
            case 2 -> between(-86_400_000L * 400, 0L); // the years before 1970
            case 3, 4 -> between(YEAR_1_MILLIS - 86_400_000L * 365 * 100, GREGORIAN_START_MILLIS); // before 1582
            case 5 -> GREGORIAN_START_MILLIS + between(-86_400_000L * 40, 86_400_000L * 40);
            case 6 -> 788_832_000_000L + between(-86_400_000L * 3, 86_400_000L * 3); // 1995-01-01: Kiritimati skipped a day
            case 7 -> oneOf(0L, -1L, 1L, 999L, -999L, -1000L, 1000L, YEAR_1_MILLIS, GREGORIAN_START_MILLIS,
                    GREGORIAN_START_MILLIS - 1, 253402300799999L /* 9999-12-31T23:59:59.999Z */);
            case 8 -> between(-MAX_MICROS_MILLIS, MAX_MICROS_MILLIS); // up to +-292,000 years
            default -> oneOf(Long.MIN_VALUE, Long.MAX_VALUE, MAX_MICROS_MILLIS, -MAX_MICROS_MILLIS, MAX_MICROS_MILLIS + 1,
                    -MAX_MICROS_MILLIS - 1, Long.MIN_VALUE / 1000 - 1);
        };
    }

    private int nanos() {
        return switch (r.nextInt(3)) {
            case 0 -> 0;
            case 1 -> between(0, 999_999) * 1000; // whole microseconds
            default -> between(0, 999_999_999); // with nanoseconds below the microsecond
        };
    }

    /** Any timestamp, extremes included; with nanoseconds often. */
    Timestamp timestamp() {
        return timestamp(epochMillis());
    }

    /** A timestamp in years 1..9999 or a little before, and 3% of the time any timestamp. */
    Timestamp saneTimestamp() {
        return timestamp(chance(wild) ? epochMillis() : saneEpochMillis());
    }

    private Timestamp timestamp(long millis) {
        Timestamp t = new Timestamp(millis);
        if (chance(0.7)) {
            t.setNanos(nanos());
        }
        return t;
    }

    Date date() {
        return new Date(epochMillis());
    }

    Date saneDate() {
        return new Date(chance(wild) ? epochMillis() : saneEpochMillis());
    }

    /** An instant in years 1..9999 or a little before, and 3% of the time any instant. */
    Instant saneInstant() {
        return chance(wild) ? instant() : Instant.ofEpochSecond(Math.floorDiv(saneEpochMillis(), 1000L), nanos());
    }

    /** Any instant, Instant.MIN/MAX and the edges of Spark's microsecond range included. */
    Instant instant() {
        if (chance(0.08)) {
            return oneOf(Instant.MIN, Instant.MAX, Instant.EPOCH, Instant.ofEpochSecond(0, -1),
                    Instant.ofEpochSecond(Long.MAX_VALUE / 1_000_000, 775_807_000), // the largest microsecond
                    Instant.ofEpochSecond(Long.MAX_VALUE / 1_000_000, 775_808_000),
                    Instant.ofEpochSecond(Long.MIN_VALUE / 1_000_000 - 1, 224_192_000), // the smallest microsecond
                    Instant.ofEpochSecond(Long.MIN_VALUE / 1_000_000 - 1, 224_191_000));
        }
        return Instant.ofEpochSecond(Math.floorDiv(epochMillis(), 1000L), nanos());
    }

    /** A date in years 1..9999 or a little before, and 3% of the time any date. */
    LocalDate saneLocalDate() {
        return chance(wild) ? localDate() : localDate(5);
    }

    /** Any date: Spark's int day range, its edges and beyond (LocalDate.MIN/MAX). */
    LocalDate localDate() {
        return localDate(8);
    }

    private LocalDate localDate(int cases) {
        return switch (r.nextInt(cases)) {
            case 0, 1 -> LocalDate.ofEpochDay(between(-25_567, 47_482)); // 1900..2100
            case 2, 3 -> LocalDate.ofEpochDay(between(-719_162 - 36_500, -141_427)); // before 1582-10-15
            case 4 -> LocalDate.ofEpochDay(-141_427 + between(-40, 40));
            case 5 -> LocalDate.ofEpochDay(r.nextInt());
            case 6 -> LocalDate.ofEpochDay(oneOf((long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, 0L, -1L, -719_162L,
                    2_932_896L /* 9999-12-31 */));
            default -> oneOf(LocalDate.MIN, LocalDate.MAX, LocalDate.ofEpochDay(Integer.MAX_VALUE + 1L),
                    LocalDate.ofEpochDay(Integer.MIN_VALUE - 1L));
        };
    }

    private static final long MAX_MICROS_DAY = Long.MAX_VALUE / 86_400_000_000L; // 106751991

    /** Any date-time: Spark's microsecond range, its edges, beyond it, LocalDateTime.MIN/MAX. */
    LocalDateTime localDateTime() {
        if (chance(0.02)) {
            return oneOf(LocalDateTime.MIN, LocalDateTime.MAX);
        }
        LocalDate day = switch (r.nextInt(6)) {
            case 0 -> LocalDate.ofEpochDay(oneOf(MAX_MICROS_DAY, -MAX_MICROS_DAY - 1, MAX_MICROS_DAY + 1, -MAX_MICROS_DAY - 2));
            case 1 -> LocalDate.ofEpochDay(between(-MAX_MICROS_DAY, MAX_MICROS_DAY));
            default -> localDate();
        };
        return LocalDateTime.of(day, time());
    }

    /** A date-time in years 1..9999 or a little before, and 3% of the time any date-time. */
    LocalDateTime saneLocalDateTime() {
        return chance(wild) ? localDateTime() : LocalDateTime.of(localDate(5), time());
    }

    private LocalTime time() {
        LocalTime time = chance(0.2) ? oneOf(LocalTime.MIDNIGHT, LocalTime.MAX, LocalTime.NOON)
                : LocalTime.ofNanoOfDay(chance(0.5) ? between(0L, 86_399_999_999L) * 1000 : between(0L, 86_399_999_999_999L));
        return time;
    }

    // ---- decimals ----

    private static final BigInteger TEN_POW_38 = BigInteger.TEN.pow(38);

    BigInteger bigInteger() {
        return switch (r.nextInt(6)) {
            case 0 -> BigInteger.valueOf(between(-3L, 3L));
            case 1 -> oneOf(TEN_POW_38.subtract(BigInteger.ONE), TEN_POW_38, TEN_POW_38.negate().add(BigInteger.ONE),
                    TEN_POW_38.negate(), BigInteger.valueOf(Long.MAX_VALUE), BigInteger.valueOf(Long.MIN_VALUE),
                    BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE), BigInteger.TEN.pow(18), BigInteger.TEN.pow(18).subtract(BigInteger.ONE));
            case 2 -> BigInteger.valueOf(r.nextLong());
            default -> {
                BigInteger v = new BigInteger(between(0, 140), new java.util.Random(r.nextLong()));
                yield r.nextBoolean() ? v.negate() : v;
            }
        };
    }

    /** Many scales (negative too) and sizes, including ones that do not fit DecimalType(38,18) or round at the 19th decimal. */
    BigDecimal decimal() {
        return switch (r.nextInt(8)) {
            case 0 -> oneOf(BigDecimal.ZERO, BigDecimal.ONE, BigDecimal.ONE.negate(), new BigDecimal("0E-30"), new BigDecimal("0E+10"),
                    new BigDecimal("1E+19"), new BigDecimal("1E+20"), new BigDecimal("99999999999999999999.999999999999999999"),
                    new BigDecimal("99999999999999999999.9999999999999999995"), new BigDecimal("-99999999999999999999.9999999999999999994"),
                    new BigDecimal("100000000000000000000"), new BigDecimal("0.0000000000000000005"),
                    new BigDecimal("-0.0000000000000000005"), new BigDecimal("0.0000000000000000004999"),
                    new BigDecimal("1E-40"), new BigDecimal("123.456"), new BigDecimal(TEN_POW_38.subtract(BigInteger.ONE), 18),
                    new BigDecimal(TEN_POW_38, 18));
            case 1 -> BigDecimal.valueOf(between(-3L, 3L), between(-3, 3));
            case 2 -> new BigDecimal(BigInteger.valueOf(r.nextLong()), between(0, 18));
            case 3 -> new BigDecimal(bigInteger(), between(-25, 45));
            default -> {
                BigInteger unscaled = new BigInteger(between(0, 130), new java.util.Random(r.nextLong()));
                yield new BigDecimal(r.nextBoolean() ? unscaled.negate() : unscaled, between(-20, 40));
            }
        };
    }

    /** A decimal that fits DecimalType(38,18) (up to 19 integral digits), and 3% of the time any decimal. */
    BigDecimal fittingDecimal() {
        if (chance(0.03)) {
            return decimal();
        }
        return new BigDecimal(BigInteger.valueOf(r.nextLong() >> between(0, 63)), between(0, 25));
    }

    /** A BigInteger that fits DecimalType(38,0), and 3% of the time any. */
    BigInteger fittingBigInteger() {
        return chance(wild) ? bigInteger() : new BigInteger(between(0, 120), new java.util.Random(r.nextLong())).multiply(BigInteger.valueOf(between(-1, 1) | 1));
    }

    // ---- collections ----

    /** Empty often, mostly small, sometimes a few hundred elements. */
    int size() {
        int k = r.nextInt(100);
        if (k < 15) {
            return 0;
        } else if (k < 90) {
            return between(1, 5);
        } else if (k < 99) {
            return between(6, 40);
        }
        return between(100, 300);
    }

    /** Sizes of collections inside collections or beans in collections: empty often, else a few. */
    int smallSize() {
        int k = r.nextInt(100);
        return k < 20 ? 0 : k < 95 ? between(1, 3) : between(4, 12);
    }

    /** A list of one of several implementations (some refuse nulls, so the elements decide). */
    <T> List<T> list(Supplier<T> element) {
        return list(size(), element);
    }

    /** A list of {@link #smallSize()} elements, for nested collections. */
    <T> List<T> smallList(Supplier<T> element) {
        return list(smallSize(), element);
    }

    private <T> List<T> list(int n, Supplier<T> element) {
        List<T> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(element.get());
        }
        return switch (r.nextInt(4)) {
            case 0 -> new LinkedList<>(items);
            case 1 -> Collections.unmodifiableList(items);
            case 2 -> {
                @SuppressWarnings("unchecked")
                T[] array = (T[]) items.toArray();
                yield Arrays.asList(array);
            }
            default -> items;
        };
    }

    /** A map of one of several implementations; a null key now and then (Spark refuses it). */
    <K, V> Map<K, V> map(Supplier<K> key, Supplier<V> value) {
        return map(size(), key, value);
    }

    /** A map of {@link #smallSize()} entries, for nested collections. */
    <K, V> Map<K, V> smallMap(Supplier<K> key, Supplier<V> value) {
        return map(smallSize(), key, value);
    }

    private <K, V> Map<K, V> map(int n, Supplier<K> key, Supplier<V> value) {
        Map<K, V> map = chance(0.5) ? new HashMap<>() : new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            map.put(chance(0.0005) ? null : key.get(), value.get());
        }
        if (chance(0.1) && !map.containsKey(null)) {
            try {
                return new TreeMap<>(map);
            } catch (ClassCastException notComparable) {
                return map;
            }
        }
        return map;
    }
}
