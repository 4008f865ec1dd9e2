package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failing {@code @TwsTest} leaves {@code _timeline.html} in its trace folder: the test's batches,
 * each key's state and timers after each batch, the failure. (The page's rendering is checked in
 * Chromium by the samples' TimelinePageBrowserTest.)
 */
class TraceTimelinePageTest {
    @TempDir
    Path traces;

    @Test
    void a_failing_test_leaves_its_timeline_page_next_to_the_trace() throws Exception {
        // WHEN
        Kit.run(TwsExtensionExamples.Failing.class, traces);

        // THEN
        Path page = traces.resolve("dev.twstester.junit.TwsExtensionExamples$Failing").resolve("fails").resolve("sim")
                .resolve("_timeline.html");
        String html = Files.readString(page, StandardCharsets.UTF_8);
        assertThat(html).startsWith("<!DOCTYPE html>").doesNotContain("http://").doesNotContain("https://")
                .contains("<h1>dev.twstester.junit.TwsExtensionExamples$Failing#fails()</h1>")
                .contains("<p class=\"note\">simulator &#39;sim&#39;: TallyProcessor, EventTime mode, Update output,"
                        + " watermark on ts delayed PT5S</p>")
                .contains("<p class=\"note\">failed: AssertionFailedError: [value state &#39;count&#39; of key"
                        + " &quot;a&quot; after batch 3]  ...</p>");
        // the four batches of calls #1 and #3 (call #2 ran none), the keys a and b
        assertThat(Kit.matches(html, "<rect class=\"col\" data-index=\"\\d+\" data-batch=\"(\\d+)\"")).containsExactly("0", "1", "2", "3");
        assertThat(Kit.matches(html, "<g class=\"lane\" data-key=\"(\\w+)\"")).containsExactly("a", "b");
        // state after each batch: count, kinds and perKind (the test's write of a's count between batches 1 and 2
        // leaves its size); b's gone after its timer
        assertThat(Kit.matches(html, "<title>(\\w after batch \\d: [^<]*)</title>")).containsExactly(
                "a after batch 0: count=1 kinds=1 perKind=1", "a after batch 1: count=1 kinds=1 perKind=1",
                "a after batch 2: count=1 kinds=2 perKind=1", "a after batch 3: count=1 kinds=2 perKind=1",
                "b after batch 0: count=1 kinds=1 perKind=1", "b after batch 1: count=1 kinds=1 perKind=1",
                "b after batch 2: count=1 kinds=1 perKind=1");
        // b's timer: registered in batch 0, fired in batch 3
        assertThat(Kit.matches(html, "<g class=\"timer (\\w+\" data-key=\"\\w\" data-index=\"\\d)\"")).containsExactly(
                "registered\" data-key=\"b\" data-index=\"0", "fired\" data-key=\"b\" data-index=\"3");
        // batch 2's panel: the dropped row and the output
        int detail = html.indexOf("<div class=\"detail\" id=\"detail-2\"");
        assertThat(html.substring(detail, html.indexOf("</div>", detail)))
                .contains("<h3>dropped late: 1</h3><ul class=\"rows dropped\"><li>{&quot;kind&quot;:0,&quot;sensor&quot;:"
                        + "&quot;b&quot;,&quot;ts&quot;:&quot;1970-01-01T00:00:03Z&quot;}</li></ul>")
                .contains("<h3>outputs: 1</h3><ul class=\"rows outputs\"><li>a=42</li></ul>");
    }
}
