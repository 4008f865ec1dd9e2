package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.twstester.testing.Mutations;

/**
 * 10,000 mutated event files (4,000 of flat rows, 3,000 of nested rows, 3,000 of a bean through its
 * encoder), read by {@link JsonLines}: each gives its rows, one per line that is not blank (each
 * element of a top-level array), values Spark cannot read null with a warning naming the file,
 * line and field; or fails with a {@link JsonLinesException} naming the file and a line of it.
 * Never another exception, never a hang ({@link Mutations#TIMEOUT_SECONDS} per file), never a
 * line dropped. {@code -Dtwstester.fuzz.scale=N} reads N times as many; {@code -Dtwstester.fuzz.seed}
 * repeats a run.
 */
class JsonLinesFuzzTest {
    static final int FLAT_FILES = 4_000;
    static final int NESTED_FILES = 3_000;
    static final int BEAN_FILES = 3_000;
    static final StructType FLAT = new StructType().add("s", DataTypes.StringType).add("b", DataTypes.BooleanType)
            .add("i", DataTypes.IntegerType).add("l", DataTypes.LongType).add("d", DataTypes.DoubleType)
            .add("f", DataTypes.FloatType).add("dt", DataTypes.DateType).add("ts", DataTypes.TimestampType);
    static final StructType NESTED = new StructType().add("id", DataTypes.StringType)
            .add("dec", DataTypes.createDecimalType(5, 2)).add("bin", DataTypes.BinaryType)
            .add("tags", DataTypes.createArrayType(DataTypes.StringType))
            .add("attrs", DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType))
            .add("inner", new StructType().add("n", DataTypes.IntegerType).add("when", DataTypes.TimestampType));
    static final String FLAT_LINES = """
            {"s": "a", "b": true, "i": 1, "l": 10, "d": 1.5, "f": 2.5, "dt": "2024-05-01", "ts": "2024-05-01T10:00:00Z"}
            {"s": "caf\\u00e9", "b": false, "i": -7, "l": 1714557600, "d": -0.0, "f": 1e3, "ts": 1714557600}
            {"s": null, "i": 2147483647, "d": "NaN", "ts": "2024-05-01 10:00:00"}

            [{"s": "x", "i": 3}, {"s": "y", "l": 4}]
            {"s": "last", "dt": "2024-02-29", "ts": "2024-05-01T10:00:00.123456+02:00"}
            """;
    static final String NESTED_LINES = """
            {"id": "a", "dec": 12.34, "bin": "AQID", "tags": ["x", "y"], "attrs": {"k": 1}, "inner": {"n": 2, "when": "2024-05-01T10:00:00Z"}}
            {"id": "b", "dec": "1,234.5", "tags": [], "attrs": {}, "inner": null}
            {"id": "c", "tags": ["z", 1, {"q": [1, 2]}], "inner": {"n": 3}}
            """;
    static final String READING_LINES = """
            {"sensor": "s1", "ts": "2024-05-01T10:00:00Z", "day": "2024-05-01", "value": 1.5}
            {"sensor": "s2", "ts": 1714557600, "day": "2024-05-02", "value": -2}
            {"sensor": "s3", "ts": "2024-05-01 10:00:05", "day": "2024-05-03", "value": 1e10}
            """;
    /** Jackson with Spark's settings: how many rows a line holds (a top-level array: its elements). */
    private static final ObjectMapper SPARK = new ObjectMapper(SparkJsonParser.sparkFactory());

    @TempDir
    Path dir;

    @Test
    void fourThousandMutatedFlatFilesGiveEveryLineARowOrAnErrorNamingFileAndLine() {
        fuzz("flat event files", FLAT_FILES, FLAT_LINES, notes -> JsonLines.rows(FLAT, notes::add));
    }

    @Test
    void threeThousandMutatedNestedFilesGiveEveryLineARowOrAnErrorNamingFileAndLine() {
        fuzz("nested event files", NESTED_FILES, NESTED_LINES, notes -> JsonLines.rows(NESTED, notes::add));
    }

    @Test
    void threeThousandMutatedBeanFilesGiveEveryLineAnObjectOrAnErrorNamingFileAndLine() {
        fuzz("bean event files", BEAN_FILES, READING_LINES,
                notes -> JsonLines.of(EncoderRows.of(Encoders.bean(Reading.class)), notes::add));
    }

    private void fuzz(String what, int files, String valid, Function<List<String>, JsonLines<?>> reader) {
        Mutations fuzz = Mutations.seeded(what);
        byte[] base = valid.getBytes(StandardCharsets.UTF_8);
        Path file = dir.resolve("events.jsonl");
        List<String> notes = new ArrayList<>();
        JsonLines<?> lines = reader.apply(notes);
        fuzz.run(Mutations.count(files), random -> {
            byte[] input = fuzz.mutate(base, random);
            return () -> {
                notes.clear();
                check(file, input, lines, notes);
            };
        });
    }

    private static void check(Path file, byte[] input, JsonLines<?> reader, List<String> notes) {
        try {
            Files.write(file, input);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String shown = Mutations.show(input);
        try {
            List<?> rows = reader.read(file, "events.jsonl");
            int[] expected = expectedRows(input);
            assertThat(rows.size()).as("rows of %s (notes %s)", shown, notes).isBetween(expected[0], expected[1]);
            assertThat(notes).as("notes of %s", shown).allSatisfy(note -> assertThat(note).hasSizeLessThan(2000)
                    .matches("events\\.jsonl(:[1-9][0-9]*)?: (warning|note): [^\\n\\r]*"));
        } catch (JsonLinesException e) {
            assertThat(e.file()).isEqualTo("events.jsonl");
            assertThat(e.line()).as("%s: %s", shown, e.getMessage()).isBetween(1, lines(input).size());
            assertThat(e.getMessage()).as(shown).startsWith("events.jsonl:" + e.line() + ": ")
                    .hasSizeLessThan(2000).doesNotContain("\n").doesNotContain("\r");
        }
    }

    /** The lines as Hadoop splits them (\n, \r, \r\n). */
    private static List<byte[]> lines(byte[] input) {
        List<byte[]> lines = new ArrayList<>();
        try (ByteLines in = ByteLines.of(new java.io.ByteArrayInputStream(input))) {
            for (ByteLines.Line line = in.next(); line != null; line = in.next()) {
                lines.add(line.text() != null ? line.text().getBytes(StandardCharsets.UTF_8) : line.bytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }

    /**
     * The rows the lines hold: one per line that is not blank, a top-level array's elements; a
     * line that is not JSON at least one (a row of nulls with a warning, or partial rows of an
     * array, each element at most one), as {@code {min, max}}.
     */
    private static int[] expectedRows(byte[] input) {
        int min = 0;
        int max = 0;
        for (byte[] line : lines(input)) {
            String text = new String(line, StandardCharsets.UTF_8).replaceFirst("^\uFEFF", "");
            if (text.chars().allMatch(c -> c == ' ' || c == '\t')) {
                continue;
            }
            JsonNode json = null;
            try {
                json = SPARK.readTree(line);
            } catch (IOException | RuntimeException e) {
                // not JSON: a row of nulls with a warning, partial rows of an array, or an error
            }
            int rows = json != null && json.isArray() ? json.size() : 1;
            min += rows;
            max += json == null && text.strip().startsWith("[") ? Math.max(1, (int) text.chars().filter(c -> c == '{').count())
                    : rows;
        }
        return new int[] {min, max};
    }
}
