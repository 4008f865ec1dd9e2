package dev.twstester.samples.cart;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

/** The three-file story: one JSON-lines file per micro-batch, as Spark's file source would read them. */
@Isolated("runMain replaces System.out to read what the program prints: another test printing meanwhile would show in it")
@TwsTest
class CartStoryTest {
    static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    static final String EXPECTED_STORY = """
            CartWatch: a cart is abandoned 30 min (event time) after its last add; watermark = max event time - 10 min. Times in UTC.
            batch 0 (data, 001.jsonl)
              rows in: 3, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: none
              timers fired: none
            batch 1 (no data, after 001.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 2024-05-01T09:58:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: none
              timers fired: none
            batch 2 (data, 002.jsonl)
              rows in: 2, dropped late: 0
              watermark: late 2024-05-01T09:58:00Z, eviction 2024-05-01T09:58:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: none
              timers fired: none
            batch 3 (no data, after 002.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 2024-05-01T09:58:00Z, eviction 2024-05-01T10:10:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: none
              timers fired: none
            batch 4 (data, 003.jsonl)
              rows in: 2, dropped late: 1 [CartEvent{userId=bo, event=add, item=hat, ts=2024-05-01T10:09:00Z}]
              watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:10:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: none
              timers fired: none
            batch 5 (no data, after 003.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:40:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs:
                CartAlert{userId=ana, itemCount=2, lastSeen=2024-05-01T10:05:00Z}
              timers fired: [ana@2024-05-01T10:35:00Z]
            total: 6 batches for 3 files, 1 alert(s); watermark now 2024-05-01T10:40:00Z; carts open: [cy]
            """;

    static TwsQuery<String, CartEvent, CartAlert> query() {
        return CartWatch.query();
    }

    private final List<CartEventFiles.EventFile> files = CartEventFiles.story();
    @Simulator TestSimulator<String, CartEvent, CartAlert> sim;

    @Test
    void file1FillsAnasAndBosCartsWithoutOutput() {
        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(files.get(0).events());

        assertThat(run).outputs().isEmpty();
        assertThat(run).hasBatchIds(0, 1);
        assertThat(run).batch(0).isDataBatch();
        assertThat(run).batch(1).isNoDataBatch();
        assertThat(sim).hasWatermark(at("09:58"));   // bo's mug at 10:08 - 10 min
        assertThat(sim).listState("items", "ana").containsExactly("boots", "socks");
        assertThat(sim).valueState("last_seen", "ana").contains(at("10:05").toEpochMilli());
        assertThat(sim).timers("ana").containsExactly(at("10:35"));
        assertThat(sim).listState("items", "bo").containsExactly("mug");
        assertThat(sim).timers("bo").containsExactly(at("10:38"));
    }

    @Test
    void file2MovesTheWatermarkOnlyTo1010SoAnaIsNotFlagged() {
        sim.runBatch(files.get(0).events());

        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(files.get(1).events());

        assertThat(run).outputs().isEmpty();
        assertThat(run).firedTimers().isEmpty();
        assertThat(run).hasBatchIds(2, 3);
        assertThat(run).lastBatch().isNoDataBatch().hasEvictionWatermark(at("10:10"));
        assertThat(sim).hasWatermark(at("10:10"));
        assertThat(sim).listState("items", "ana").containsExactly("boots", "socks");
        // bo added a scarf, then checked out: cart and timer gone
        assertThat(sim).hasNoStateFor("bo");
    }

    @Test
    void file3DropsBosLateHatAndTheNoDataBatchAfterItFlagsAna() {
        sim.runBatch(files.get(0).events());
        sim.runBatch(files.get(1).events());

        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(files.get(2).events());

        assertThat(run).hasBatchIds(4, 5);
        assertThat(run).batch(4).isDataBatch().hasLateWatermark(at("10:10")).hasEvictionWatermark(at("10:10"));
        assertThat(run).batch(4).droppedLate().containsExactly(CartEvent.add("bo", "hat", at("10:09")));
        assertThat(run).batch(4).outputs().isEmpty();

        assertThat(run).batch(5).isNoDataBatch().hasEvictionWatermark(at("10:40"));
        assertThat(run).batch(5).outputs().containsExactly(new CartAlert("ana", 2, at("10:05")));
        assertThat(run).batch(5).firedTimers().containsExactly(new FiredTimer<>("ana", at("10:35")));

        assertThat(sim).history().hasBatchIds(0, 1, 2, 3, 4, 5);
        assertThat(sim).outputs().containsExactly(new CartAlert("ana", 2, at("10:05")));
        assertThat(sim).keysWithState().containsExactly("cy");
        assertThat(sim).listState("items", "cy").containsExactly("lamp");
        assertThat(sim).timers("cy").containsExactly(at("11:20"));
    }

    @Test
    void mainPrintsTheStoryBatchByBatchInUtc() {
        assertThat(runMain()).isEqualTo(EXPECTED_STORY);
    }

    @Test
    void mainReplaysAFolderGivenAsFirstArgument(@TempDir Path folder) throws IOException {
        for (String name : CartEventFiles.STORY_FILES) {
            try (InputStream in = getClass().getClassLoader().getResourceAsStream("cart/" + name)) {
                Files.copy(in, folder.resolve(name));
            }
        }
        Files.writeString(folder.resolve("notes.txt"), "not an event file");

        assertThat(runMain(folder.toString())).isEqualTo(EXPECTED_STORY);
    }

    private static String runMain(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            CartStory.main(args);
        } finally {
            System.setOut(original);
        }
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
