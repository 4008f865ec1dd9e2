package dev.twstester.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.TwsQuery;
import dev.twstester.sim.InitialStateProcessor;
import dev.twstester.sim.Log;
import dev.twstester.sim.TwsSimulator;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/** The timeline page's content: what it draws for each batch and key, its bounds, its escaping. */
class TimelinePageTest {
    /**
     * Rows {@code key+ms} register a processing-time timer, {@code key-ms} delete one, anything
     * else after the key is appended to list state {@code seen}; a fired timer emits {@code key@ms}.
     */
    static final class TimerCommands extends StatefulProcessor<String, String, String> {
        private static final long serialVersionUID = 1L;
        private transient ListState<String> seen;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            seen = getHandle().getListState("seen", Encoders.STRING(), TTLConfig.NONE());
        }

        @Override
        public Iterator<String> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
            while (rows.hasNext()) {
                String row = rows.next().substring(key.length());
                if (row.startsWith("+")) {
                    getHandle().registerTimer(Long.parseLong(row.substring(1)));
                } else if (row.startsWith("-")) {
                    getHandle().deleteTimer(Long.parseLong(row.substring(1)));
                } else {
                    seen.appendValue(row);
                }
            }
            return CollectionConverters.asScala(List.<String>of().iterator());
        }

        @Override
        public Iterator<String> handleExpiredTimer(String key, TimerValues timerValues, ExpiredTimerInfo expired) {
            seen.clear();
            return CollectionConverters.asScala(List.of(key + "@" + expired.getExpiryTimeInMs()).iterator());
        }
    }

    static TwsQuery<String, String, String> query() {
        return TwsQuery.builder(TimerCommands::new)
                .keyBy(row -> row.substring(0, 1), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .outputMode(OutputMode.Update())
                .build();
    }

    @TempDir
    Path dir;

    @Test
    void drawsEachKeysTimersAndStateAsTheSimulatorLeftThemAfterEachBatch() throws IOException {
        TimelinePage<String, String, String> page = TimelinePage.of(query(), "timers");
        TwsSimulator<String, String, String> sim = TwsSimulator.builder(query()).listener(page).build();
        sim.runBatch("a+1000", "a+2000", "bx", "b+1500", "ay", "az");     // batch 0
        sim.runBatch("a-2000", "a+2000", "b-1500");                        // batch 1: a's set again, b's deleted
        sim.setProcessingTime(Instant.ofEpochMilli(1000));                 // batch 2 (no data): a's 1000 fires
        List<BatchResult<String, String, String>> ran = sim.history().batches();
        assertThat(ran).hasSize(3);
        assertThat(ran.get(2).firedTimers()).containsExactly(new FiredTimer<>("a", Instant.ofEpochMilli(1000)));

        String html = page.html();
        // lane by lane (a, b), batch by batch; a-2000 then a+2000 within batch 1 leaves a's timers as they
        // were: nothing to draw (the batch's metrics count both)
        assertThat(markers(html)).containsExactly(
                "registered a 0 1970-01-01T00:00:01Z", "registered a 0 1970-01-01T00:00:02Z",
                "fired a 2 1970-01-01T00:00:01Z",
                "registered b 0 1970-01-01T00:00:01.500Z", "deleted b 1 1970-01-01T00:00:01.500Z");
        assertThat(stateSizes(html)).containsExactly("a 0 2", "b 0 1", "a 1 2", "b 1 1", "b 2 1");
        assertThat(html).contains("<title>a after batch 0: seen=2</title>");
        // per key, the batches it had input in
        assertThat(html).contains("<title>a: 4 input rows in batch 0</title>", "<title>b: 2 input rows in batch 0</title>",
                "<title>a: 2 input rows in batch 1</title>", "<title>b: 1 input row in batch 1</title>");
        assertThat(html).doesNotContain("input rows in batch 2").doesNotContain("input row in batch 2");
        // the batch's panel: outputs and fired timers as text
        assertThat(detail(html, 2)).contains("<h2>batch 2 (no data)</h2>").contains("<li>a@1000</li>")
                .contains("<li>a @ 1970-01-01T00:00:01Z</li>");
        // the processing-time line: a point per batch, the epoch on the baseline, 1000 ms (the only
        // other instant) in the middle
        assertThat(attribute(html, "polyline class=\"line processing\" id=\"line-processing\" points")).isEqualTo(
                "192,216 256,216 320,187");

        Path file = page.write(dir.resolve("sub/page.html"));
        assertThat(Files.readString(file)).isEqualTo(html);
    }

    @Test
    void keysWithInitialStateOnlyGetLanesToo() {
        TwsQuery<String, String, String> query = TwsQuery.builder(InitialStateProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .initialState(List.of(Map.entry("c", 30L), Map.entry("b", 20L)), Encoders.LONG())
                .build();
        TimelinePage<String, String, String> page = TimelinePage.of(query, "initial state");
        TwsSimulator<String, String, String> sim = TwsSimulator.builder(query).listener(page).build();
        sim.runBatchAt(Instant.ofEpochMilli(2000), List.of("a,x"));
        Log.drain();
        String html = page.html();

        // a from its input row, b and c from their initial state, drawn in Spark's key order
        assertThat(all(html, "<g class=\"lane\" data-key=\"(\\w)\"")).containsExactly("a", "b", "c");
        assertThat(html).contains("<title>a: 1 input row in batch 0</title>").doesNotContain("<title>b: ")
                .contains("<title>b after batch 0: s=1</title>");
    }

    @Test
    void aPageFilledByHandShowsStateWhereItWasGiven() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query());
        List<BatchResult<String, String, String>> batches = new ArrayList<>(sim.runBatch("a+1000").batches());
        batches.addAll(sim.runBatch("a-1000", "a+3000").batches());
        TimelinePage<String, String, String> page = TimelinePage.of(query(), "by hand");
        assertThatThrownBy(() -> page.stateAfter(Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("stateAfter: add a batch first; the state belongs to the last batch added");

        page.add(batches.get(0)).add(batches.get(1));   // the state is known after batch 1 only
        page.stateAfter(Map.of("a", new TimelinePage.KeyState(List.of(Instant.ofEpochMilli(3000)), Map.of())));
        String html = page.html();

        assertThat(markers(html)).containsExactly("registered a 1 1970-01-01T00:00:03Z");
        assertThat(stateSizes(html)).isEmpty();
        assertThat(count(html, "<rect class=\"col\" ")).isEqualTo(2);
    }

    @Test
    void boundsKeysAndBatchesAndSaysSo() {
        TimelinePage<String, String, String> page = TimelinePage.of(query(), "big");
        TwsSimulator<String, String, String> sim = TwsSimulator.builder(query()).keepHistory(false).listener(page).build();
        List<String> rows = new ArrayList<>();
        for (char c = '!'; c < '!' + 35; c++) {   // 35 one-character keys
            rows.add(c + "x");
        }
        sim.runBatch(rows);
        for (int i = 1; i <= TimelinePage.MAX_BATCHES + 4; i++) {
            sim.setProcessingTime(Instant.ofEpochMilli(i));   // one batch each (ProcessingTime mode)
        }
        String html = page.html();

        assertThat(count(html, "<rect class=\"col\" ")).isEqualTo(TimelinePage.MAX_BATCHES);
        assertThat(count(html, "<g class=\"lane\" ")).isEqualTo(TimelinePage.MAX_KEYS);
        assertThat(html).contains("<p class=\"note\">The first 5 batches are left out: the page shows the last 400.</p>")
                .contains("<p class=\"note\">Key lanes: the first 30 keys seen; 5 other keys are left out (their rows"
                        + " still count in the batch rows).</p>");
        assertThat(html).contains("data-batch=\"5\"").doesNotContain("data-batch=\"4\"");
    }

    @Test
    void userTextIsEscapedAndThePageLoadsNothing() {
        TimelinePage<String, String, String> page = TimelinePage.of(query(), "</title><script>alert(1)</script>")
                .note("<img src=x onerror=alert(2)> & 'quotes' \"too\"");
        TwsSimulator<String, String, String> sim = TwsSimulator.builder(query()).listener(page).build();
        sim.runBatch("<script>alert(3)</script>", "'onmouseover='alert(4)", "\"><svg onload=alert(5)>");
        String html = page.html();

        assertThat(count(html, "<script")).isEqualTo(1);   // the page's own
        assertThat(html).doesNotContain("<img").doesNotContain("<svg onload").doesNotContain("'onmouseover='")
                .doesNotContain("http://").doesNotContain("https://").doesNotContain(" href=")
                .contains("<h1>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>")
                .contains("<p class=\"note\">&lt;img src=x onerror=alert(2)&gt; &amp; &#39;quotes&#39; &quot;too&quot;</p>")
                .contains("<li>&lt;script&gt;alert(3)&lt;/script&gt;</li>")
                .contains("<g class=\"lane\" data-key=\"&lt;\">", "<g class=\"lane\" data-key=\"&#39;\">",
                        "<g class=\"lane\" data-key=\"&quot;\">");
        assertThat(TimelineHtml.esc("a<b>&\"'\u0001")).isEqualTo("a&lt;b&gt;&amp;&quot;&#39;\\u0001");
    }

    /** "kind key batchIndex time" of each timer marker. */
    static List<String> markers(String html) {
        Matcher m = Pattern.compile("<g class=\"timer (\\w+)\" data-key=\"([^\"]*)\" data-index=\"(\\d+)\" data-batch=\"\\d+\""
                + " data-time=\"([^\"]+)\">").matcher(html);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1) + " " + m.group(2) + " " + m.group(3) + " " + m.group(4));
        }
        return out;
    }

    /** "key batchIndex size" of each state bar, lane by lane. */
    static List<String> stateSizes(String html) {
        Matcher m = Pattern.compile("<g class=\"state\" data-key=\"([^\"]*)\" data-index=\"(\\d+)\" data-size=\"(\\d+)\">")
                .matcher(html);
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        while (m.find()) {
            byKey.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(m.group(1) + " " + m.group(2) + " " + m.group(3));
        }
        List<String> out = new ArrayList<>();
        byKey.values().forEach(out::addAll);
        return sortByBatch(out);
    }

    private static List<String> sortByBatch(List<String> sizes) {
        List<String> out = new ArrayList<>(sizes);
        out.sort((x, y) -> Integer.compare(Integer.parseInt(x.split(" ")[1]), Integer.parseInt(y.split(" ")[1])));
        return out;
    }

    static String detail(String html, int index) {
        int start = html.indexOf("<div class=\"detail\" id=\"detail-" + index + "\"");
        return html.substring(start, html.indexOf("</div>", start));
    }

    static String attribute(String html, String prefix) {
        int start = html.indexOf(prefix + "=\"") + prefix.length() + 2;
        return html.substring(start, html.indexOf('"', start));
    }

    static List<String> all(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    static int count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
