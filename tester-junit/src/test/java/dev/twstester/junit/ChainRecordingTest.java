package dev.twstester.junit;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.junit.internal.TraceFiles;

/** A {@link TestSimulator} of a query of two operators ({@link ZoneRelay#chain()}), without the extension. */
class ChainRecordingTest {
    final TestSimulator<String, Reading, String> sim = TestSimulator.of("zones", ZoneRelay.chain());

    @Test
    void the_timeline_shows_each_operators_part_of_every_batch_and_each_operators_state_changes() {
        sim.runBatch(reading("a1", 10, 0), reading("a2", 11, 1), reading("b1", 12, 5));
        sim.state(1).setValue("count", "a", 40L);
        sim.runBatch(reading("a1", 20, 0));

        assertThat(sim.timeline()).isEqualTo("""
                timeline of simulator 'zones' (ZoneRelay (EventTime mode, Update output, watermark on ts delayed PT5S) \
                then TallyProcessor (EventTime mode, Update output)): 3 calls, 4 batches; times in UTC
                #1 runBatch(3 rows)
                  batch 0 (data), processing time 1970-01-01T00:00:00Z
                    input: 3 rows, dropped late: none
                    watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
                    operator 0: timers fired: none, outputs: 2
                      a@1970-01-01T00:00:10Z#0
                      a@1970-01-01T00:00:11Z#1
                    operator 1: received 2 rows, dropped late: none, timers fired: none
                    outputs: 1
                      a=2
                  batch 1 (no data), processing time 1970-01-01T00:00:00Z
                    input: 0 rows, dropped late: none
                    watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:07Z
                    operator 0: timers fired: none, outputs: none
                    operator 1: received 0 rows, dropped late: none, timers fired: none
                    outputs: none
                  state changes:
                    operator 0, key a1, value state seen: (none) -> 1
                    operator 0, key a2, value state seen: (none) -> 1
                    operator 0, key b1, value state seen: (none) -> 1
                    operator 1, key a, value state count: (none) -> 2
                    operator 1, key a, list state kinds: (none) -> [0, 1]
                    operator 1, key a, map state perKind: (none) -> {0=1, 1=1}
                    operator 1, key a, timers: (none) -> [1970-01-01T00:00:13Z]
                #2 state(1).setValue("count", a, 40)
                  no batch ran
                  state changes:
                    operator 1, key a, value state count: 2 -> 40
                #3 runBatch(1 row)
                  batch 2 (data), processing time 1970-01-01T00:00:00Z
                    input: 1 row, dropped late: none
                    watermark: late 1970-01-01T00:00:07Z, eviction 1970-01-01T00:00:07Z
                    operator 0: timers fired: none, outputs: 1
                      a@1970-01-01T00:00:20Z#0
                    operator 1: received 1 row, dropped late: none, timers fired: none
                    outputs: 1
                      a=41
                  batch 3 (no data), processing time 1970-01-01T00:00:00Z
                    input: 0 rows, dropped late: none
                    watermark: late 1970-01-01T00:00:07Z, eviction 1970-01-01T00:00:15Z
                    operator 0: timers fired: none, outputs: none
                    operator 1: received 0 rows, dropped late: none, timers fired: [a@1970-01-01T00:00:13Z]
                    outputs: 1
                      a timer 1970-01-01T00:00:13Z
                  state changes:
                    operator 0, key a1, value state seen: 1 -> 2
                    operator 1, key a, value state count: 40 -> (none)
                    operator 1, key a, list state kinds: [0, 1] -> (none)
                    operator 1, key a, map state perKind: {0=1, 1=1} -> (none)
                    operator 1, key a, timers: [1970-01-01T00:00:13Z] -> (none)
                now: watermark 1970-01-01T00:00:15Z, processing time 1970-01-01T00:00:00Z, next batch 4""");
    }

    @Test
    void the_timeline_page_draws_the_first_operators_keys_and_the_querys_outputs(@TempDir Path dir) throws Exception {
        sim.runBatch(reading("a1", 10, 0), reading("a2", 11, 1), reading("b1", 12, 5));
        sim.runBatch(reading("a1", 20, 0));

        sim.saveTrace(dir);

        String html = Files.readString(dir.resolve("_timeline.html"), StandardCharsets.UTF_8);
        assertThat(Kit.matches(html, "<g class=\"lane\" data-key=\"(\\w+)\"")).containsExactly("a1", "a2", "b1");
        // value state shows as its size, 1, after every batch
        assertThat(Kit.matches(html, "<title>(a1 after batch \\d: [^<]*)</title>")).containsExactly(
                "a1 after batch 0: seen=1", "a1 after batch 1: seen=1", "a1 after batch 2: seen=1",
                "a1 after batch 3: seen=1");
        assertThat(html).contains("<p class=\"note\">The lanes are the first operator&#39;s keys; the outputs are the"
                + " query&#39;s, its last operator&#39;s.</p>");
        int detail = html.indexOf("<div class=\"detail\" id=\"detail-3\"");
        assertThat(html.substring(detail, html.indexOf("</div>", detail)))
                .contains("<h3>outputs: 1</h3><ul class=\"rows outputs\"><li>a timer 1970-01-01T00:00:13Z</li></ul>");
        List<String> lines = Files.readAllLines(dir.resolve(TraceFiles.TIMELINE_FILE));
        assertThat(lines.get(0)).contains("\"operators\":[\"dev.twstester.junit.ZoneRelay\","
                + "\"dev.twstester.junit.TallyProcessor\"]");
        assertThat(lines).contains("{\"call\":2,\"stateChange\":{\"operator\":1,\"key\":\"a\",\"kind\":\"value\","
                + "\"variable\":\"count\",\"before\":\"2\",\"after\":null}}");
    }
}
