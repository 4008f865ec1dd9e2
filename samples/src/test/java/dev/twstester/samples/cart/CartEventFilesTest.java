package dev.twstester.samples.cart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CartEventFilesTest {
    static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    @Test
    void eachStoryFileParsesIntoItsEvents() {
        assertThat(CartEventFiles.resource("cart/001.jsonl").events()).containsExactly(
                CartEvent.add("ana", "boots", at("10:00")),
                CartEvent.add("ana", "socks", at("10:05")),
                CartEvent.add("bo", "mug", at("10:08")));
        assertThat(CartEventFiles.resource("cart/002.jsonl").events()).containsExactly(
                CartEvent.add("bo", "scarf", at("10:12")),
                CartEvent.checkout("bo", at("10:20")));
        assertThat(CartEventFiles.resource("cart/003.jsonl").events()).containsExactly(
                CartEvent.add("bo", "hat", at("10:09")),
                CartEvent.add("cy", "lamp", at("10:50")));
        assertThat(CartEventFiles.story()).extracting(CartEventFiles.EventFile::name)
                .containsExactly("001.jsonl", "002.jsonl", "003.jsonl");
    }

    @Test
    void blankLinesAreSkippedAndOffsetsAreConvertedToUtc() throws IOException {
        String text = """
                {"userId":"ana","event":"add","item":"boots","ts":"2024-05-01T12:00:00+02:00","extra":1}

                {"userId":"ana","event":"checkout","ts":"2024-05-01T10:20:00Z"}
                """;

        assertThat(CartEventFiles.parse("mem.jsonl", new StringReader(text))).containsExactly(
                CartEvent.add("ana", "boots", at("10:00")),
                CartEvent.checkout("ana", at("10:20")));
    }

    @Test
    void aMalformedLineFailsNamingFileAndLine(@TempDir Path folder) throws IOException {
        Path file = folder.resolve("bad.jsonl");
        Files.writeString(file, """
                {"userId":"ana","event":"add","item":"boots","ts":"2024-05-01T10:00:00Z"}

                {"userId":"ana","event":"add","item":"socks","ts":
                """);

        assertThatThrownBy(() -> CartEventFiles.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("bad.jsonl line 3: not valid JSON");
    }

    @Test
    void missingOrInvalidFieldsFailNamingFileAndLine() {
        assertThatThrownBy(() -> CartEventFiles.parse("f.jsonl", new StringReader(
                "{\"userId\":\"ana\",\"event\":\"add\",\"item\":\"boots\"}")))
                .hasMessage("f.jsonl line 1: missing field \"ts\"");
        assertThatThrownBy(() -> CartEventFiles.parse("f.jsonl", new StringReader(
                "\n{\"userId\":\"ana\",\"event\":\"add\",\"item\":\"boots\",\"ts\":\"2024-05-01 10:00\"}")))
                .hasMessageStartingWith("f.jsonl line 2: ts is not an ISO-8601 time");
        assertThatThrownBy(() -> CartEventFiles.parse("f.jsonl", new StringReader(
                "{\"userId\":\"ana\",\"event\":\"remove\",\"item\":\"boots\",\"ts\":\"2024-05-01T10:00:00Z\"}")))
                .hasMessage("f.jsonl line 1: event must be \"add\" or \"checkout\", got \"remove\"");
        assertThatThrownBy(() -> CartEventFiles.parse("f.jsonl", new StringReader("[1, 2]")))
                .hasMessageStartingWith("f.jsonl line 1: expected one JSON object per line");
        assertThatThrownBy(() -> CartEventFiles.parse("f.jsonl", new StringReader(
                "{\"userId\":\"ana\",\"event\":\"checkout\",\"ts\":\"2024-05-01T10:00:00Z\"} {}")))
                .hasMessageStartingWith("f.jsonl line 1: not valid JSON");
    }
}
