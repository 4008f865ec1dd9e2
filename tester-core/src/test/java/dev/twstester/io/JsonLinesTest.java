package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link JsonLines}: files of rows read as Spark's JSON source reads them, with notes, warnings and errors by file and line. */
class JsonLinesTest {
    private static final StructType SCHEMA = new StructType().add("s", DataTypes.StringType)
            .add("ts", DataTypes.TimestampType).add("y", DataTypes.ByteType)
            .add("dec", DataTypes.createDecimalType(5, 2)).add("dt", DataTypes.DateType)
            .add("inner", new StructType().add("n", DataTypes.IntegerType));

    @Test
    void theReaderWarnsNotesAndFailsNamingFileLineAndField(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("001.jsonl");
        Files.writeString(file, String.join("\n",
                "{\"s\": \"a\", \"ts\": 1714557600000}",
                "{\"s\": \"b\", \"ts\": 1714557600001, \"other\": 1}",
                "{\"s\": \"c\", \"inner\": {\"n\": 1.5}} trailing",
                "{\"s\": \"d\", \"other\": 2}") + "\n");
        List<String> notes = new ArrayList<>();
        List<Row> rows = JsonLines.rows(SCHEMA, notes::add).read(file, "001.jsonl");

        assertThat(rows).extracting(r -> r.getString(0)).containsExactly("a", "b", "c", "d");
        assertThat(notes).containsExactly(
                "001.jsonl:1: note: field \"ts\": 1714557600000 is read as seconds since the epoch, as Spark reads a JSON"
                        + " integer for a timestamp (+56302-03-03T16:00:00Z); if it is milliseconds, write seconds or an"
                        + " ISO-8601 string",
                "001.jsonl:2: note: field \"other\": unknown field; the fields are [s, ts, y, dec, dt, inner]; Spark's"
                        + " JSON source ignores it, so does this replay",
                "001.jsonl:3: warning: field \"inner.n\": cannot read 1.5 as int; Spark's JSON source reads it as null,"
                        + " so does this replay",
                "001.jsonl:3: warning: text after the JSON value is ignored, as Spark's JSON source ignores it; write one"
                        + " JSON object per line");

        Files.writeString(file, "{\"s\": \"a\"}\n5\n");
        assertThatThrownBy(() -> JsonLines.rows(SCHEMA, note -> { }).read(file, "001.jsonl"))
                .isInstanceOfSatisfying(JsonLinesException.class, e -> {
                    assertThat(e.file()).isEqualTo("001.jsonl");
                    assertThat(e.line()).isEqualTo(2);
                })
                .hasMessage("001.jsonl:2: expected a JSON object, got 5 (Spark's JSON source would read a row of nulls);"
                        + " write one JSON object per line, like {\"s\": ..., \"ts\": ..., \"y\": ..., \"dec\": ...,"
                        + " \"dt\": ..., \"inner\": ...}");
    }

    /** A bean with a primitive field: a row without it is no Count. */
    public static class Count implements java.io.Serializable {
        private String name;
        private int n;

        public Count() {
        }

        Count(String name, int n) {
            this.name = name;
            this.n = n;
        }

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public int getN() {
            return n;
        }

        public void setN(int n) {
            this.n = n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Count c && java.util.Objects.equals(name, c.name) && n == c.n;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(name, n);
        }
    }

    @Test
    void theEncoderMakesTheObjectsAndARowItCannotMakeIsAnErrorOfItsLine(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("counts.jsonl");
        Files.writeString(file, "{\"name\": \"a\", \"n\": 1}\n\n{\"name\": 2, \"n\": 7, \"nme\": true}\n"
                + "[{\"name\": \"b\", \"n\": 2}, {\"name\": \"c\", \"n\": 3}]\n");
        List<String> notes = new ArrayList<>();
        JsonLines<Count> counts = JsonLines.of(EncoderRows.of(Encoders.bean(Count.class)), notes::add);

        assertThat(counts.read(file)).as("an array is a row per object; a number for a string is its text")
                .containsExactly(new Count("a", 1), new Count("2", 7), new Count("b", 2), new Count("c", 3));
        assertThat(notes).containsExactly(file + ":3: note: field \"nme\": unknown field (did you mean \"name\"?);"
                + " the fields are [n, name]; Spark's JSON source ignores it, so does this replay");

        Files.writeString(file, "{\"name\": \"a\", \"n\": 1}\n{\"name\": \"b\", \"n\": \"7\"}\n");
        notes.clear();
        assertThatThrownBy(() -> counts.read(file, "counts.jsonl"))
                .isInstanceOfSatisfying(JsonLinesException.class, e -> assertThat(e.line()).isEqualTo(2))
                .hasMessage("counts.jsonl:2: field \"n\" (int, which cannot be null in Count) is \"7\" (a string), which"
                        + " Spark's JSON source reads as null; Spark fails the query on such a row, as a Count cannot"
                        + " hold null there; write a whole number, e.g. 42");
        assertThat(notes).containsExactly("counts.jsonl:2: warning: field \"n\": cannot read \"7\" as int; Spark's JSON"
                + " source reads it as null, so does this replay");
    }

    @Test
    void aPrimitiveFieldSparkReadsAsNullIsAnErrorNamingTheFieldTheTypeAndTheValue(@TempDir Path dir) throws IOException {
        JsonLines<Door> doors = JsonLines.of(EncoderRows.of(Encoders.bean(Door.class)), note -> { });
        String ok = "{\"door\": \"front\", \"ok\": true, \"place\": {\"floor\": 1}}";
        String encoder = "; Spark fails the query on such a row, as a Door cannot hold null there";

        assertThat(readError(doors, dir, ok, "{\"door\": \"front\", \"ok\": \"yes\", \"place\": {\"floor\": 1}}"))
                .isEqualTo("doors.jsonl:2: field \"ok\" (boolean, which cannot be null in Door) is \"yes\" (a string),"
                        + " which Spark's JSON source reads as null" + encoder + "; write true or false");
        assertThat(readError(doors, dir, ok, "{\"door\": \"front\", \"place\": {\"floor\": 1}}"))
                .isEqualTo("doors.jsonl:2: field \"ok\" (boolean, which cannot be null in Door) is missing, which"
                        + " Spark's JSON source reads as null" + encoder + "; write true or false");
        assertThat(readError(doors, dir, ok, "{\"door\": \"front\", \"ok\": null, \"place\": {\"floor\": 1}}"))
                .isEqualTo("doors.jsonl:2: field \"ok\" (boolean, which cannot be null in Door) is null" + encoder
                        + "; write true or false");
        assertThat(readError(doors, dir, ok, "{\"door\": \"front\", \"ok\": false, \"place\": {\"floor\": {\"n\": 2}}}"))
                .isEqualTo("doors.jsonl:2: field \"place.floor\" (int, which cannot be null in Door) is {\"n\":2}"
                        + " (an object), which Spark's JSON source reads as null" + encoder + "; write a whole number,"
                        + " e.g. 42");
        assertThat(readError(doors, dir, ok, "{\"door\": \"front\", \"ok\": false, \"place\": {}}"))
                .isEqualTo("doors.jsonl:2: field \"place.floor\" (int, which cannot be null in Door) is missing, which"
                        + " Spark's JSON source reads as null" + encoder + "; write a whole number, e.g. 42");
    }

    /** The message of reading a file of {@code lines}, which must fail. */
    private static String readError(JsonLines<?> reader, Path dir, String... lines) throws IOException {
        Path file = dir.resolve("doors.jsonl");
        Files.writeString(file, String.join("\n", lines) + "\n");
        Throwable e = org.assertj.core.api.Assertions.catchThrowable(() -> reader.read(file, "doors.jsonl"));
        assertThat(e).isInstanceOf(JsonLinesException.class);
        return e.getMessage();
    }

    /** A bean with primitive fields, one in a nested bean. */
    public static class Door implements java.io.Serializable {
        private String door;
        private boolean ok;
        private Place place;

        public String getDoor() {
            return door;
        }

        public void setDoor(String door) {
            this.door = door;
        }

        public boolean isOk() {
            return ok;
        }

        public void setOk(boolean ok) {
            this.ok = ok;
        }

        public Place getPlace() {
            return place;
        }

        public void setPlace(Place place) {
            this.place = place;
        }
    }

    public static class Place implements java.io.Serializable {
        private int floor;

        public int getFloor() {
            return floor;
        }

        public void setFloor(int floor) {
            this.floor = floor;
        }
    }

    @Test
    void sparksTimestampFormsAreReadInUtc(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("times.jsonl");
        Files.writeString(file, "{\"s\": \"iso\", \"ts\": \"2024-05-01T10:00:00Z\"}\n"
                + "{\"s\": \"cast\", \"ts\": \"2024-05-01 10:00:00\"}\n{\"s\": \"seconds\", \"ts\": 1714557600}\n");
        Timestamp ten = Timestamp.from(Instant.parse("2024-05-01T10:00:00Z"));

        assertThat(JsonLines.rows(SCHEMA, note -> { }).read(file)).extracting(r -> r.getTimestamp(1))
                .containsExactly(ten, ten, ten);
    }

    @Test
    void aSchemaOutsideSparksJsonRulesIsReadByJsonRowsWithUnknownFieldsNoted(@TempDir Path dir) throws IOException {
        StructType schema = new StructType().add("d", DataTypes.createDayTimeIntervalType());
        Path file = dir.resolve("intervals.jsonl");
        Files.writeString(file, "{\"d\": \"PT10S\", \"e\": 1}\n{\"d\": 10}\n");
        List<String> notes = new ArrayList<>();

        assertThatThrownBy(() -> JsonLines.rows(schema, notes::add).read(file, "intervals.jsonl"))
                .isInstanceOfSatisfying(JsonLinesException.class, e -> assertThat(e.line()).isEqualTo(2))
                .hasMessage("intervals.jsonl:2: field \"d\": cannot parse 10 as interval day to second; write an"
                        + " ISO-8601 duration like \"PT10S\"");
        assertThat(notes).containsExactly("intervals.jsonl:1: note: field \"e\": unknown field (did you mean \"d\"?);"
                + " the fields are [d]; Spark's JSON source ignores it, so does this replay");
        Files.writeString(file, "{\"d\": \"PT10S\"}\n");
        assertThat(JsonLines.rows(schema, notes::add).read(file)).containsExactly(RowFactory.create(Duration.ofSeconds(10)));
    }

    @Test
    void aMissingFileIsAnErrorOfTheFile(@TempDir Path dir) {
        assertThatThrownBy(() -> JsonLines.rows(SCHEMA, note -> { }).read(dir.resolve("none.jsonl"), "none.jsonl"))
                .isInstanceOfSatisfying(JsonLinesException.class, e -> assertThat(e.line()).isZero())
                .hasMessageStartingWith("none.jsonl: cannot read: java.nio.file.NoSuchFileException");
    }
}
