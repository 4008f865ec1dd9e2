package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;


/** The quick parser makes exactly the row the exact way ({@link SparkJsonParser}) makes, and leaves every other line to it. */
class FlatJsonParserTest {

    private static final StructType SCHEMA = new StructType(new StructField[] {
        new StructField("s", DataTypes.StringType, true, Metadata.empty()),
        new StructField("b", DataTypes.BooleanType, true, Metadata.empty()),
        new StructField("y", DataTypes.ByteType, true, Metadata.empty()),
        new StructField("h", DataTypes.ShortType, true, Metadata.empty()),
        new StructField("i", DataTypes.IntegerType, false, Metadata.empty()),
        new StructField("l", DataTypes.LongType, true, Metadata.empty()),
        new StructField("f", DataTypes.FloatType, true, Metadata.empty()),
        new StructField("d", DataTypes.DoubleType, true, Metadata.empty()),
        new StructField("dt", DataTypes.DateType, true, Metadata.empty()),
        new StructField("ts", DataTypes.TimestampType, true, Metadata.empty()),
    });

    private static final SparkJsonParser EXACT = SparkJsonParser.forSchema(SCHEMA);
    private static final com.fasterxml.jackson.core.JsonFactory FACTORY = EXACT.factory();

    /** The exact way's row, or null when it gives no single clean row (then the quick way must not take the line). */
    private static Row exact(String line) throws SparkJsonParser.Unreadable {
        SparkJsonParser.Result r = EXACT.parse(line);
        return r.rows().size() == 1 && r.problems().isEmpty() && r.unknownFields().isEmpty() && r.notes().isEmpty()
                && !r.trailingText()
                ? r.rows().get(0) : null;
    }

    private static final String[] NAMES = {"s", "b", "y", "h", "i", "l", "f", "d", "dt", "ts", "unknown"};
    private static final String[] VALUES = {
        "\"text\"", "\"\"", "\"caf\\u00e9 \\\"q\\\"\"", "true", "false", "null", "0", "-0", "1", "-128", "127", "128",
        "-129", "32767", "32768", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
        "9223372036854775808", "1.5", "-0.0", "1e3", "1E-7", "3.4028235E39", "0.1", "123456789012345678901234567890",
        "\"NaN\"", "\"Infinity\"", "\"2024-05-01\"", "\"2024-05-01 10:00:00\"", "1714557600", "1714557600000",
        "\"2024-05-01T10:00\"", "\"2024\"", "\"\"", "255", "-0.5", "NaN", "\"2024-02-30\"", "\"2024-05-01T10:00:00Z\"",
        "\"2024-05-01T10:00:00.123456Z\"", "\"2024-05-01T10:00:00+02:00\"", "\"10:00\"", "[1]", "{\"a\":1}",
    };

    @Test
    void agreesWithTheTreeOnRandomLines() throws Exception {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        FlatJsonParser flat = FlatJsonParser.forSchema(FACTORY, SCHEMA);
        assertThat(flat).isNotNull();
        int quick = 0;
        for (int n = 0; n < 20_000; n++) {
            String line = randomLine(random);
            Row expected;
            try {
                expected = exact(line);
            } catch (Exception e) {
                expected = null;
            }
            Row actual = flat.parse(line);
            if (actual != null) {
                quick++;
                assertThat(actual).as("seed %d, line %s", seed, line).isEqualTo(expected);
            }
        }
        assertThat(quick).as("seed %d: lines the quick parser took", seed).isGreaterThan(100);
    }

    @Test
    void aWholeFileInOnePassAgreesWithReadingItLineByLine() throws Exception {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        FlatJsonParser flat = FlatJsonParser.forSchema(FACTORY, SCHEMA);
        String[] separators = {"\n", "\n", "\n", "\r\n", "\n\n", " \n", "\t\n  ", "\r", " ", ""};
        int quick = 0;
        for (int n = 0; n < 3_000; n++) {
            StringBuilder text = new StringBuilder(random.nextInt(30) == 0 ? "\uFEFF" : "");
            int lines = random.nextInt(6);
            for (int k = 0; k < lines; k++) {
                text.append(random.nextInt(4) == 0 ? randomLine(random) : validLine(random));
                text.append(random.nextInt(8) == 0 ? separators[random.nextInt(separators.length)] : "\n");
            }
            List<Row> expected = new ArrayList<>();
            try {
                boolean first = true;
                for (String line : new java.io.BufferedReader(new java.io.StringReader(text.toString())).lines().toList()) {
                    if (first && line.startsWith("\uFEFF")) {
                        line = line.substring(1);
                    }
                    first = false;
                    if (!line.isBlank()) {
                        Row row = exact(line);
                        if (row == null) {
                            throw new IllegalStateException("not one clean row");
                        }
                        expected.add(row);
                    }
                }
            } catch (Exception e) {
                expected = null;
            }
            List<Row> actual = flat.parseAll(new java.io.StringReader(text.toString()), r -> r);
            if (actual != null) {
                quick++;
                assertThat(actual).as("seed %d, text %s", seed, text).isEqualTo(expected);
            }
        }
        assertThat(quick).as("seed %d: files read in one pass", seed).isGreaterThan(300);
    }

    private static String validLine(SplittableRandom random) {
        return "{\"i\":" + random.nextInt() + ",\"s\":\"w" + random.nextInt(9) + "\",\"ts\":\"2024-05-01T10:0"
                + random.nextInt(10) + ":00Z\"}";
    }

    private static String randomLine(SplittableRandom random) {
        int shape = random.nextInt(20);
        if (shape == 0) {
            return List.of("", "[]", "1", "\"x\"", "{", "{\"i\":1", "{\"i\":1} {}", "{\"i\":1}x", "{\"i\":1,}",
                    "{'i':1}", "{\"i\":1}  ").get(random.nextInt(11));
        }
        List<String> members = new ArrayList<>();
        members.add("\"i\":" + (random.nextInt(4) == 0 ? VALUES[random.nextInt(VALUES.length)] : random.nextInt()));
        int more = random.nextInt(6);
        for (int k = 0; k < more; k++) {
            String name = NAMES[random.nextInt(NAMES.length)];
            members.add(random.nextInt(members.size() + 1), "\"" + name + "\":" + valueFor(name, random));
        }
        return "{" + String.join(random.nextBoolean() ? "," : " , ", members) + "}";
    }

    /** Mostly a value of the field's type, else any value. */
    private static String valueFor(String name, SplittableRandom random) {
        if (random.nextInt(3) == 0) {
            return VALUES[random.nextInt(VALUES.length)];
        }
        return switch (name) {
            case "s" -> "\"w" + random.nextInt(100) + "\"";
            case "b" -> random.nextBoolean() ? "true" : "false";
            case "y", "h" -> Integer.toString(random.nextInt(200) - 100);
            case "l" -> Long.toString(random.nextLong());
            case "f", "d" -> random.nextBoolean() ? Double.toString(random.nextDouble() * 1e6) : "" + random.nextInt();
            case "dt" -> "\"2024-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(10) + "\"";
            case "ts" -> "\"2024-05-01T10:" + (10 + random.nextInt(50)) + ":00." + random.nextInt(1000) + "Z\"";
            default -> "1";
        };
    }

    @Test
    void aTypicalLineIsTakenAndAnUnknownFieldIsLeftToTheTree() {
        FlatJsonParser flat = FlatJsonParser.forSchema(FACTORY, SCHEMA);

        assertThat(flat.parse("{\"i\":7,\"s\":\"x\",\"ts\":\"2024-05-01T10:00:00Z\",\"d\":2.5}"))
                .isEqualTo(RowFactory.create("x", null, null, null, 7, null, null, 2.5, null,
                        java.sql.Timestamp.from(java.time.Instant.parse("2024-05-01T10:00:00Z"))));
        assertThat(flat.parse("{\"i\":7,\"unknown\":1}")).isNull();
        assertThat(flat.parse("{\"s\":\"x\"}")).as("i is NOT NULL").isNull();
        assertThat(flat.parse("{\"i\":7,\"i\":8}")).as("given twice").isNull();
    }

    @Test
    void theIssuesLinesAreReadAsSparkReadsThem() throws Exception {
        FlatJsonParser flat = FlatJsonParser.forSchema(FACTORY, SCHEMA);
        java.sql.Timestamp tenOClock = java.sql.Timestamp.from(java.time.Instant.parse("2024-05-01T10:00:00Z"));

        assertThat(flat.parse("{\"i\":1,\"ts\":\"2024-05-01 10:00:00\"}"))
                .isEqualTo(RowFactory.create(null, null, null, null, 1, null, null, null, null, tenOClock));
        assertThat(flat.parse("{\"i\":1,\"ts\":1714557600}"))
                .isEqualTo(RowFactory.create(null, null, null, null, 1, null, null, null, null, tenOClock));
        assertThat(flat.parse("{\"i\":1,\"ts\":1714557600000}")).as("left to the exact way, for its note").isNull();
        SparkJsonParser.Result millis = EXACT.parse("{\"i\":1,\"ts\":1714557600000}");
        assertThat(millis.rows().get(0).getTimestamp(9).toInstant())
                .as("a JSON integer is seconds, in Spark").isEqualTo(java.time.Instant.parse("+56302-03-03T16:00:00Z"));
        assertThat(millis.notes()).containsExactly("field \"ts\": 1714557600000 is read as seconds since the epoch, as"
                + " Spark reads a JSON integer for a timestamp (+56302-03-03T16:00:00Z); if it is milliseconds, write"
                + " seconds or an ISO-8601 string");
        assertThat(flat.parse("{\"i\":1,\"s\":123}")).as("left to the exact way").isNull();
        assertThat(exact("{\"i\":1,\"s\":123}"))
                .isEqualTo(RowFactory.create("123", null, null, null, 1, null, null, null, null, null));
        assertThat(exact("{\"i\":1,\"s\":[1, 2.50, {\"a\": true}]}").getString(0)).isEqualTo("[1, 2.50, {\"a\": true}]");
    }

    @Test
    void nestedSchemasAreNotTaken() {
        StructType nested = new StructType().add("a", DataTypes.StringType).add("n", SCHEMA);
        StructType array = new StructType().add("a", DataTypes.createArrayType(DataTypes.StringType));
        StructType decimal = new StructType().add("a", DataTypes.createDecimalType(10, 2));

        assertThat(FlatJsonParser.forSchema(FACTORY, nested)).isNull();
        assertThat(FlatJsonParser.forSchema(FACTORY, array)).isNull();
        assertThat(FlatJsonParser.forSchema(FACTORY, decimal)).isNull();
    }
}
