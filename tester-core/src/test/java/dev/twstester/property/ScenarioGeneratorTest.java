package dev.twstester.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.Scenario.AddData;
import dev.twstester.Scenario.Input;
import dev.twstester.Scenario.Start;
import dev.twstester.Scenario.Step;
import dev.twstester.Scenario.Stop;
import dev.twstester.Scenario.Tick;
import dev.twstester.TwsQuery;
import dev.twstester.sim.ChainProcessors;
import dev.twstester.sim.TwsSimulator;

class ScenarioGeneratorTest {
    private static final Duration DELAY = Duration.ofSeconds(10);
    private static final Duration[] INTERVALS = {Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(5)};

    private static ScenarioGenerator eventTime() {
        return ScenarioGenerator.create().keys("x", "y", "z").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(DELAY);
    }

    private static long ms(Instant t) {
        return t.toEpochMilli();
    }

    @Test
    void the_time_mode_and_watermark_delay_come_from_the_query_unless_set() {
        TwsQuery<String, ProbeEvent, String> query = ProbeProcessor.query(TimeMode.EventTime(), DELAY);

        GenScenario taken = ScenarioGenerator.create().keys("x").defaultsFrom(query).generate(1);
        GenScenario explicit = eventTime().keys("x").defaultsFrom(query).generate(1);

        assertThat(taken.timeMode()).isEqualTo(TimeMode.EventTime());
        assertThat(taken.watermarkDelay()).contains(DELAY);
        assertThat(explicit.timeMode()).isEqualTo(TimeMode.EventTime());
        assertThatThrownBy(() -> ScenarioGenerator.create().timeMode(TimeMode.ProcessingTime()).defaultsFrom(query))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the generator's timeMode(ProcessingTime) differs from the query's EventTime; leave "
                        + "timeMode(...) out to take the query's");
        assertThatThrownBy(() -> eventTime().watermarkDelay(Duration.ofSeconds(3)).defaultsFrom(query))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the generator's watermarkDelay(PT3S) differs from the query's watermark delay PT10S; leave "
                        + "watermarkDelay(...) out to take the query's");
    }

    @Test
    void a_query_of_several_operators_gives_processing_time_when_any_operator_runs_in_it() {
        TwsQuery<String, dev.twstester.sim.Event, dev.twstester.sim.OutEvent> eventTimeChain = ChainProcessors.chain();
        TwsQuery<String, dev.twstester.sim.Event, dev.twstester.sim.OutEvent> processingTimeChain =
                ChainProcessors.relay().then(ChainProcessors.tally(TimeMode.ProcessingTime()));

        GenScenario eventTime = ScenarioGenerator.create().keys("a1").defaultsFrom(eventTimeChain).generate(1);
        GenScenario processingTime = ScenarioGenerator.create().keys("a1").defaultsFrom(processingTimeChain).generate(1);

        // the relay (time mode None) has the query's watermark (5 s); the tally's time mode decides
        assertThat(eventTime.timeMode()).isEqualTo(TimeMode.EventTime());
        assertThat(eventTime.watermarkDelay()).contains(Duration.ofSeconds(5));
        assertThat(processingTime.timeMode()).isEqualTo(TimeMode.ProcessingTime());
        assertThat(processingTime.steps()).isNotEmpty().allSatisfy(step -> assertThat(StepParts.timeOf(step))
                .as("in ProcessingTime mode every step of a zero interval has a time").isNotNull());
        assertThatThrownBy(() -> eventTime().defaultsFrom(processingTimeChain))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the generator's timeMode(EventTime) differs from the query's ProcessingTime; leave "
                        + "timeMode(...) out to take the query's");
    }

    @Test
    void same_seed_gives_the_same_scenario() {
        for (long seed = 0; seed < 50; seed++) {
            ScenarioGenerator gen = eventTime().restartChance(0.2).triggerIntervals(INTERVALS);
            GenScenario first = gen.generate(seed);
            GenScenario second = gen.generate(seed);
            assertThat(second).isEqualTo(first);
            assertThat(second.describe()).isEqualTo(first.describe());
        }
    }

    @Test
    void different_seeds_give_different_scenarios() {
        Set<GenScenario> distinct = new HashSet<>();
        for (long seed = 0; seed < 50; seed++) {
            distinct.add(eventTime().generate(seed));
        }
        assertThat(distinct).hasSizeGreaterThan(45);
    }

    @Test
    void respects_keys_variants_and_batch_bounds() {
        ScenarioGenerator gen = ScenarioGenerator.create().keys("k1", "k2").variants(3).batches(2, 4).eventsPerBatch(1, 3);
        ScenarioGenerator withInterval = ScenarioGenerator.create().keys("k1", "k2").variants(3).batches(2, 4)
                .eventsPerBatch(1, 3).triggerIntervals(Duration.ofSeconds(1));
        for (long seed = 0; seed < 200; seed++) {
            GenScenario s = gen.generate(seed);
            List<Input<GenEvent>> inputs = inputs(s);
            assertThat(inputs).hasSizeBetween(2, 4);
            for (Input<GenEvent> in : inputs) {
                assertThat(in.rows()).hasSizeBetween(1, 3);
                assertThat(in.rows()).allSatisfy(e -> {
                    assertThat(e.key()).isIn("k1", "k2");
                    assertThat(e.variant()).isBetween(0, 2);
                });
            }
            // with an interval: rows are added instead, one or two adds per batch
            GenScenario triggered = withInterval.generate(seed);
            long adds = triggered.steps().stream().filter(st -> st instanceof AddData<GenEvent>).count();
            assertThat(adds).as("seed %d", seed).isBetween(2L, 8L);
            assertThat(triggered.eventCount()).isBetween(2, 24);
            assertThat(triggered.steps()).allSatisfy(st -> assertThat(GenScenario.events(st))
                    .allSatisfy(e -> assertThat(e.key()).isIn("k1", "k2")));
        }
    }

    @Test
    void sometimes_generates_empty_batches() {
        long empty = 0;
        for (long seed = 0; seed < 100; seed++) {
            empty += inputs(eventTime().generate(seed)).stream().filter(in -> in.rows().isEmpty()).count();
        }
        assertThat(empty).isPositive();
    }

    @Test
    void processing_time_steps_are_strictly_increasing_and_every_input_has_a_time() {
        ScenarioGenerator gen = ScenarioGenerator.create().timeMode(TimeMode.ProcessingTime())
                .interestingDurations(Duration.ofSeconds(3), Duration.ofMillis(1500)).triggerIntervals(INTERVALS)
                .restartChance(0.2);
        int ticks = 0;
        for (long seed = 0; seed < 300; seed++) {
            long now = 0;
            for (Step<GenEvent> step : gen.generate(seed).steps()) {
                Instant t;
                if (step instanceof Input<GenEvent> in) {
                    assertThat(in.at()).as("seed %d: input without processing time", seed).isNotNull();
                    t = in.at();
                } else if (step instanceof Tick<GenEvent> tick) {
                    t = tick.to();
                    ticks++;
                } else {
                    continue;
                }
                assertThat(ms(t)).as("seed %d", seed).isGreaterThan(now);
                now = ms(t);
            }
        }
        assertThat(ticks).isPositive();
    }

    @Test
    void event_time_inputs_mostly_run_at_the_current_time_and_ticks_move_the_clock_forward() {
        int withoutTime = 0;
        int withTime = 0;
        int ticks = 0;
        for (long seed = 0; seed < 200; seed++) {
            long now = 0;
            for (Step<GenEvent> step : eventTime().generate(seed).steps()) {
                if (step instanceof Input<GenEvent> in) {
                    if (in.at() == null) {
                        withoutTime++;
                    } else {
                        withTime++;
                        assertThat(ms(in.at())).isGreaterThan(now);
                        now = ms(in.at());
                    }
                } else {
                    ticks++;
                    assertThat(ms(((Tick<GenEvent>) step).to())).isGreaterThan(now);
                    now = ms(((Tick<GenEvent>) step).to());
                }
            }
        }
        assertThat(withoutTime).isGreaterThan(2 * withTime);
        assertThat(withTime).isPositive();
        assertThat(ticks).isPositive();
    }

    /**
     * The rows of the simulator's data batches that sit exactly on the batch's late-row watermark
     * (dropped: equality is late), 1 ms after it (kept) and far before it, with and without triggers.
     */
    @Test
    void places_events_exactly_on_the_watermark_just_after_it_and_far_before_it() {
        for (boolean triggers : new boolean[] {false, true}) {
            int onWatermark = 0;
            int justAfter = 0;
            int farBefore = 0;
            for (long seed = 0; seed < 200; seed++) {
                ScenarioGenerator gen = triggers ? eventTime().triggerIntervals(Duration.ofSeconds(1)) : eventTime();
                RunResult<String, ProbeEvent, String> run = ProbeProcessor.run(gen.generate(seed));
                for (BatchResult<String, ProbeEvent, String> b : run.batches()) {
                    long wm = ms(b.lateWatermark());
                    for (ProbeEvent e : b.input()) {
                        long t = e.getTs().getTime();
                        if (wm > 0 && t == wm) {
                            onWatermark++;
                            assertThat(b.droppedLate()).as("seed %d", seed).contains(e);
                        } else if (wm > 0 && t == wm + 1) {
                            justAfter++;
                            assertThat(b.droppedLate()).as("seed %d", seed).doesNotContain(e);
                        } else if (wm > 0 && t < wm - DELAY.toMillis()) {
                            farBefore++;
                        }
                    }
                }
            }
            assertThat(onWatermark).as("triggers %s", triggers).isGreaterThan(triggers ? 3 : 10);
            assertThat(justAfter).as("triggers %s", triggers).isGreaterThan(triggers ? 3 : 10);
            assertThat(farBefore).as("triggers %s", triggers).isPositive();
        }
    }

    @Test
    void processing_clock_jumps_land_on_just_before_and_just_after_interesting_durations() {
        long ttl = 3_000;
        ScenarioGenerator gen = ScenarioGenerator.create().timeMode(TimeMode.ProcessingTime())
                .processingTimeSteps(Duration.ofMillis(700)).interestingDurations(Duration.ofMillis(ttl));
        Set<Long> seen = new HashSet<>();
        for (long seed = 0; seed < 100; seed++) {
            List<Long> inputTimes = new ArrayList<>();
            for (Step<GenEvent> step : gen.generate(seed).steps()) {
                long t = ms(step instanceof Input<GenEvent> in ? in.at() : ((Tick<GenEvent>) step).to());
                for (long from : inputTimes) {
                    if (Math.abs(t - (from + ttl)) <= 1) {
                        seen.add(t - (from + ttl));
                    }
                }
                if (step instanceof Input<GenEvent>) {
                    inputTimes.add(t);
                }
            }
        }
        assertThat(seen).containsExactlyInAnyOrder(-1L, 0L, 1L);
    }

    @Test
    void event_time_moves_the_watermark_onto_earlier_event_time_plus_interesting_duration() {
        long timer = 30_000;
        ScenarioGenerator gen = eventTime().interestingDurations(Duration.ofMillis(timer));
        int hits = 0;
        for (long seed = 0; seed < 100; seed++) {
            List<Long> times = new ArrayList<>();
            GenScenario s = gen.generate(seed);
            for (int i = 0; i < s.steps().size(); i++) {
                for (GenEvent e : s.events(i)) {
                    long t = e.eventTimeMs();
                    if (times.stream().anyMatch(earlier -> t == earlier + timer + DELAY.toMillis())) {
                        hits++;
                    }
                    times.add(t);
                }
            }
        }
        assertThat(hits).isPositive();
    }

    @Test
    void rejects_nonsense_settings_with_the_fix_in_the_message() {
        assertThatThrownBy(() -> ScenarioGenerator.create().batches(0, 3)).hasMessageContaining("1 <= min <= max");
        assertThatThrownBy(() -> ScenarioGenerator.create().eventsPerBatch(3, 2)).hasMessageContaining("0 <= min <= max");
        assertThatThrownBy(() -> ScenarioGenerator.create().keys(List.of())).hasMessageContaining("at least one key");
        assertThatThrownBy(() -> ScenarioGenerator.create().processingTimeSteps(Duration.ZERO)).hasMessageContaining("at least 1 ms");
        assertThatThrownBy(() -> ScenarioGenerator.create().triggerIntervals())
                .hasMessage("triggerIntervals(...) needs at least one interval (0 is Spark's default)");
        assertThatThrownBy(() -> ScenarioGenerator.create().triggerIntervals(Duration.ofMillis(-1)))
                .hasMessage("triggerIntervals(...): PT-0.001S must be whole milliseconds, 0 or more");
    }

    @Test
    void makes_no_restarts_and_no_trigger_interval_unless_asked() {
        for (long seed = 0; seed < 200; seed++) {
            GenScenario s = eventTime().generate(seed);
            assertThat(s.restartCount()).isZero();
            assertThat(s.triggerInterval()).isEmpty();
            assertThat(s.steps()).allSatisfy(st -> assertThat(st).isInstanceOfAny(Input.class, Tick.class));
        }
    }

    @Test
    void each_scenario_takes_one_trigger_interval_and_with_one_above_zero_adds_rows_and_ticks() {
        Map<Duration, Integer> chosen = new HashMap<>();
        for (long seed = 0; seed < 300; seed++) {
            GenScenario s = eventTime().triggerIntervals(INTERVALS).generate(seed);
            Duration interval = s.triggerInterval().orElseThrow();
            chosen.merge(interval, 1, Integer::sum);
            if (!interval.isZero()) {
                assertThat(s.steps()).as("seed %d", seed).noneMatch(st -> st instanceof Input<GenEvent>);
                assertThat(s.steps().get(s.steps().size() - 1)).as("seed %d", seed).isInstanceOf(Tick.class);
            }
        }
        assertThat(chosen.keySet()).containsExactlyInAnyOrder(INTERVALS);
        assertThat(chosen.values()).allSatisfy(n -> assertThat(n).isGreaterThan(60));
    }

    /**
     * Replays generated triggered scenarios step by step on the simulator and counts what the
     * brief asks the generator to reach: ticks exactly on a trigger time and between two of them,
     * ticks past several trigger times, ticks that run nothing, no-data batches at a later tick,
     * stops while a no-data batch is pending, rows added while stopped and read by the start.
     */
    @Test
    void triggered_scenarios_reach_every_trigger_situation_on_the_simulator() {
        int onMultiple = 0;
        int between = 0;
        int pastSeveral = 0;
        int idleTicks = 0;
        int noDataAtTick = 0;
        int stopWithPendingNoData = 0;
        int startReadsRowsAddedWhileStopped = 0;
        ScenarioGenerator gen = eventTime().triggerIntervals(Duration.ofSeconds(1), Duration.ofSeconds(5)).restartChance(0.2);
        for (long seed = 0; seed < 300; seed++) {
            GenScenario s = gen.generate(seed);
            long interval = s.triggerInterval().orElseThrow().toMillis();
            TwsQuery<String, ProbeEvent, String> query = s.applyTo(ProbeProcessor.query(TimeMode.EventTime(), DELAY));
            TwsSimulator<String, ProbeEvent, String> sim = new TwsSimulator<>(query);
            boolean addedWhileStopped = false;
            for (Step<ProbeEvent> step : s.toScenario(ProbeEvent::of).steps()) {
                if (step instanceof Stop<ProbeEvent>) {
                    List<BatchResult<String, ProbeEvent, String>> all = sim.history().batches();
                    BatchResult<String, ProbeEvent, String> last = all.isEmpty() ? null : all.get(all.size() - 1);
                    if (last != null && last.hadInput() && sim.watermark().isAfter(last.evictionWatermark())) {
                        stopWithPendingNoData++;
                    }
                    addedWhileStopped = false;
                }
                if (step instanceof AddData<ProbeEvent> && !sim.isRunning()) {
                    addedWhileStopped = true;
                }
                long before = ms(sim.processingTime());
                long next = ms(sim.nextTriggerTime());
                RunResult<String, ProbeEvent, String> ran = sim.run(new Scenario<>(List.of(step)));
                if (step instanceof Start<ProbeEvent> && addedWhileStopped) {
                    assertThat(ran.batches()).as("seed %d", seed).hasSize(1);
                    assertThat(ran.lastBatch().hadInput()).isTrue();
                    startReadsRowsAddedWhileStopped++;
                }
                if (step instanceof Tick<ProbeEvent> tick && sim.isRunning()) {
                    long to = ms(tick.to());
                    onMultiple += to % interval == 0 ? 1 : 0;
                    between += to < next ? 1 : 0;
                    pastSeveral += to >= next + interval ? 1 : 0;
                    idleTicks += ran.batches().isEmpty() ? 1 : 0;
                    noDataAtTick += ran.batches().stream().anyMatch(b -> !b.hadInput()) ? 1 : 0;
                    if (to < next) {
                        assertThat(ran.batches()).as("seed %d: a tick before the next trigger time", seed).isEmpty();
                    }
                }
                assertThat(ms(sim.processingTime())).isGreaterThanOrEqualTo(before);
            }
        }
        assertThat(onMultiple).isGreaterThan(100);
        assertThat(between).isGreaterThan(30);
        assertThat(pastSeveral).isGreaterThan(30);
        assertThat(idleTicks).isGreaterThan(30);
        assertThat(noDataAtTick).isGreaterThan(30);
        assertThat(stopWithPendingNoData).isGreaterThan(5);
        assertThat(startReadsRowsAddedWhileStopped).isGreaterThan(10);
    }

    @Test
    void generated_scenarios_run_on_the_simulator_in_every_mode_interval_and_with_restarts() {
        for (TimeMode mode : List.of(TimeMode.None(), TimeMode.EventTime(), TimeMode.ProcessingTime())) {
            ScenarioGenerator gen = ScenarioGenerator.create().keys("x", "y").timeMode(mode).restartChance(0.3)
                    .triggerIntervals(INTERVALS);
            if (mode.equals(TimeMode.EventTime())) {
                gen.watermarkDelay(DELAY);
            }
            int batches = 0;
            for (long seed = 0; seed < 150; seed++) {
                GenScenario s = gen.generate(seed);
                RunResult<String, ProbeEvent, String> run = ProbeProcessor.run(s);
                batches += run.batches().size();
                // every row reaches a batch, unless it still waits for a trigger at the end
                long read = run.batches().stream().mapToLong(b -> b.input().size()).sum();
                assertThat(read).as("seed %d:%n%s", seed, s.describe()).isLessThanOrEqualTo(s.eventCount());
            }
            assertThat(batches).as(Times.name(mode)).isGreaterThan(300);
        }
    }

    @Test
    void restarts_come_between_steps_in_every_time_mode_as_stop_then_start() {
        for (TimeMode mode : List.of(TimeMode.None(), TimeMode.EventTime(), TimeMode.ProcessingTime())) {
            ScenarioGenerator gen = ScenarioGenerator.create().timeMode(mode).restartChance(0.2).triggerIntervals(INTERVALS);
            int restarts = 0;
            int gaps = 0;
            int addsWhileStopped = 0;
            int ticksWhileStopped = 0;
            for (long seed = 0; seed < 300; seed++) {
                List<Step<GenEvent>> steps = gen.generate(seed).steps();
                assertThat(steps.get(0)).as("seed %d", seed).isNotInstanceOf(Stop.class);
                assertThat(steps.get(steps.size() - 1)).as("seed %d", seed).isNotInstanceOfAny(Stop.class, Start.class);
                boolean stopped = false;
                for (Step<GenEvent> st : steps) {
                    if (st instanceof Stop<GenEvent>) {
                        assertThat(stopped).as("seed %d", seed).isFalse();
                        stopped = true;
                        restarts++;
                    } else if (st instanceof Start<GenEvent>) {
                        assertThat(stopped).as("seed %d", seed).isTrue();
                        stopped = false;
                    } else if (stopped) {
                        assertThat(st).as("seed %d", seed).isInstanceOfAny(AddData.class, Tick.class);
                        addsWhileStopped += st instanceof AddData<GenEvent> ? 1 : 0;
                        ticksWhileStopped += st instanceof Tick<GenEvent> ? 1 : 0;
                    } else {
                        gaps++;
                    }
                }
            }
            // about one restart per five gaps between the other steps
            assertThat(restarts).as(Times.name(mode)).isBetween(gaps / 7, gaps / 3);
            assertThat(addsWhileStopped).as(Times.name(mode)).isGreaterThan(restarts / 4);
            assertThat(ticksWhileStopped).as(Times.name(mode)).isGreaterThan(restarts / 8);
        }
    }

    @Test
    void restarts_leave_the_seed_s_other_steps_as_they_were() {
        int withRestarts = 0;
        for (long seed = 0; seed < 100; seed++) {
            ScenarioGenerator gen = eventTime().interestingDurations(Duration.ofSeconds(30)).triggerIntervals(INTERVALS);
            GenScenario plain = gen.generate(seed);
            GenScenario restarted = gen.restartChance(0.3).generate(seed);
            assertThat(withoutRestarts(restarted.steps())).as("seed %d", seed).isEqualTo(plain.steps());
            withRestarts += restarted.restartCount() > 0 ? 1 : 0;
        }
        assertThat(withRestarts).isGreaterThan(50);
    }

    /** The steps without each stop, its start and what came between them. */
    private static List<Step<GenEvent>> withoutRestarts(List<Step<GenEvent>> steps) {
        List<Step<GenEvent>> out = new ArrayList<>();
        boolean stopped = false;
        for (Step<GenEvent> st : steps) {
            if (st instanceof Stop<GenEvent> || st instanceof Start<GenEvent>) {
                stopped = st instanceof Stop<GenEvent>;
            } else if (!stopped) {
                out.add(st);
            }
        }
        return out;
    }

    @Test
    void the_watermark_survives_restarts_on_the_simulator() {
        int droppedAfterRestart = 0;
        for (long seed = 0; seed < 60; seed++) {
            GenScenario s = eventTime().restartChance(0.4).triggerIntervals(INTERVALS).generate(seed);
            RunResult<String, ProbeEvent, String> run = ProbeProcessor.run(s);
            Instant lastWatermark = Instant.EPOCH;
            for (BatchResult<String, ProbeEvent, String> b : run.batches()) {
                // watermarks never go back, restarts included
                assertThat(b.evictionWatermark()).as("seed %d", seed).isAfterOrEqualTo(lastWatermark);
                lastWatermark = b.evictionWatermark();
            }
            if (s.restartCount() > 0) {
                droppedAfterRestart += run.droppedLate().size();
            }
        }
        assertThat(droppedAfterRestart).isPositive();
    }

    @Test
    void rejects_a_restart_chance_outside_zero_to_one() {
        assertThatThrownBy(() -> ScenarioGenerator.create().restartChance(1)).hasMessageContaining("at least 0 and below 1");
        assertThatThrownBy(() -> ScenarioGenerator.create().restartChance(-0.1)).hasMessageContaining("restartChance(-0.1)");
        assertThatThrownBy(() -> ScenarioGenerator.create().restartChance(Double.NaN)).hasMessageContaining("restartChance(NaN)");
    }

    static List<Input<GenEvent>> inputs(GenScenario s) {
        List<Input<GenEvent>> out = new ArrayList<>();
        s.steps().forEach(step -> {
            if (step instanceof Input<GenEvent> in) {
                out.add(in);
            }
        });
        return out;
    }
}
