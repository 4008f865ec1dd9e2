package dev.twstester.samples.mutants;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.RunResult;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.faults.FirstSeen;
import dev.twstester.sim.TwsSimulator;

/**
 * The property a user writes for {@link FirstSeen}: each user gets exactly one {@code user:page}
 * output per page they visited, and no other.
 *
 * <pre>{@code
 * FirstSeenProperties.invariants().check(FirstSeen.query(FirstSeen.Fixed::new), scenario);   // empty: it holds
 * }</pre>
 */
public final class FirstSeenProperties {
    private static final List<String> PAGES = List.of("home", "search", "cart");

    private FirstSeenProperties() {}

    /** Three users visiting three pages, up to five batches of up to five visits. */
    static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("u1", "u2", "u3").variants(PAGES.toArray(String[]::new))
                .timeMode(TimeMode.None())
                .batches(1, 5).eventsPerBatch(0, 5).restartChance(0.1);
    }

    /** One output per user and visited page. */
    public static UserProperty<String, String, String> invariants() {
        return Invariants.property("first_seen invariants", FirstSeen.query(FirstSeen.Fixed::new), generator(),
                (key, ms, variant) -> key + "," + PAGES.get(variant), List.of(FirstSeenProperties::oncePerPage));
    }

    private static Optional<String> oncePerPage(RunResult<String, String, String> run,
            TwsSimulator<String, String, String> sim) {
        Set<String> visited = new HashSet<>();
        run.batches().forEach(b -> b.input().forEach(row -> visited.add(row.replace(',', ':'))));
        Set<String> emitted = new HashSet<>();
        for (String out : run.outputs()) {
            if (!emitted.add(out)) {
                return Optional.of(out + " is emitted twice");
            }
        }
        return emitted.equals(visited) ? Optional.empty()
                : Optional.of("outputs " + emitted + " differ from the visits " + visited);
    }
}
