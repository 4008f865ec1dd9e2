package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.io.EncoderRows;
import dev.twstester.io.JsonLines;
import dev.twstester.io.JsonLinesException;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.spark.LiveSpark;

/**
 * The replay's reader ({@link JsonLines}) gives the rows Spark's own JSON reader gives
 * ({@code spark.read().schema(schema).json(path)} in the live runner's session, time zone UTC) for
 * the samples' files, edge-case files and generated lines.
 */
class SparkJsonDifferentialTest {
    static final StructType FLAT = new StructType().add("s", DataTypes.StringType).add("b", DataTypes.BooleanType)
            .add("y", DataTypes.ByteType).add("h", DataTypes.ShortType).add("i", DataTypes.IntegerType)
            .add("l", DataTypes.LongType).add("f", DataTypes.FloatType).add("d", DataTypes.DoubleType)
            .add("dec", DataTypes.createDecimalType(5, 2)).add("dt", DataTypes.DateType)
            .add("ts", DataTypes.TimestampType).add("bin", DataTypes.BinaryType);
    static final StructType NESTED = new StructType().add("id", DataTypes.StringType)
            .add("tags", DataTypes.createArrayType(DataTypes.StringType))
            .add("attrs", DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType))
            .add("inner", new StructType().add("n", DataTypes.IntegerType).add("when", DataTypes.TimestampType)
                    .add("deep", new StructType().add("v", DataTypes.StringType)))
            .add("list", DataTypes.createArrayType(new StructType().add("n", DataTypes.LongType)));
    static final Path EDGES = Path.of("src/test/resources/sparkjson");
    static final Path CART = Path.of("../samples/src/main/resources/cart");

    static List<Row> spark(Path file, StructType schema) {
        SparkSession spark = LiveSpark.session();
        assertThat(spark.conf().get("spark.sql.session.timeZone")).isEqualTo("UTC");
        return spark.read().schema(schema).json(file.toString()).collectAsList();
    }

    static List<Row> ours(Path file, StructType schema, StringWriter notes) {
        PrintWriter lines = new PrintWriter(notes, true);
        return JsonLines.rows(schema, lines::println).read(file, file.getFileName().toString());
    }

    static void assertSameRows(Path file, StructType schema) {
        List<Row> expected = spark(file, schema);
        List<Row> actual = ours(file, schema, new StringWriter());
        assertThat(actual).as(file + ": " + expected).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i)).as(file + " row " + i).isEqualTo(expected.get(i));
        }
    }

    @Test
    void flatEdgeCasesAreReadAsSparkReadsThem() {
        assertSameRows(EDGES.resolve("flat.jsonl"), FLAT);
    }

    @Test
    void valuesSparkCannotConvertAreNullAsInSparkWithAWarningPerField() {
        StringWriter notes = new StringWriter();
        Path file = EDGES.resolve("bad-values.jsonl");
        List<Row> rows = ours(file, FLAT, notes);
        assertThat(rows).isEqualTo(spark(file, FLAT));
        assertThat(rows.get(rows.size() - 2)).as("invalid base64: only its field is null")
                .isEqualTo(org.apache.spark.sql.RowFactory.create("ok", null, null, null, 1, null, null, null, null, null, null, null));
        assertThat(rows.get(rows.size() - 1)).as("base64 \"A\" leaves Jackson inside the string: a row of nulls")
                .isEqualTo(org.apache.spark.sql.RowFactory.create(new Object[FLAT.fields().length]));
        assertThat(notes.toString().lines().toList()).containsExactly(
                "bad-values.jsonl:1: warning: field \"i\": cannot read \"5\" as int; Spark's JSON source reads it as null, so does this replay",
                "bad-values.jsonl:2: warning: field \"i\": cannot read 1.0 as int; Spark's JSON source reads it as null, so does this replay",
                "bad-values.jsonl:4: warning: field \"l\": 9223372036854775808 is out of the range of bigint; Spark's JSON source reads it as null, so does this replay",
                "bad-values.jsonl:5: warning: field \"ts\": cannot read 1.5 as timestamp; Spark's JSON source reads it as null, so does this replay",
                "bad-values.jsonl:6: warning: field \"ts\": cannot read \"10:61\" as timestamp; Spark's JSON source reads it as null, so does this replay",
                "bad-values.jsonl:7: warning: field \"ts\": an empty string is not a timestamp; Spark's JSON source reads it as null, so does this replay",
                "bad-values.jsonl:8: warning: field \"dt\": cannot read 20240501 as date; Spark's JSON source reads it as null, so does this replay",
                "bad-values.jsonl:9: warning: field \"b\": cannot read \"true\" as boolean; Spark's JSON source reads it as null, so does this replay",
                "bad-values.jsonl:10: warning: field \"dec\": 1000 does not fit decimal(5,2); Spark's JSON source reads it as null, so does this replay",
                "bad-values.jsonl:11: warning: field \"dec\": cannot read \"abc\" as decimal(5,2); Spark's JSON source reads it as null, so does this replay",
                "bad-values.jsonl: warning: 6 more values Spark's JSON source cannot read were read as null (not shown)");
    }

    @Test
    void nestedStructsArraysAndMapsAreReadAsSparkReadsThem() {
        assertSameRows(EDGES.resolve("nested.jsonl"), NESTED);
    }

    @Test
    void theSampleFilesAreReadAsSparkReadsThemIntoTheSameEvents() throws IOException {
        EncoderRows<CartEvent> codec = EncoderRows.of(Encoders.bean(CartEvent.class));
        try (Stream<Path> files = Files.list(CART)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList()) {
                assertSameRows(file, codec.schema());
                List<CartEvent> expected = LiveSpark.session().read().schema(codec.schema()).json(file.toString())
                        .as(Encoders.bean(CartEvent.class)).collectAsList();
                List<CartEvent> actual = JsonLines.of(codec, note -> { }).read(file, file.getFileName().toString());
                assertThat(actual).as(file.toString()).isNotEmpty().isEqualTo(expected);
            }
        }
    }

    private static final String[] VALUES = {
        "\"text\"", "\"\"", "\"caf\\u00e9 \\\"q\\\"\"", "true", "false", "null", "0", "-0", "1", "-128", "127", "128",
        "255", "256", "-129", "32767", "32768", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
        "9223372036854775808", "1.5", "-0.0", "1e3", "1E-7", "3.4028235E39", "0.1", "123.456", "999.995", "-999.99",
        "123456789012345678901234567890", "\"NaN\"", "\"Infinity\"", "\"-INF\"", "\"1,234.5\"", "\"12.5\"",
        "\"2024-05-01\"", "\"2024-02-30\"", "\"2024-05-01T10:00:00Z\"", "\"2024-05-01 10:00:00\"",
        "\"2024-05-01T10:00:00.123456Z\"", "\"2024-05-01T10:00:00.1234567Z\"", "\"2024-05-01T10:00:00+02:00\"",
        "\"2024-05-01T10:00:00 GMT+01:00\"", "\"1500-03-01T00:00:00Z\"", "\"10:00\"", "\"19844\"", "\"AQID\"", "\"AQ\"",
        "1714557600", "1714557600000", "-62135596800", "[1]", "[\"a\", 2]", "{\"a\": 1}", "{}", "[]",
    };
    private static final String[] NAMES = {"s", "b", "y", "h", "i", "l", "f", "d", "dec", "dt", "ts", "bin", "other"};

    @Test
    void generatedLinesAreReadAsSparkReadsThem(@TempDir Path dir) throws IOException {
        long seed = Long.getLong("twstester.seed", new SplittableRandom().nextLong());
        SplittableRandom random = new SplittableRandom(seed);
        List<String> lines = new ArrayList<>();
        for (int n = 0; n < 3000; n++) {
            StringBuilder line = new StringBuilder("{");
            int fields = random.nextInt(5);
            for (int f = 0; f < fields; f++) {
                line.append(f == 0 ? "" : ", ").append('"').append(NAMES[random.nextInt(NAMES.length)]).append("\": ")
                        .append(VALUES[random.nextInt(VALUES.length)]);
            }
            lines.add(line.append('}').toString());
        }
        Path file = dir.resolve("generated.jsonl");
        Files.write(file, lines, StandardCharsets.UTF_8);
        List<Row> expected = spark(file, FLAT);
        List<Row> actual;
        try {
            actual = ours(file, FLAT, new StringWriter());
        } catch (JsonLinesException e) {
            throw new AssertionError("seed " + seed + " (rerun with -Dtwstester.seed=" + seed + "): " + e.getMessage(), e);
        }
        assertThat(actual).as("seed " + seed + " (rerun with -Dtwstester.seed=" + seed + ")").hasSize(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            assertThat(actual.get(i)).as("seed " + seed + " (rerun with -Dtwstester.seed=" + seed + "), line "
                    + (i + 1) + ": " + lines.get(i)).isEqualTo(expected.get(i));
        }
    }
}
