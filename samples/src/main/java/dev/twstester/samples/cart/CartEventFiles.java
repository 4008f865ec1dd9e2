package dev.twstester.samples.cart;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads cart events from JSON-lines files, the format Spark's JSON file source reads: one object
 * per line with {@code userId}, {@code event} ("add" or "checkout"), {@code item} (for "add") and
 * {@code ts} (ISO-8601 with offset, e.g. {@code "2024-05-01T10:00:00Z"}). Blank lines are skipped,
 * unknown fields ignored. Errors name the file and the 1-based line.
 */
public final class CartEventFiles {
    /** The story's files, one micro-batch each, under {@code cart/} on the classpath. */
    public static final List<String> STORY_FILES = List.of("001.jsonl", "002.jsonl", "003.jsonl");

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private CartEventFiles() {
    }

    /** One input file and its events, in line order. */
    public record EventFile(String name, List<CartEvent> events) {
        public EventFile {
            events = List.copyOf(events);
        }
    }

    /** The three story files from the classpath ({@code cart/001.jsonl} ...). */
    public static List<EventFile> story() {
        List<EventFile> files = new ArrayList<>();
        for (String name : STORY_FILES) {
            files.add(resource("cart/" + name));
        }
        return files;
    }

    /** A classpath resource, e.g. {@code "cart/001.jsonl"}; the file name is its last path segment. */
    public static EventFile resource(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        InputStream in = CartEventFiles.class.getClassLoader().getResourceAsStream(path);
        if (in == null) {
            throw new IllegalArgumentException("no classpath resource " + path);
        }
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return new EventFile(name, parse(name, reader));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    /** Every {@code *.jsonl} file of {@code folder}, sorted by name: one micro-batch each. */
    public static List<EventFile> folder(Path folder) {
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException(folder + " is not a folder");
        }
        try (Stream<Path> listing = Files.list(folder)) {
            List<Path> paths = listing.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
            if (paths.isEmpty()) {
                throw new IllegalArgumentException("no *.jsonl file in " + folder);
            }
            List<EventFile> files = new ArrayList<>();
            for (Path p : paths) {
                files.add(new EventFile(p.getFileName().toString(), read(p)));
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + folder, e);
        }
    }

    /** The events of one file. */
    public static List<CartEvent> read(Path file) {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(file.getFileName().toString(), reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Parses JSON lines; {@code fileName} is only used in error messages. */
    public static List<CartEvent> parse(String fileName, Reader reader) throws IOException {
        BufferedReader lines = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
        List<CartEvent> events = new ArrayList<>();
        String line;
        int number = 0;
        while ((line = lines.readLine()) != null) {
            number++;
            if (!line.isBlank()) {
                events.add(event(fileName, number, line));
            }
        }
        return events;
    }

    private static CartEvent event(String file, int line, String text) {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw error(file, line, "not valid JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw error(file, line, "expected one JSON object per line, got: " + text.strip());
        }
        String userId = text(node, "userId", file, line, true);
        String event = text(node, "event", file, line, true);
        if (!event.equals("add") && !event.equals("checkout")) {
            throw error(file, line, "event must be \"add\" or \"checkout\", got \"" + event + "\"");
        }
        String item = text(node, "item", file, line, event.equals("add"));
        String ts = text(node, "ts", file, line, true);
        Timestamp timestamp;
        try {
            timestamp = Timestamp.from(OffsetDateTime.parse(ts).toInstant());
        } catch (DateTimeParseException e) {
            throw error(file, line, "ts is not an ISO-8601 time with offset like 2024-05-01T10:00:00Z: \"" + ts + "\"");
        }
        return new CartEvent(userId, event, item, timestamp);
    }

    private static String text(JsonNode node, String field, String file, int line, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw error(file, line, "missing field \"" + field + "\"");
            }
            return null;
        }
        if (!value.isTextual()) {
            throw error(file, line, "field \"" + field + "\" must be a string, got " + value);
        }
        return value.asText();
    }

    private static IllegalArgumentException error(String file, int line, String message) {
        return new IllegalArgumentException(file + " line " + line + ": " + message);
    }
}
