package dev.twstester.samples.sessions;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;
import dev.twstester.sim.StateView;

/**
 * {@link SessionAlerts}, a query of two operators, under {@code @TwsTest} in strict mode: every
 * output asserted, no due timer left. The story also writes its timeline page to
 * {@code target/twstester-pages/session-alerts/_timeline.html}.
 */
@TwsTest(strict = true)
class SessionAlertsTest {
    static final Path PAGE_DIR = Path.of("target", "twstester-pages", "session-alerts");

    static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    static PageView view(String user, String page, String hhmm) {
        return new PageView(user, page, at(hhmm));
    }

    static TwsQuery<String, PageView, PageAlert> query() {
        return SessionAlerts.query();
    }

    @Simulator TestSimulator<String, PageView, PageAlert> sim;

    @Test
    void mostlyBouncedSessionsOnALandingPageRaiseAnAlertWhenTheirHourEnds() throws Exception {
        // ana, bo and cy land on /pricing and leave; dee lands on /docs and goes on to /pricing
        RunResult<String, PageView, PageAlert> views = sim.runBatch(view("ana", "/pricing", "10:00"),
                view("bo", "/pricing", "10:02"), view("cy", "/pricing", "10:05"), view("dee", "/docs", "10:01"),
                view("dee", "/pricing", "10:03"));
        assertThat(views).outputs().isEmpty();
        assertThat(sim).timers("ana").containsExactly(at("10:30"));
        assertThat(sim).timers("dee").containsExactly(at("10:33"));

        // eve's view moves the watermark to 10:35: the four sessions close and reach the second operator
        RunResult<String, PageView, PageAlert> closing = sim.runBatch(view("eve", "/blog", "10:40"));
        RunResult<String, Session, PageAlert> pages = closing.operator(1);
        assertThat(pages.lastBatch().input()).containsExactly(   // the timers fire in time order
                new Session("ana", "/pricing", 1, at("10:00"), at("10:00"), at("10:30")),
                new Session("bo", "/pricing", 1, at("10:02"), at("10:02"), at("10:32")),
                new Session("dee", "/docs", 2, at("10:01"), at("10:03"), at("10:33")),
                new Session("cy", "/pricing", 1, at("10:05"), at("10:05"), at("10:35")));
        assertThat(closing).outputs().isEmpty();
        assertThat(sim).hasNoStateFor("ana").hasStateFor("eve");
        StateView<String> byPage = sim.state(1);
        assertThat(byPage.<Long>value("sessions", "/pricing")).contains(3L);
        assertThat(byPage.<Long>value("bounces", "/docs")).contains(0L);
        assertThat(byPage.timers("/pricing")).containsExactly(at("11:30"));

        // an hour after /pricing's first session closed: 3 of 3 bounced; /docs had too few sessions
        RunResult<String, PageView, PageAlert> hourLater = sim.runBatch(view("fay", "/blog", "11:40"));
        assertThat(hourLater).outputs().containsExactly(new PageAlert("/pricing", 3, 3, at("11:30")));
        assertThat(byPage.keys()).containsExactly("/blog");

        sim.saveTrace(PAGE_DIR);
        String page = Files.readString(PAGE_DIR.resolve("_timeline.html"), StandardCharsets.UTF_8);
        assertThat(page).contains("<g class=\"lane\" data-key=\"ana\"", "<g class=\"lane\" data-key=\"fay\"",
                "<li>{&quot;bounces&quot;:3,&quot;hourEnd&quot;:&quot;2024-05-01T11:30:00Z&quot;,&quot;page&quot;:&quot;/pricing&quot;");
    }
}
