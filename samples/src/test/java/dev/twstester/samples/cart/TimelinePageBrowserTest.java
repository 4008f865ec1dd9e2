package dev.twstester.samples.cart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.report.TimelinePage;
import dev.twstester.sim.TwsSimulator;

/**
 * The timeline page of the cart story (the README's replay of {@code samples/src/main/resources/cart})
 * opened in the OS's headless Chromium: what the browser renders is what the simulator ran. Skipped
 * only when no Chromium is installed ({@code .ci/run} installs it, so CI always runs it); keeps
 * {@code target/timeline/cart-timeline.png}.
 */
// the tests share one browser (starting Chromium costs seconds): one at a time, alongside other classes
@Execution(ExecutionMode.SAME_THREAD)
class TimelinePageBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path OUT = Path.of("target", "timeline");

    static ChromeDriver browser;

    @BeforeAll
    static void startChromium() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "no Chromium at " + CHROMIUM + " with " + CHROMEDRIVER + ": install them with `apt-get install -y"
                        + " chromium chromium-driver` (Debian; .ci/run does this when they are missing)");
        Path profile = Files.createTempDirectory("twstester-chromium");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1040,800",
                "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopChromium() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void cartStoryPageShowsWhatTheSimulatorRan() throws IOException {
        TimelinePage<String, CartEvent, CartAlert> page = TimelinePage.of(CartWatch.query(), "cart story: CartWatch");
        TwsSimulator<String, CartEvent, CartAlert> sim = TwsSimulator.builder(CartWatch.query()).listener(page).build();
        for (CartEventFiles.EventFile file : CartEventFiles.story()) {
            sim.runBatch(file.events());
        }
        RunResult<String, CartEvent, CartAlert> run = sim.history();
        Path html = page.write(OUT.resolve("cart-timeline.html"));
        String text = Files.readString(html, StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("http://").doesNotContain("https://").doesNotContain(" src=");

        browser.get(html.toUri().toString());

        // a column per batch, in order
        List<WebElement> columns = browser.findElements(By.cssSelector("rect.col"));
        assertThat(run.batches()).hasSize(6);
        assertThat(columns).hasSize(run.batches().size());
        for (int i = 0; i < columns.size(); i++) {
            assertThat(columns.get(i).getAttribute("data-batch")).isEqualTo(Long.toString(run.batches().get(i).batchId()));
        }
        // bo's only row in batch 4 was late
        assertThat(browser.findElement(By.cssSelector("g.lane[data-key='bo'] rect.all-late title")).getAttribute("textContent"))
                .isEqualTo("bo: 1 input row in batch 4 (1 dropped late)");
        // a lane per key, in Spark's key order
        assertThat(browser.findElements(By.cssSelector("g.lane")).stream().map(e -> e.getAttribute("data-key")))
                .containsExactly("ana", "bo", "cy");

        // every timer the simulator fired is a fired marker, drawn inside its batch's column and its key's lane
        List<String> fired = new ArrayList<>();
        for (BatchResult<String, CartEvent, CartAlert> b : run.batches()) {
            for (FiredTimer<String> t : b.firedTimers()) {
                fired.add(b.batchId() + " " + t.key() + " " + t.expiry());
            }
        }
        assertThat(fired).containsExactly("5 ana 2024-05-01T10:35:00Z");
        List<WebElement> firedMarkers = browser.findElements(By.cssSelector("#timeline g.timer.fired"));
        assertThat(firedMarkers.stream().map(e -> e.getAttribute("data-batch") + " " + e.getAttribute("data-key") + " "
                + e.getAttribute("data-time"))).containsExactlyElementsOf(fired);
        WebElement marker = firedMarkers.get(0);
        Rectangle at = marker.getRect();
        Rectangle column = columns.get(5).getRect();
        Rectangle lane = browser.findElement(By.cssSelector("g.lane[data-key='ana'] rect.laneband")).getRect();
        assertThat(at.getX()).isBetween(column.getX(), column.getX() + column.getWidth() - at.getWidth());
        assertThat(at.getY()).isBetween(lane.getY(), lane.getY() + lane.getHeight() - at.getHeight());
        assertThat(marker.isDisplayed()).isTrue();
        // registered and deleted: what differs between the timers after one batch and after the next (ana's
        // 10:30 timer, replaced by 10:35 within batch 0, and bo's 10:42, set and deleted by the checkout within
        // batch 2, show only in those batches' numRegisteredTimers and numDeletedTimers metrics)
        assertThat(markers("registered")).containsExactly("0 ana 2024-05-01T10:35:00Z", "0 bo 2024-05-01T10:38:00Z",
                "4 cy 2024-05-01T11:20:00Z");
        assertThat(markers("deleted")).containsExactly("2 bo 2024-05-01T10:38:00Z");
        // state sizes (items + lastSeen): ana's two items until the alert clears them, bo's cart gone at checkout
        assertThat(stateSizes("ana")).containsExactly("0:3", "1:3", "2:3", "3:3", "4:3");
        assertThat(stateSizes("bo")).containsExactly("0:2", "1:2");
        assertThat(stateSizes("cy")).containsExactly("4:2", "5:2");
        assertThat(browser.findElement(By.cssSelector("g.lane[data-key='ana'] g.state title")).getAttribute("textContent"))
                .isEqualTo("ana after batch 0: items=2 last_seen=1");

        // the eviction watermark's line: a point per batch at its column's centre, higher for a later watermark
        List<double[]> points = points(browser.findElement(By.id("line-eviction")).getAttribute("points"));
        assertThat(points).hasSize(run.batches().size());
        for (int i = 0; i < points.size(); i++) {
            assertThat(points.get(i)[0]).isEqualTo(160 + 64 * i + 32);
        }
        for (int i = 1; i < points.size(); i++) {
            int cmp = run.batches().get(i).evictionWatermark().compareTo(run.batches().get(i - 1).evictionWatermark());
            assertThat(Double.compare(points.get(i - 1)[1], points.get(i)[1])).as("point %d", i).isEqualTo(Integer.signum(cmp));
        }
        assertThat(browser.findElements(By.cssSelector("#chart-watermarks circle.pt.eviction.epoch"))).hasSize(1);

        // hovering batch 0 shows its rows; hovering batch 5 its alert and its fired timer
        new Actions(browser).moveToElement(columns.get(0)).perform();
        assertThat(panelList("input")).containsExactly(
                "{\"event\":\"add\",\"item\":\"boots\",\"ts\":\"2024-05-01T10:00:00Z\",\"userId\":\"ana\"}",
                "{\"event\":\"add\",\"item\":\"socks\",\"ts\":\"2024-05-01T10:05:00Z\",\"userId\":\"ana\"}",
                "{\"event\":\"add\",\"item\":\"mug\",\"ts\":\"2024-05-01T10:08:00Z\",\"userId\":\"bo\"}");
        assertThat(browser.findElement(By.cssSelector("#panel h2")).getText()).isEqualTo("batch 0 (data)");
        assertThat(panelList("metrics")).contains("numRegisteredTimers = 3", "numDeletedTimers = 1");
        new Actions(browser).moveToElement(columns.get(5)).perform();
        assertThat(browser.findElement(By.cssSelector("#panel h2")).getText()).isEqualTo("batch 5 (no data)");
        assertThat(panelList("outputs")).containsExactly(
                "{\"itemCount\":2,\"lastSeen\":\"2024-05-01T10:05:00Z\",\"userId\":\"ana\"}");
        assertThat(panelList("timers")).containsExactly("ana @ 2024-05-01T10:35:00Z");
        // batch 4 dropped bo's 10:09 hat as late
        new Actions(browser).moveToElement(columns.get(4)).perform();
        assertThat(panelList("dropped")).containsExactly(
                "{\"event\":\"add\",\"item\":\"hat\",\"ts\":\"2024-05-01T10:09:00Z\",\"userId\":\"bo\"}");
        new Actions(browser).moveToElement(columns.get(5)).perform();   // the screenshot's panel: the alert

        Path png = browser.getScreenshotAs(OutputType.FILE).toPath();
        Path kept = Files.copy(png, OUT.resolve("cart-timeline.png"), StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.size(kept)).isGreaterThan(10_000);
        System.out.println("timeline page " + html.toAbsolutePath() + ", screenshot " + kept.toAbsolutePath());
    }

    @Test
    void userTextIsShownAsTextNotRunAsHtml() throws IOException {
        String key = "<img src=x onerror=\"window.pwned=1\">";
        String row = "</script><script>window.pwned=2</script>&amp;'\"";
        TimelinePage<String, String, scala.Tuple2<String, Long>> page = TimelinePage.of(RunningCount.query(),
                "<b>title</b>").note("<i>note</i>");
        TwsSimulator<String, String, scala.Tuple2<String, Long>> sim = TwsSimulator.builder(RunningCount.query())
                .listener(page).build();
        sim.runBatch(key, row);
        Path html = page.write(OUT.resolve("injection.html"));
        browser.get(html.toUri().toString());

        JavascriptExecutor js = browser;
        assertThat(js.executeScript("return typeof window.pwned")).isEqualTo("undefined");
        assertThat(browser.findElements(By.tagName("img"))).isEmpty();
        assertThat(browser.findElements(By.tagName("b"))).isEmpty();
        assertThat(browser.findElements(By.tagName("i"))).isEmpty();
        assertThat(browser.findElements(By.tagName("script"))).hasSize(1);
        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("<b>title</b>");
        assertThat(browser.findElements(By.cssSelector("g.lane")).stream().map(e -> e.getAttribute("data-key")))
                .containsExactlyInAnyOrder(key, row);
        new Actions(browser).moveToElement(browser.findElement(By.cssSelector("rect.col"))).perform();
        assertThat(panelList("input")).containsExactly(key, row);
    }

    private static List<String> markers(String kind) {
        return browser.findElements(By.cssSelector("#timeline g.timer." + kind)).stream()
                .map(e -> e.getAttribute("data-batch") + " " + e.getAttribute("data-key") + " " + e.getAttribute("data-time"))
                .sorted().toList();
    }

    /** "batch index:total size" of each state bar of a lane. */
    private static List<String> stateSizes(String key) {
        return browser.findElements(By.cssSelector("g.lane[data-key='" + key + "'] g.state")).stream()
                .map(e -> e.getAttribute("data-index") + ":" + e.getAttribute("data-size")).toList();
    }

    private static List<String> panelList(String list) {
        return browser.findElements(By.cssSelector("#panel ul.rows." + list + " li")).stream().map(WebElement::getText).toList();
    }

    private static List<double[]> points(String attribute) {
        List<double[]> out = new ArrayList<>();
        for (String p : attribute.trim().split(" ")) {
            String[] xy = p.split(",");
            out.add(new double[] {Double.parseDouble(xy[0]), Double.parseDouble(xy[1])});
        }
        return out;
    }

}
