package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay --html FILE}: the simulator's run as one self-contained page, next to an unchanged
 * report. (The page's rendering in a browser is checked by the samples' TimelinePageBrowserTest.)
 */
class ReplayHtmlTest {
    static final String CART = ReplayCartStoryTest.CART;

    @TempDir
    Path dir;

    @Test
    void writesTheCartStoryPageAndPrintsTheSameReport() throws IOException {
        Path page = dir.resolve("pages/cart.html");   // the folder is created
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--html", page.toString());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(ReplayCartStoryTest.header(CART + "#query") + ReplayCartStoryTest.STORY);
        assertThat(r.err()).isEqualTo("twstester: replaying 3 files with " + CART + "#query on the simulator\n"
                + "twstester: timeline page written to " + page + "\n");
        String html = Files.readString(page, StandardCharsets.UTF_8);
        assertThat(html).startsWith("<!DOCTYPE html>").doesNotContain("http://").doesNotContain("https://");
        assertThat(count(html, "<rect class=\"col\" ")).isEqualTo(6);
        assertThat(count(html, "<g class=\"lane\" ")).isEqualTo(3);
        assertThat(html).contains("<h1>replay: " + CART + "#query</h1>")
                .contains("3 files, steps from options; every batch as the simulator ran it")
                .contains("<g class=\"timer fired\" data-key=\"ana\" data-index=\"5\" data-batch=\"5\""
                        + " data-time=\"2024-05-01T10:35:00Z\">")
                .contains("<li>{&quot;event&quot;:&quot;add&quot;,&quot;item&quot;:&quot;hat&quot;,&quot;ts&quot;:"
                        + "&quot;2024-05-01T10:09:00Z&quot;,&quot;userId&quot;:&quot;bo&quot;}</li>");
        assertThat(count(html, "class=\"timer fired\" data-key")).isEqualTo(1);
    }

    @Test
    void aFailingReplayStillWritesTheBatchesThatRan() throws IOException {
        Path page = dir.resolve("failed.html");
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query",
                "dev.twstester.cli.fixtures.cart.SoldOutCart", "--html", page.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(4);
        assertThat(r.err()).contains("twstester: timeline page written to " + page + "\n");
        String html = Files.readString(page, StandardCharsets.UTF_8);
        assertThat(html).contains("The replay stopped with an error after the last batch shown");
        // 001.jsonl and 002.jsonl ran (with their no-data batches); 003.jsonl's batch threw and committed
        // nothing: a column of its own, marked failed
        assertThat(count(html, "<rect class=\"col\" ")).isEqualTo(5);
        assertThat(count(html, ">failed</text>")).isEqualTo(1);
    }

    @Test
    void aFolderIsAUsageError() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--html", dir.toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--html " + dir + ": is a folder; give the page's file name, e.g. "
                + dir.resolve("timeline.html"));
        assertThat(r.out()).isEmpty();
    }

    @Test
    void helpDescribesTheOption() {
        Cli.Result r = Cli.run("replay", "--help");

        assertThat(r.out().replaceAll("\\s+", " ")).contains("--html=<file> Also write the simulator's run as one"
                + " self-contained HTML page (no external resource, opens offline)");
    }

    private static int count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
