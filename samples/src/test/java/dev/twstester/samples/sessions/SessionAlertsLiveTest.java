package dev.twstester.samples.sessions;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.samples.sessions.SessionAlertsTest.at;
import static dev.twstester.samples.sessions.SessionAlertsTest.view;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

/** The story of {@link SessionAlertsTest}, its calls replayed on live Spark after the test ({@code compareWithSpark}). */
@Tag("live")
@TwsTest(strict = true, compareWithSpark = true)
class SessionAlertsLiveTest {
    static TwsQuery<String, PageView, PageAlert> query() {
        return SessionAlerts.query();
    }

    @Simulator TestSimulator<String, PageView, PageAlert> sim;

    @Test
    void bothOperatorsAgreeWithSpark() {
        sim.runBatch(view("ana", "/pricing", "10:00"), view("bo", "/pricing", "10:02"), view("cy", "/pricing", "10:05"),
                view("dee", "/docs", "10:01"), view("dee", "/pricing", "10:03"));
        sim.runBatch(view("eve", "/blog", "10:40"));
        assertThat(sim.runBatch(view("fay", "/blog", "11:40"))).outputs()
                .containsExactly(new PageAlert("/pricing", 3, 3, at("11:30")));
        assertThat(sim).outputs().hasSize(1);
    }
}
