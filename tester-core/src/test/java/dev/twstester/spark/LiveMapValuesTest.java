package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.Event;
import dev.twstester.sim.OutEvent;
import dev.twstester.sim.Tally;
import dev.twstester.sim.TwsSimulator;

/**
 * {@code TwsQuery.Builder#mapValues} against live Spark ({@code groupByKey(...).mapValues(...)}):
 * the processor gets the mapped values, and, since {@code mapValues} projects the event-time column
 * away, Spark's operator drops no late row.
 */
@Tag("live")
class LiveMapValuesTest {

    @Test
    void a_transformWithState_operator_gets_the_mapped_values_and_keeps_late_rows() {
        TwsQuery<String, Event, String> query = dev.twstester.sim.MapValuesTestAccess.tallyOfCommands();
        Scenario<Event> scenario = dev.twstester.sim.MapValuesTestAccess.lateRowScenario();

        RunResult<String, Event, String> live = LiveRunner.of(query).run(scenario);
        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query).run(scenario), live);

        assertThat(live.batches()).hasSize(3);
        assertThat(live.batches().get(0).outputs()).containsExactly("a:timer:12000#1@0", "b:x#1@0");
        assertThat(live.batches().get(1).outputs()).containsExactly("a:timer@12000");
        assertThat(live.batches().get(2).droppedLate()).isEmpty();
        assertThat(live.batches().get(2).outputs()).containsExactly("a:late#2@15000");
    }

    @Test
    void the_second_operator_of_a_query_gets_the_mapped_values() {
        TwsQuery<String, Event, String> query = TwsQuery.<String, Event, OutEvent>builder(
                        LiveOutputEventTimeTest.EmitProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .outputMode(OutputMode.Update())
                .watermark("ts", Duration.ofSeconds(5))
                .outputEventTimeColumn("outTs")
                .build()
                .then(TwsQuery.builder(Tally::new)
                        .mapValues(OutEvent::getWhat, Encoders.STRING())
                        .keyBy(OutEvent::getKey, Encoders.STRING())
                        .input(Encoders.bean(OutEvent.class))
                        .output(Encoders.STRING()));
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a", 10_000, "x"), new Event("b", 20_000, "y")))
                .batch(List.of(new Event("a", 30_000, "emit:16000"), new Event("a", 31_000, "z")))
                .build();

        RunResult<String, Event, String> live = LiveRunner.of(query).run(scenario);
        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query).run(scenario), live);

        assertThat(live.batches().get(0).outputs()).containsExactly("a:x#1@0", "b:y#1@0");
        assertThat(live.batches()).extracting(b -> b.hadInput()).containsExactly(true, false, true, false);
        assertThat(live.batches().get(2).outputs()).containsExactly("a:emit:16000#2@15000", "a:z#3@15000");
        assertThat(live.outputs()).hasSize(4);
    }
}
