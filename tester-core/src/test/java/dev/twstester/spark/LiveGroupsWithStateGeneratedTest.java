package dev.twstester.spark;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.RunComparison;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.property.GenScenario;
import dev.twstester.property.Property;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.sim.Event;
import dev.twstester.sim.LegacyProbe;
import dev.twstester.sim.TwsSimulator;

/**
 * Legacy functions on generated scenarios, on live Spark and on the simulator: each of the three
 * timeouts (flatMapGroupsWithState in Update and Append mode, mapGroupsWithState), the first with
 * an initial state too, 1 or 2 shuffle
 * partitions, trigger intervals, restarts from the checkpoint, timeouts set, kept, reset and
 * removed ({@code -Dtwstester.tries=N} tries per query, default 8; {@code -Dtwstester.seed=S}
 * reruns one; {@code -Dtwstester.baseSeed=B} repeats a run of tries: {@code GroupsWithStateCoverageTest}
 * counts what base seeds 0 and 1 reach). Any difference fails, shrunk; a run that fails must fail on both engines with the
 * same error class after the same batches.
 */
@Tag("live")
class LiveGroupsWithStateGeneratedTest {
    private static final Instant BASE = Instant.parse("2024-05-01T10:00:00Z");
    private static final int TRIES = Integer.getInteger(Property.TRIES_PROPERTY, 8);
    /** System property: the base seed of the tries (random when unset; 0 and 1 are the coverage test's). */
    private static final String BASE_SEED_PROPERTY = "twstester.baseSeed";

    private static void check(Case c) {
        Property property = Property.forAll(c.fullGenerator());
        Long base = Long.getLong(BASE_SEED_PROPERTY);
        (base == null ? property : property.seed(base))
                .tries(TRIES)
                .shufflePartitions(1, 2)
                .check(gen -> differences(gen.applyTo(c.query()), gen, c.commands()))
                .assertPassed();
    }

    private static Optional<String> differences(TwsQuery<String, Event, String> query, GenScenario gen, String[] commands) {
        Scenario<Event> scenario = gen.toScenario((key, ms, variant) -> new Event(key, ms, commands[variant]));
        TwsSimulator<String, Event, String> simulator = new TwsSimulator<>(query);
        RunResult<String, Event, String> sim = null;
        RunResult<String, Event, String> live = null;
        RuntimeException simError = null;
        LiveRunException liveError = null;
        try {
            sim = simulator.run(scenario);
        } catch (RuntimeException e) {
            simError = e;
        }
        try {
            live = LiveRunner.of(query).run(scenario);
        } catch (LiveRunException e) {
            liveError = e;
        }
        if (simError == null && liveError == null) {
            return RunComparison.simulatorVsSpark().firstDifference(sim, live).map(RunDifference::message);
        }
        if (simError == null || liveError == null) {
            return Optional.of(simError == null ? "only live Spark failed: " + liveError : "only the simulator failed: " + simError);
        }
        if (!condition(simError).equals(condition(liveError))) {
            return Optional.of("both failed, with different errors:\n  simulator: " + simError + "\n  Spark: " + liveError);
        }
        int done = simulator.history().batches().size();
        return done == liveError.completed().size() ? Optional.empty()
                : Optional.of("both failed, the simulator after " + done + " batches, Spark after " + liveError.completed().size());
    }

    private static String condition(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SparkThrowable st && st.getCondition() != null && !"STREAM_FAILED".equals(st.getCondition())) {
                return st.getCondition();
            }
        }
        return "no error class";
    }

    /** One legacy query with its generator and the probe commands its variants stand for. */
    record Case(TwsQuery<String, Event, String> query, ScenarioGenerator generator, String... commands) {
        ScenarioGenerator fullGenerator() {
            return generator.defaultsFrom(query).variants(commands);
        }
    }

    private static TwsQuery.Builder<String, Event, String> flat(GroupStateTimeout timeout, OutputMode mode) {
        return TwsQuery.flatMapGroupsWithState(new LegacyProbe(timeout.equals(GroupStateTimeout.EventTimeTimeout())), mode,
                        Encoders.LONG(), timeout)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .outputMode(mode);
    }

    static Case processingTimeTimeout() {
        return new Case(flat(GroupStateTimeout.ProcessingTimeTimeout(), OutputMode.Update()).build(),
                ScenarioGenerator.create().keys("a", "b", "keep", "rearm").timeMode(TimeMode.ProcessingTime())
                        .processingTimeSteps(Duration.ofSeconds(30), Duration.ofMinutes(2))
                        .interestingDurations(Duration.ofMinutes(1)).batches(1, 5).eventsPerBatch(0, 3)
                        .restartChance(0.1).triggerIntervals(Duration.ZERO, Duration.ofSeconds(30)),
                "inc;dur:60000", "inc", "remove", "peek;dur:60000", "remove;dur:60000");
    }

    /**
     * {@link #processingTimeTimeout()} with Spark's initialState argument: {@code z} has initial
     * state only (called with no rows in batch 0), {@code rearm} arms a timeout on its initial state
     * when it has no rows in batch 0, {@code b} starts from 3.
     */
    static Case processingTimeTimeoutWithInitialState() {
        Case plain = processingTimeTimeout();
        return new Case(flat(GroupStateTimeout.ProcessingTimeTimeout(), OutputMode.Update())
                .initialState(List.of(Map.entry("b", 3L), Map.entry("rearm", 1L), Map.entry("z", 9L)), Encoders.LONG())
                .build(), plain.generator(), plain.commands());
    }

    static Case eventTimeTimeoutAppend() {
        return new Case(flat(GroupStateTimeout.EventTimeTimeout(), OutputMode.Append())
                        .watermark("ts", Duration.ofMinutes(1)).build(),
                ScenarioGenerator.create().keys("a", "bb", "keep", "rearm").eventTimeBase(BASE)
                        .eventTimeSpread(Duration.ofMinutes(20)).interestingDurations(Duration.ofMinutes(5))
                        .batches(1, 5).eventsPerBatch(0, 3).restartChance(0.1)
                        .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1)),
                "inc;et:+300000", "inc", "remove", "wm:+300000", "peek");
    }

    static Case mapWithoutTimeoutOnAWatermarkedInput() {
        TwsQuery<String, Event, String> query = TwsQuery.mapGroupsWithState(new LegacyProbe.AsMap(false), Encoders.LONG(),
                        GroupStateTimeout.NoTimeout())
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .watermark("ts", Duration.ofSeconds(30))
                .build();
        return new Case(query, ScenarioGenerator.create().keys("a", "b", "cc").eventTimeBase(BASE)
                        .eventTimeSpread(Duration.ofMinutes(5)).batches(1, 5).eventsPerBatch(0, 3).restartChance(0.1)
                        .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1)),
                "inc", "inc;wm", "remove", "peek");
    }

    @Test
    void processing_time_timeout() {
        check(processingTimeTimeout());
    }

    @Test
    void processing_time_timeout_with_initial_state() {
        check(processingTimeTimeoutWithInitialState());
    }

    @Test
    void event_time_timeout_in_append_mode() {
        check(eventTimeTimeoutAppend());
    }

    @Test
    void map_groups_with_state_without_timeout_on_a_watermarked_input() {
        check(mapWithoutTimeoutOnAWatermarkedInput());
    }
}
