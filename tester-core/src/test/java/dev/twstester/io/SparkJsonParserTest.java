package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** The conversions of {@link SparkJsonParser} one by one ({@link JsonLinesTest}: the reader of files). */
class SparkJsonParserTest {
    private static final StructType SCHEMA = new StructType().add("s", DataTypes.StringType)
            .add("ts", DataTypes.TimestampType).add("y", DataTypes.ByteType)
            .add("dec", DataTypes.createDecimalType(5, 2)).add("dt", DataTypes.DateType)
            .add("inner", new StructType().add("n", DataTypes.IntegerType));
    private static final SparkJsonParser READER = SparkJsonParser.forSchema(SCHEMA);
    /** Every flat type Spark's JSON rules here cover (cli's SparkJsonDifferentialTest checks them against Spark). */
    private static final StructType FLAT = new StructType().add("s", DataTypes.StringType)
            .add("b", DataTypes.BooleanType).add("y", DataTypes.ByteType).add("h", DataTypes.ShortType)
            .add("i", DataTypes.IntegerType).add("l", DataTypes.LongType).add("f", DataTypes.FloatType)
            .add("d", DataTypes.DoubleType).add("dec", DataTypes.createDecimalType(5, 2)).add("dt", DataTypes.DateType)
            .add("ts", DataTypes.TimestampType).add("bin", DataTypes.BinaryType);
    /** Structs, arrays and maps, nested. */
    private static final StructType NESTED = new StructType().add("id", DataTypes.StringType)
            .add("tags", DataTypes.createArrayType(DataTypes.StringType))
            .add("attrs", DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType))
            .add("inner", new StructType().add("n", DataTypes.IntegerType).add("when", DataTypes.TimestampType)
                    .add("deep", new StructType().add("v", DataTypes.StringType)))
            .add("list", DataTypes.createArrayType(new StructType().add("n", DataTypes.LongType)));

    private static Row one(String line) throws SparkJsonParser.Unreadable {
        SparkJsonParser.Result r = READER.parse(line);
        assertThat(r.rows()).as(line).hasSize(1);
        return r.rows().get(0);
    }

    private static long micros(String instant) {
        Instant i = Instant.parse(instant);
        return i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
    }

    @Test
    void timestampsAreReadWithSparksCastRulesInUtc() {
        assertThat(SparkJsonParser.timestampMicros("2024-05-01 10:00:00")).isEqualTo(micros("2024-05-01T10:00:00Z"));
        assertThat(SparkJsonParser.timestampMicros("2024-05-01T10:00:00Z")).isEqualTo(micros("2024-05-01T10:00:00Z"));
        assertThat(SparkJsonParser.timestampMicros("2024-05-01T12:00:00+02:00")).isEqualTo(micros("2024-05-01T10:00:00Z"));
        assertThat(SparkJsonParser.timestampMicros("2024-05-01")).isEqualTo(micros("2024-05-01T00:00:00Z"));
        assertThat(SparkJsonParser.timestampMicros("2024-05-01T10:00:00.1234567Z"))
                .as("digits past microseconds are dropped").isEqualTo(micros("2024-05-01T10:00:00.123456Z"));
        assertThat(SparkJsonParser.timestampMicros("2024-05-01T10:00:00GMT+01:00"))
                .as("GMT removed, Spark's fallback").isEqualTo(micros("2024-05-01T09:00:00Z"));
        assertThat(SparkJsonParser.timestampMicros("10:61")).isNull();
        assertThat(SparkJsonParser.timestampMicros("yesterday")).isNull();
    }

    @Test
    void datesAreReadWithSparksCastRulesAndDayNumbers() {
        assertThat(SparkJsonParser.dateDays("2024-05-01")).isEqualTo(19844);
        assertThat(SparkJsonParser.dateDays("2024-05-01T23:59:59Z")).isEqualTo(19844);
        assertThat(SparkJsonParser.dateDays("2024-5-1")).isEqualTo(19844);
        assertThat(SparkJsonParser.dateDays("2024")).isEqualTo(19723);
        assertThat(SparkJsonParser.dateDays("2024-02-30")).isNull();
        assertThat(SparkJsonParser.dateDays("x")).isNull();
    }

    @Test
    void theIssuesThreeLinesAreRead() throws Exception {
        Timestamp ten = Timestamp.from(Instant.parse("2024-05-01T10:00:00Z"));
        assertThat(one("{\"s\": 123, \"ts\": \"2024-05-01 10:00:00\"}"))
                .isEqualTo(RowFactory.create("123", ten, null, null, null, null));
        assertThat(one("{\"ts\": 1714557600}").getTimestamp(1)).isEqualTo(ten);
        assertThat(one("{\"ts\": 1714557600000}").getTimestamp(1).toInstant())
                .isEqualTo(Instant.parse("+56302-03-03T16:00:00Z"));
    }

    @Test
    void nonStringsForAStringAreTheirExactJsonText() throws Exception {
        assertThat(one("{\"s\": 1.50}").getString(0)).isEqualTo("1.50");
        assertThat(one("{\"s\": 1e3}").getString(0)).isEqualTo("1e3");
        assertThat(one("{\"s\": true}").getString(0)).isEqualTo("true");
        assertThat(one("{\"s\": {\"a\": [1, null],  \"b\": \"é\"}}").getString(0)).isEqualTo("{\"a\": [1, null],  \"b\": \"é\"}");
    }

    @Test
    void numbersFollowJacksonAndSparksDecimal() throws Exception {
        assertThat(one("{\"y\": 200}").get(2)).as("Jackson's getByteValue wraps 128..255").isEqualTo((byte) -56);
        assertThat(one("{\"dec\": 1.005}").get(3)).isEqualTo(new BigDecimal("1.01"));
        assertThat(one("{\"dec\": \"1,2.5\"}").get(3)).as("commas removed").isEqualTo(new BigDecimal("12.50"));
        SparkJsonParser.Result tooBig = READER.parse("{\"s\": \"x\", \"dec\": 999.995}");
        assertThat(tooBig.rows()).containsExactly(RowFactory.create("x", null, null, null, null, null));
        assertThat(tooBig.problems()).containsExactly("field \"dec\": 999.995 does not fit decimal(5,2)");
    }

    @Test
    void hugeAndTinyExponentsNeitherBuildTheirDigitsNorQuoteThem() throws Exception {
        SparkJsonParser.Result huge = READER.parse("{\"s\": \"x\", \"dec\": 1.21e100000000}");
        assertThat(huge.rows()).containsExactly(RowFactory.create("x", null, null, null, null, null));
        assertThat(huge.problems()).containsExactly("field \"dec\": 1.21E+100000000 does not fit decimal(5,2)");
        assertThat(one("{\"dec\": 1e-100000000}").get(3)).isEqualTo(new BigDecimal("0.00"));
        assertThat(one("{\"dec\": -4e-3}").get(3)).as("rounds half up to the scale").isEqualTo(new BigDecimal("0.00"));
        assertThat(one("{\"dec\": 999.994}").get(3)).isEqualTo(new BigDecimal("999.99"));
    }

    @Test
    void aBadNestedValueNullsOnlyItsFieldAndIsNamedByItsPath() throws Exception {
        SparkJsonParser.Result r = READER.parse("{\"s\": \"x\", \"inner\": {\"n\": \"one\"}, \"y\": 1}");
        assertThat(r.rows()).containsExactly(RowFactory.create("x", null, (byte) 1, null, null, RowFactory.create((Object) null)));
        assertThat(r.problems()).containsExactly("field \"inner.n\": cannot read \"one\" as int");
    }

    @Test
    void aTopLevelArrayIsItsRowsAndABlankLineNone() throws Exception {
        assertThat(READER.parse("[{\"s\": \"a\"}, {\"s\": \"b\"}]").rows()).extracting(r -> r.getString(0))
                .containsExactly("a", "b");
        assertThat(READER.parse("[]").rows()).isEmpty();
        assertThat(READER.parse("  ").rows()).isEmpty();
    }

    @Test
    void whatJsonRowsWritesIsReadBackAsTheSameRow() throws Exception {
        StructType schema = FLAT.add("nested", NESTED);
        SparkJsonParser reader = SparkJsonParser.forSchema(schema);
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        String[] instants = {"2024-05-01T10:00:00.123456Z", "1970-01-01T00:00:00Z", "1900-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999Z", "2000-02-29T12:00:00Z"};
        for (int n = 0; n < 200; n++) {
            Row nested = RowFactory.create("id" + n, scala.jdk.javaapi.CollectionConverters.asScala(List.of("a", "b")).toSeq(),
                    scala.collection.immutable.Map$.MODULE$.from(scala.jdk.javaapi.CollectionConverters.asScala(
                            java.util.Map.of("k", n))), RowFactory.create(n, null, RowFactory.create("v")),
                    scala.jdk.javaapi.CollectionConverters.asScala(List.of(RowFactory.create((long) n))).toSeq());
            Row row = RowFactory.create("s" + random.nextInt(), random.nextBoolean(), (byte) random.nextInt(256),
                    (short) random.nextInt(), random.nextInt(), random.nextLong(),
                    random.nextInt(5) == 0 ? Float.NaN : (float) random.nextDouble(),
                    random.nextInt(5) == 0 ? Double.NEGATIVE_INFINITY : random.nextDouble() * 1e10,
                    BigDecimal.valueOf(random.nextInt(99999), 2), java.sql.Date.valueOf("2024-05-0" + (1 + random.nextInt(9))),
                    Timestamp.from(Instant.parse(instants[random.nextInt(instants.length)])),
                    new byte[] {(byte) random.nextInt(), 0, -1}, nested);
            String json = dev.twstester.io.JsonRows.toJson(row, schema).toString();
            SparkJsonParser.Result back = reader.parse(json);
            assertThat(back.problems()).as(json).isEmpty();
            assertThat(back.rows()).as(json).containsExactly(row);
        }
    }

    @Test
    void aBase64ValueThatStopsJacksonMidwayIsARowOfNullsWithAWarning() throws Exception {
        SparkJsonParser reader = SparkJsonParser.forSchema(new StructType().add("s", "string").add("bin", "binary"));
        SparkJsonParser.Result r = reader.parse("{\"s\": \"x\", \"bin\": \"A\", \"i\": 1}");
        assertThat(r.rows()).containsExactly(RowFactory.create(null, null));
        assertThat(r.problems()).containsExactly("every field (Jackson stops inside the line: Unexpected character"
                + " ('i' (code 105)): was expecting comma to separate Object entries)");
        SparkJsonParser.Result padding = reader.parse("{\"s\": \"x\", \"bin\": \"AQ\"}");
        assertThat(padding.rows()).containsExactly(RowFactory.create("x", null));
        assertThat(padding.problems()).hasSize(1).allMatch(p -> p.startsWith("field \"bin\": not valid base64 for binary: "));
    }

    @Test
    void linesSparkReadsAsRowsOfNullsAreUnreadable() {
        for (String line : List.of("{\"s\": ", "5", "\"x\"", "null", "[1]", "[null]", "{\"s\": \"x\",}")) {
            assertThatThrownBy(() -> READER.parse(line)).as(line).isInstanceOf(SparkJsonParser.Unreadable.class);
        }
    }
}
