package dev.twstester.samples.cart;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.sim.TwsSimulator;

/** The three-file story: one JSON-lines file per micro-batch, as Spark's file source would read them. */
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

    private final List<CartEventFiles.EventFile> files = CartEventFiles.story();
    private final TwsSimulator<String, CartEvent, CartAlert> sim = new TwsSimulator<>(CartWatch.query());

    @Test
    void file1FillsAnasAndBosCartsWithoutOutput() {
        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(files.get(0).events());

        assertThat(run.outputs()).isEmpty();
        assertThat(run.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
        assertThat(run.batches()).extracting(BatchResult::hadInput).containsExactly(true, false);
        assertThat(sim.watermark()).isEqualTo(at("09:58"));   // bo's mug at 10:08 - 10 min
        assertThat(sim.state().list("items", "ana")).containsExactly("boots", "socks");
        assertThat(sim.state().value("last_seen", "ana")).contains(at("10:05").toEpochMilli());
        assertThat(sim.state().timers("ana")).containsExactly(at("10:35"));
        assertThat(sim.state().list("items", "bo")).containsExactly("mug");
        assertThat(sim.state().timers("bo")).containsExactly(at("10:38"));
    }

    @Test
    void file2MovesTheWatermarkOnlyTo1010SoAnaIsNotFlagged() {
        sim.runBatch(files.get(0).events());

        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(files.get(1).events());

        assertThat(run.outputs()).isEmpty();
        assertThat(run.firedTimers()).isEmpty();
        assertThat(run.batches()).extracting(BatchResult::batchId).containsExactly(2L, 3L);
        assertThat(run.lastBatch().hadInput()).isFalse();
        assertThat(run.lastBatch().evictionWatermark()).isEqualTo(at("10:10"));
        assertThat(sim.watermark()).isEqualTo(at("10:10"));
        assertThat(sim.state().list("items", "ana")).containsExactly("boots", "socks");
        // bo added a scarf, then checked out: cart and timer gone
        assertThat(sim.state().hasState("bo")).isFalse();
    }

    @Test
    void file3DropsBosLateHatAndTheNoDataBatchAfterItFlagsAna() {
        sim.runBatch(files.get(0).events());
        sim.runBatch(files.get(1).events());

        RunResult<String, CartEvent, CartAlert> run = sim.runBatch(files.get(2).events());

        assertThat(run.batches()).hasSize(2);
        BatchResult<String, CartEvent, CartAlert> data = run.batches().get(0);
        assertThat(data.batchId()).isEqualTo(4L);
        assertThat(data.hadInput()).isTrue();
        assertThat(data.lateWatermark()).isEqualTo(at("10:10"));
        assertThat(data.evictionWatermark()).isEqualTo(at("10:10"));
        assertThat(data.droppedLate()).containsExactly(CartEvent.add("bo", "hat", at("10:09")));
        assertThat(data.outputs()).isEmpty();

        BatchResult<String, CartEvent, CartAlert> noData = run.batches().get(1);
        assertThat(noData.batchId()).isEqualTo(5L);
        assertThat(noData.hadInput()).isFalse();
        assertThat(noData.evictionWatermark()).isEqualTo(at("10:40"));
        assertThat(noData.outputs()).containsExactly(new CartAlert("ana", 2, at("10:05")));
        assertThat(noData.firedTimers()).containsExactly(new FiredTimer<>("ana", at("10:35")));

        assertThat(sim.history().batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(sim.history().outputs()).containsExactly(new CartAlert("ana", 2, at("10:05")));
        assertThat(sim.state().keys()).containsExactly("cy");
        assertThat(sim.state().list("items", "cy")).containsExactly("lamp");
        assertThat(sim.state().timers("cy")).containsExactly(at("11:20"));
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
