package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.spark.LiveSpark;

/**
 * A line whose primitive field (a bean's {@code boolean}, {@code int}) is missing, null, or has a
 * value Spark's JSON source reads as null: Spark's JSON source reads the row, and turning it into
 * the bean (the query's {@code .as(encoder)}) fails on it, as {@link JsonLines} refuses it (naming
 * the field, where Spark names none). The same line with the field present is read by both alike.
 */
@Tag("live")
class PrimitiveFieldsLiveTest {
    static final Encoder<JsonLinesTest.Door> DOOR = Encoders.bean(JsonLinesTest.Door.class);

    @TempDir
    Path dir;

    @Test
    void sparkFailsOnEveryLineJsonLinesRefusesAndReadsTheLineItAccepts() throws IOException {
        List<String> refused = List.of(
                "{\"door\": \"front\", \"ok\": \"yes\", \"place\": {\"floor\": 1}}",
                "{\"door\": \"front\", \"place\": {\"floor\": 1}}",
                "{\"door\": \"front\", \"ok\": null, \"place\": {\"floor\": 1}}",
                "{\"door\": \"front\", \"ok\": 1, \"place\": {\"floor\": 1}}",
                "{\"door\": \"front\", \"ok\": false, \"place\": {\"floor\": \"2\"}}",
                "{\"door\": \"front\", \"ok\": false, \"place\": {\"floor\": {\"n\": 2}}}",
                "{\"door\": \"front\", \"ok\": false, \"place\": {}}");
        for (int i = 0; i < refused.size(); i++) {
            Path file = write("refused" + i, refused.get(i));
            Throwable spark = catchThrowable(() -> spark(file));
            assertThat(spark).as("Spark on %s", refused.get(i)).isNotNull();
            assertThat(spark.toString()).as("Spark on %s", refused.get(i)).containsIgnoringCase("null");
            Throwable ours = catchThrowable(() -> JsonLines.of(EncoderRows.of(DOOR), n -> { }).read(file, "f"));
            assertThat(ours).as("JsonLines on %s", refused.get(i)).isInstanceOf(JsonLinesException.class)
                    .hasMessageContaining("which cannot be null in Door");
        }

        Path accepted = write("accepted", "{\"door\": \"front\", \"ok\": true, \"place\": {\"floor\": 3}}");
        List<JsonLinesTest.Door> fromSpark = spark(accepted);
        List<JsonLinesTest.Door> ours = JsonLines.of(EncoderRows.of(DOOR), n -> { }).read(accepted, "f");
        EncoderRows<JsonLinesTest.Door> rows = EncoderRows.of(DOOR);
        assertThat(ours).hasSize(1);
        assertThat(fromSpark).hasSize(1);
        assertThat(rows.toJson(ours.get(0))).isEqualTo(rows.toJson(fromSpark.get(0)));
        assertThat(rows.toJson(ours.get(0)).toString()).isEqualTo("{\"door\":\"front\",\"ok\":true,\"place\":{\"floor\":3}}");
    }

    private Path write(String name, String line) throws IOException {
        Path file = dir.resolve(name + ".jsonl");
        Files.writeString(file, line + "\n");
        return file;
    }

    private static List<JsonLinesTest.Door> spark(Path file) {
        return LiveSpark.session().read().schema(EncoderRows.of(DOOR).schema()).json(file.toString()).as(DOOR)
                .collectAsList();
    }
}
