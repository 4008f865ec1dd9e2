package dev.twstester.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.property.GenScenario.Input;
import dev.twstester.property.GenScenario.Restart;
import dev.twstester.property.GenScenario.Step;
import dev.twstester.property.GenScenario.Tick;

class ScenarioGeneratorTest {
    private static final Duration DELAY = Duration.ofSeconds(10);

    private static ScenarioGenerator eventTime() {
        return ScenarioGenerator.create().keys("x", "y", "z").variants("add", "checkout")
                .timeMode(TimeMode.EventTime()).watermarkDelay(DELAY);
    }

    @Test
    void same_seed_gives_the_same_scenario() {
        for (long seed = 0; seed < 50; seed++) {
            GenScenario first = eventTime().generate(seed);
            GenScenario second = eventTime().generate(seed);
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
        for (long seed = 0; seed < 200; seed++) {
            GenScenario s = gen.generate(seed);
            List<Input> inputs = inputs(s);
            assertThat(inputs).hasSizeBetween(2, 4);
            for (Input in : inputs) {
                assertThat(in.events()).hasSizeBetween(1, 3);
                assertThat(in.events()).allSatisfy(e -> {
                    assertThat(e.key()).isIn("k1", "k2");
                    assertThat(e.variant()).isBetween(0, 2);
                });
            }
        }
    }

    @Test
    void sometimes_generates_empty_batches() {
        long empty = 0;
        for (long seed = 0; seed < 100; seed++) {
            empty += inputs(eventTime().generate(seed)).stream().filter(in -> in.events().isEmpty()).count();
        }
        assertThat(empty).isPositive();
    }

    @Test
    void processing_time_steps_are_strictly_increasing_and_every_input_has_a_time() {
        ScenarioGenerator gen = ScenarioGenerator.create().timeMode(TimeMode.ProcessingTime())
                .interestingDurations(Duration.ofSeconds(3), Duration.ofMillis(1500));
        int ticks = 0;
        for (long seed = 0; seed < 300; seed++) {
            long now = 0;
            for (Step step : gen.generate(seed).steps()) {
                long t;
                if (step instanceof Input in) {
                    assertThat(in.atMs()).as("seed %d: input without processing time", seed).isNotNull();
                    t = in.atMs();
                } else {
                    t = ((Tick) step).toMs();
                    ticks++;
                }
                assertThat(t).as("seed %d", seed).isGreaterThan(now);
                now = t;
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
            for (Step step : eventTime().generate(seed).steps()) {
                if (step instanceof Input in) {
                    if (in.atMs() == null) {
                        withoutTime++;
                    } else {
                        withTime++;
                        assertThat(in.atMs()).isGreaterThan(now);
                        now = in.atMs();
                    }
                } else {
                    ticks++;
                    assertThat(((Tick) step).toMs()).isGreaterThan(now);
                    now = ((Tick) step).toMs();
                }
            }
        }
        assertThat(withoutTime).isGreaterThan(2 * withTime);
        assertThat(withTime).isPositive();
        assertThat(ticks).isPositive();
    }

    @Test
    void places_events_exactly_on_the_watermark_just_after_it_and_far_before_it() {
        int onWatermark = 0;
        int justAfter = 0;
        int farBefore = 0;
        for (long seed = 0; seed < 200; seed++) {
            GenScenario s = eventTime().generate(seed);
            for (int i = 0; i < s.steps().size(); i++) {
                long wm = s.lateWatermarkMs(i);
                for (GenEvent e : s.inputEvents(i)) {
                    if (wm > 0 && e.eventTimeMs() == wm) {
                        onWatermark++;
                        assertThat(s.isDroppedLate(i, e)).isTrue();
                    } else if (wm > 0 && e.eventTimeMs() == wm + 1) {
                        justAfter++;
                        assertThat(s.isDroppedLate(i, e)).isFalse();
                    } else if (wm > 0 && e.eventTimeMs() < wm - DELAY.toMillis()) {
                        farBefore++;
                    }
                }
            }
        }
        assertThat(onWatermark).isGreaterThan(10);
        assertThat(justAfter).isGreaterThan(10);
        assertThat(farBefore).isPositive();
    }

    @Test
    void the_watermark_model_agrees_with_the_simulator() {
        int dropped = 0;
        for (long seed = 0; seed < 60; seed++) {
            GenScenario s = eventTime().eventTimeBase(seed % 2 == 0 ? Instant.EPOCH : Instant.parse("2024-01-01T00:00:00Z"))
                    .generate(seed);
            RunResult<String, ProbeEvent, String> run = ProbeProcessor.run(s);
            List<List<ProbeEvent>> simDropped = new ArrayList<>();
            for (BatchResult<String, ProbeEvent, String> b : run.batches()) {
                if (b.hadInput()) {
                    simDropped.add(b.droppedLate());
                }
            }
            List<List<ProbeEvent>> modelDropped = new ArrayList<>();
            for (int i = 0; i < s.steps().size(); i++) {
                if (s.steps().get(i) instanceof Input in) {
                    List<ProbeEvent> late = new ArrayList<>();
                    for (GenEvent e : in.events()) {
                        if (s.isDroppedLate(i, e)) {
                            late.add(ProbeEvent.of(e.key(), e.eventTimeMs(), e.variant()));
                        }
                    }
                    modelDropped.add(late);
                    dropped += late.size();
                }
            }
            assertThat(modelDropped).as("seed %d:%n%s", seed, s.describe()).isEqualTo(simDropped);
        }
        assertThat(dropped).isPositive();
    }

    @Test
    void processing_clock_jumps_land_on_just_before_and_just_after_interesting_durations() {
        long ttl = 3_000;
        ScenarioGenerator gen = ScenarioGenerator.create().timeMode(TimeMode.ProcessingTime())
                .processingTimeSteps(Duration.ofMillis(700)).interestingDurations(Duration.ofMillis(ttl));
        Set<Long> seen = new HashSet<>();
        for (long seed = 0; seed < 100; seed++) {
            GenScenario s = gen.generate(seed);
            List<Long> inputTimes = new ArrayList<>();
            for (int i = 0; i < s.steps().size(); i++) {
                long t = s.processingTimeMs(i);
                for (long from : inputTimes) {
                    if (Math.abs(t - (from + ttl)) <= 1) {
                        seen.add(t - (from + ttl));
                    }
                }
                if (s.steps().get(i) instanceof Input) {
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
            for (Input in : inputs(gen.generate(seed))) {
                for (GenEvent e : in.events()) {
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
    }

    @Test
    void makes_no_restarts_unless_asked() {
        for (long seed = 0; seed < 200; seed++) {
            assertThat(eventTime().generate(seed).restartCount()).isZero();
        }
    }

    @Test
    void restarts_come_between_steps_in_every_time_mode_never_first_last_or_twice_in_a_row() {
        for (TimeMode mode : List.of(TimeMode.None(), TimeMode.EventTime(), TimeMode.ProcessingTime())) {
            ScenarioGenerator gen = ScenarioGenerator.create().timeMode(mode).restartChance(0.2);
            int restarts = 0;
            int gaps = 0;
            for (long seed = 0; seed < 300; seed++) {
                List<Step> steps = gen.generate(seed).steps();
                assertThat(steps.get(0)).as("seed %d", seed).isNotInstanceOf(Restart.class);
                assertThat(steps.get(steps.size() - 1)).as("seed %d", seed).isNotInstanceOf(Restart.class);
                for (int i = 1; i < steps.size(); i++) {
                    if (steps.get(i) instanceof Restart) {
                        restarts++;
                        assertThat(steps.get(i - 1)).as("seed %d, step %d", seed, i + 1).isNotInstanceOf(Restart.class);
                    } else {
                        gaps++;
                    }
                }
            }
            // about one restart per five gaps between the other steps
            assertThat(restarts).as(Times.name(mode)).isBetween(gaps / 7, gaps / 3);
        }
    }

    @Test
    void restarts_leave_the_seed_s_inputs_and_ticks_as_they_were() {
        int withRestarts = 0;
        for (long seed = 0; seed < 100; seed++) {
            GenScenario plain = eventTime().interestingDurations(Duration.ofSeconds(30)).generate(seed);
            GenScenario restarted = eventTime().interestingDurations(Duration.ofSeconds(30)).restartChance(0.3).generate(seed);
            assertThat(restarted.steps().stream().filter(st -> !(st instanceof Restart)).toList())
                    .as("seed %d", seed).isEqualTo(plain.steps());
            withRestarts += restarted.restartCount() > 0 ? 1 : 0;
        }
        assertThat(withRestarts).isGreaterThan(50);
    }

    @Test
    void the_watermark_model_agrees_with_the_simulator_across_restarts() {
        int droppedAfterRestart = 0;
        for (long seed = 0; seed < 60; seed++) {
            GenScenario s = eventTime().restartChance(0.4).generate(seed);
            List<ProbeEvent> simDropped = ProbeProcessor.run(s).droppedLate();
            List<ProbeEvent> modelDropped = new ArrayList<>();
            boolean restarted = false;
            for (int i = 0; i < s.steps().size(); i++) {
                restarted |= s.steps().get(i) instanceof Restart;
                for (GenEvent e : s.inputEvents(i)) {
                    if (s.isDroppedLate(i, e)) {
                        modelDropped.add(ProbeEvent.of(e.key(), e.eventTimeMs(), e.variant()));
                        droppedAfterRestart += restarted ? 1 : 0;
                    }
                }
            }
            assertThat(modelDropped).as("seed %d:%n%s", seed, s.describe()).isEqualTo(simDropped);
        }
        assertThat(droppedAfterRestart).isPositive();
    }

    @Test
    void rejects_a_restart_chance_outside_zero_to_one() {
        assertThatThrownBy(() -> ScenarioGenerator.create().restartChance(1)).hasMessageContaining("at least 0 and below 1");
        assertThatThrownBy(() -> ScenarioGenerator.create().restartChance(-0.1)).hasMessageContaining("restartChance(-0.1)");
        assertThatThrownBy(() -> ScenarioGenerator.create().restartChance(Double.NaN)).hasMessageContaining("restartChance(NaN)");
    }

    static List<Input> inputs(GenScenario s) {
        List<Input> out = new ArrayList<>();
        s.steps().forEach(step -> {
            if (step instanceof Input in) {
                out.add(in);
            }
        });
        return out;
    }
}
