package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.spark.LiveSpark;

/**
 * Hostile event files, read by Spark's JSON file source ({@code spark.read().schema(s).json(path)},
 * PERMISSIVE, as the CLI documents) and by {@link JsonLines}: a byte order mark at the start of the
 * file or of any line, invalid UTF-8 (in a value, a name, a lead byte, a truncated or overlong
 * sequence, a surrogate), NaN and Infinity as bare tokens and strings, numbers out of range and of
 * 1,001 digits, duplicate fields, nesting of 998 and 1,001 levels, a name of 50,001 characters,
 * control characters, {@code \r}
 * line ends and a 10 MB line. Each case pins what Spark gives, and that we give the same rows, or,
 * where Spark reads a whole line as a row of nulls, a {@link JsonLinesException} naming the file
 * and that line.
 */
@Tag("live")
class HostileJsonLinesLiveTest {
    static final StructType SCHEMA = new StructType().add("s", DataTypes.StringType).add("i", DataTypes.IntegerType)
            .add("l", DataTypes.LongType).add("d", DataTypes.DoubleType).add("f", DataTypes.FloatType)
            .add("dec", DataTypes.createDecimalType(5, 2)).add("ts", DataTypes.TimestampType);
    static final int[] BOM = {0xEF, 0xBB, 0xBF};
    static final Object[] NULLS = new Object[7];

    @TempDir
    Path dir;

    /** Text (as UTF-8) and raw bytes ({@code int[]}), in order. */
    static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof String s) {
                out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            } else {
                for (int x : (int[]) p) {
                    out.write(x);
                }
            }
        }
        return out.toByteArray();
    }

    static Row row(Object... values) {
        return RowFactory.create(values);
    }

    private Path file(String name, byte[] content) throws IOException {
        Path file = dir.resolve(name + ".jsonl");
        Files.write(file, content);
        return file;
    }

    private static List<Row> spark(Path file) {
        return LiveSpark.session().read().schema(SCHEMA).json(file.toString()).collectAsList();
    }

    /** Spark gives {@code expected}, and so do we, with these notes. */
    private List<String> sameAsSpark(String name, byte[] content, Row... expected) throws IOException {
        Path file = file(name, content);
        assertThat(spark(file)).as(name + " in Spark").containsExactly(expected);
        List<String> notes = new ArrayList<>();
        assertThat(JsonLines.rows(SCHEMA, notes::add).read(file, name)).as(name).containsExactly(expected);
        return notes;
    }

    /** Spark reads line {@code line} as a row of nulls ({@code rows} in all): we fail naming the file and line. */
    private void nullRowInSparkErrorHere(String name, byte[] content, int line, Row[] rows, String message)
            throws IOException {
        Path file = file(name, content);
        assertThat(spark(file)).as(name + " in Spark").containsExactly(rows);
        assertThat(rows[line - 1]).isEqualTo(RowFactory.create(NULLS));
        assertThatThrownBy(() -> JsonLines.rows(SCHEMA, n -> { }).read(file, name))
                .isInstanceOfSatisfying(JsonLinesException.class, e -> {
                    assertThat(e.file()).isEqualTo(name);
                    assertThat(e.line()).isEqualTo(line);
                })
                .hasMessageStartingWith(name + ":" + line + ": " + message);
    }

    @Test
    void aByteOrderMarkAtTheStartOfTheFileOrOfAnyLineIsSkippedAsSparkSkipsItAndKeptInsideAValue() throws IOException {
        assertThat(sameAsSpark("bom-first", bytes(BOM, "{\"s\":\"a\",\"i\":1}\n{\"s\":\"b\"}\n"),
                row("a", 1, null, null, null, null, null), row("b", null, null, null, null, null, null))).isEmpty();
        assertThat(sameAsSpark("bom-second", bytes("{\"s\":\"a\",\"i\":1}\n", BOM, "{\"s\":\"b\"}\n"),
                row("a", 1, null, null, null, null, null), row("b", null, null, null, null, null, null))).isEmpty();
        assertThat(sameAsSpark("bom-in-value", bytes("{\"s\":\"a", BOM, "b\",\"i\":1}\n"),
                row("a\uFEFFb", 1, null, null, null, null, null))).isEmpty();
    }

    @Test
    void invalidUtf8IsReadAsSparkGivesTheBytesToJacksonAndALineSparkReadsAsNullsFailsNamingTheLineAndByte()
            throws IOException {
        Row[] firstNull = {row(NULLS), row("ok", null, null, null, null, null, null)};
        nullRowInSparkErrorHere("utf8-in-string", bytes("{\"s\":\"a", new int[] {0xFF}, "b\",\"i\":1}\n{\"s\":\"ok\"}\n"),
                1, firstNull, "byte 8 is not UTF-8 (");
        nullRowInSparkErrorHere("utf8-lead", bytes(new int[] {0xFF}, "{\"s\":\"x\"}\n"), 1, new Row[] {row(NULLS)},
                "byte 1 is not UTF-8 (");
        nullRowInSparkErrorHere("utf8-in-name", bytes("{\"i", new int[] {0xFF}, "\":2,\"s\":\"x\"}\n"), 1,
                new Row[] {row(NULLS)}, "byte 4 is not UTF-8 (Invalid UTF-8 start byte 0xff)");
        nullRowInSparkErrorHere("utf8-in-unknown", bytes("{\"i\":2,\"zz\":\"", new int[] {0xFF}, "\",\"s\":\"x\"}\n"),
                1, new Row[] {row(NULLS)}, "byte 14 is not UTF-8 (Invalid UTF-8 start byte 0xff)");
        assertThat(sameAsSpark("utf8-truncated", bytes("{\"i\":2,\"s\":\"", new int[] {0xE2, 0x82}, "\"}\n"),
                row(null, 2, null, null, null, null, null)))
                .containsExactly("utf8-truncated:1: warning: field \"s\": Invalid UTF-8 middle byte 0x22; Spark's JSON"
                        + " source reads it as null, so does this replay");
        assertThat(sameAsSpark("utf8-overlong", bytes("{\"i\":2,\"s\":\"", new int[] {0xC0, 0xAF}, "\"}\n"),
                row("/", 2, null, null, null, null, null))).isEmpty();
        assertThat(sameAsSpark("utf8-surrogate", bytes("{\"i\":2,\"s\":\"", new int[] {0xED, 0xA0, 0x80}, "\"}\n"),
                row(NULLS))).singleElement().asString()
                .startsWith("utf8-surrogate:1: warning: every field (Jackson stops inside the line: ");
    }

    @Test
    void nanAndInfinityAreReadAsSparkReadsThemAndNullWithAWarningWhereATypeTakesNoneOfThem() throws IOException {
        assertThat(sameAsSpark("nan", bytes("{\"s\":NaN,\"i\":NaN,\"d\":NaN,\"f\":NaN,\"dec\":NaN,\"ts\":NaN,\"l\":3}\n"),
                row("NaN", null, 3L, Double.NaN, Float.NaN, null, null))).containsExactly(
                "nan:1: warning: field \"i\": cannot read NaN as int; Spark's JSON source reads it as null, so does this replay",
                "nan:1: warning: field \"dec\": cannot read NaN as decimal(5,2); Spark's JSON source reads it as null, so"
                        + " does this replay",
                "nan:1: warning: field \"ts\": cannot read NaN as timestamp; Spark's JSON source reads it as null, so does"
                        + " this replay");
        assertThat(sameAsSpark("inf", bytes("{\"s\":-Infinity,\"i\":Infinity,\"d\":-Infinity,\"f\":+Infinity,"
                + "\"dec\":Infinity,\"l\":3}\n{\"d\":+INF,\"l\":4}\n{\"d\":-INF,\"l\":5}\n"),
                row("-Infinity", null, 3L, Double.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, null, null),
                row(null, null, 4L, Double.POSITIVE_INFINITY, null, null, null),
                row(null, null, 5L, Double.NEGATIVE_INFINITY, null, null, null))).hasSize(2);
        assertThat(sameAsSpark("nan-strings", bytes("{\"d\":\"NaN\",\"f\":\"-Infinity\",\"i\":\"NaN\",\"dec\":\"NaN\","
                + "\"l\":3}\n"), row(null, null, 3L, Double.NaN, Float.NEGATIVE_INFINITY, null, null))).hasSize(2);
    }

    @Test
    void numbersOutOfRangeAreNullWithAWarningOrInfinityAsInSparkAndANumberOf1001DigitsFailsItsLine()
            throws IOException {
        assertThat(sameAsSpark("out-of-range", bytes("{\"i\":2147483648,\"l\":9223372036854775808,\"d\":1e400,"
                + "\"f\":1e40,\"dec\":1e400,\"ts\":99999999999999999999,\"s\":1e400}\n"),
                row("1e400", null, null, Double.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, null, null)))
                .hasSize(4).allSatisfy(note -> assertThat(note).startsWith("out-of-range:1: warning: field \""));
        assertThat(sameAsSpark("tiny", bytes("{\"d\":1e-400,\"f\":1e-50,\"dec\":1e-400,\"s\":\"x\"}\n"),
                row("x", null, null, 0.0, 0.0f, new java.math.BigDecimal("0.00"), null))).isEmpty();
        nullRowInSparkErrorHere("long-number", bytes("{\"s\":\"a\",\"l\":" + "1".repeat(1001) + "}\n{\"s\":\"b\"}\n"), 1,
                new Row[] {row(NULLS), row("b", null, null, null, null, null, null)},
                "not valid JSON: Number value length (1001) exceeds the maximum allowed (1000");
        assertThat(sameAsSpark("number-999", bytes("{\"s\":" + "1".repeat(999) + "}\n"),
                row("1".repeat(999), null, null, null, null, null, null))).isEmpty();
    }

    @Test
    void aDuplicateFieldKeepsItsLastValueAsInSpark() throws IOException {
        assertThat(sameAsSpark("duplicates", bytes("{\"s\":\"a\",\"s\":\"b\",\"i\":1,\"i\":\"x\",\"l\":1,\"l\":null}\n"),
                row("b", 1, null, null, null, null, null))).containsExactly("duplicates:1: warning: field \"i\": cannot"
                        + " read \"x\" as int; Spark's JSON source reads it as null, so does this replay");
    }

    @Test
    void nestingUpTo1000LevelsIsReadAndDeeperNestingOrANameOver50000CharactersFailsItsLineWhereSparkReadsNulls() throws IOException {
        String deep = "[".repeat(998) + "]".repeat(998);
        assertThat(sameAsSpark("deep-998", bytes("{\"s\":" + deep + ",\"i\":1}\n"),
                row(deep, 1, null, null, null, null, null))).isEmpty();
        Row second = row(null, 2, null, null, null, null, null);
        nullRowInSparkErrorHere("deep-1001", bytes("{\"i\":1,\"s\":" + "[".repeat(1001) + "]".repeat(1001)
                + "}\n{\"i\":2}\n"), 1, new Row[] {row(NULLS), second},
                "not valid JSON: Document nesting depth (1002) exceeds the maximum allowed (1000");
        nullRowInSparkErrorHere("deep-unknown", bytes("{\"i\":1,\"zz\":" + "{\"a\":".repeat(1001) + "1"
                + "}".repeat(1001) + "}\n"), 1, new Row[] {row(NULLS)}, "not valid JSON: Document nesting depth (1001)");
        nullRowInSparkErrorHere("long-name", bytes("{\"" + "n".repeat(50_001) + "\":1,\"i\":2}\n"), 1,
                new Row[] {row(NULLS)}, "not valid JSON: Name length (50001) exceeds the maximum allowed (50000");
        nullRowInSparkErrorHere("deep-unclosed", bytes("{\"i\":1,\"s\":" + "[".repeat(50_000) + "\n{\"i\":2}\n"), 1,
                new Row[] {row(NULLS), second}, "not valid JSON: Document nesting depth (1002)");
    }

    @Test
    void controlCharactersFailTheirLineAndCarriageReturnsEndLinesAsInSpark() throws IOException {
        nullRowInSparkErrorHere("control", bytes("{\"s\":\"a", new int[] {1}, "b\",\"i\":1}\n"), 1,
                new Row[] {row(NULLS)}, "not valid JSON at column 9: ");
        nullRowInSparkErrorHere("nul", bytes("{\"s\":\"a", new int[] {0}, "b\",\"i\":1}\n"), 1,
                new Row[] {row(NULLS)}, "not valid JSON at column 9: ");
        nullRowInSparkErrorHere("vertical-tab", bytes("\u000B\n"), 1, new Row[] {row(NULLS)}, "not valid JSON");
        assertThat(sameAsSpark("cr", bytes("{\"i\":1}\r{\"i\":2}\r\n{\"i\":3}\n \t\n"),
                row(null, 1, null, null, null, null, null), row(null, 2, null, null, null, null, null),
                row(null, 3, null, null, null, null, null))).isEmpty();
    }

    @Test
    void aLineOf10MegabytesIsReadWhole() throws IOException {
        String big = "x".repeat(10_000_000);
        assertThat(sameAsSpark("long-line", bytes("{\"s\":\"" + big + "\",\"i\":1}\n{\"i\":2}\n"),
                row(big, 1, null, null, null, null, null), row(null, 2, null, null, null, null, null))).isEmpty();
    }
}
