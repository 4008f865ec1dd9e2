package dev.twstester.property;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The share of a property run's tries that reached each label: the user's labels first (in the
 * order they were declared), then the built-in features of {@link CoverageRecorder}, by name.
 * {@link PropertyResult#coverage()} carries it; {@link #format()} is the text the engine prints.
 *
 * <pre>{@code
 * CoverageTable table = result.coverage();
 * table.share("unlocked");   // 0.62: 62% of the tries emitted an unlock
 * System.out.println(table.format());
 * // Coverage of 200 tries (feedback):
 * //    62.0%  124  unlocked
 * //    81.5%  163  state created: failures
 * }</pre>
 */
public final class CoverageTable {
    private final int tries;
    private final String generation;
    private final List<Row> rows;

    /**
     * One label and how many tries reached it.
     *
     * @param label     the label or feature name
     * @param reached   tries that reached it
     * @param userLabel true for a label the user declared ({@code classify}, {@code cover}, {@code target}, {@code label})
     */
    public record Row(String label, int reached, boolean userLabel) {
        public Row {
            Objects.requireNonNull(label, "label must not be null");
        }
    }

    CoverageTable(int tries, String generation, List<Row> rows) {
        this.tries = tries;
        this.generation = generation;
        this.rows = List.copyOf(rows);
    }

    /** A table of {@code tries} tries from counts per label: {@code user} (declared order) then {@code features}. */
    static CoverageTable of(int tries, String generation, Map<String, Integer> user, Map<String, Integer> features) {
        List<Row> rows = new ArrayList<>();
        user.forEach((label, n) -> rows.add(new Row(label, n, true)));
        new TreeMap<>(features).forEach((label, n) -> {
            if (!user.containsKey(label)) {
                rows.add(new Row(label, n, false));
            }
        });
        return new CoverageTable(tries, generation, rows);
    }

    /** The tries counted. */
    public int tries() {
        return tries;
    }

    /** The rows: user labels first, then the features by name. */
    public List<Row> rows() {
        return rows;
    }

    /** True when nothing was recorded (a check that attached no recorder and declared no label). */
    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The row of {@code label}, if any try reached it or it was declared. */
    public Optional<Row> row(String label) {
        return rows.stream().filter(r -> r.label().equals(label)).findFirst();
    }

    /** Tries that reached {@code label} (0 when none did). */
    public int reached(String label) {
        return row(label).map(Row::reached).orElse(0);
    }

    /** The share of tries that reached {@code label}, from 0 to 1. */
    public double share(String label) {
        return tries == 0 ? 0 : (double) reached(label) / tries;
    }

    /** The table as text, one row a line: percent, count, label. */
    public String format() {
        StringBuilder b = new StringBuilder("Coverage of ").append(tries).append(tries == 1 ? " try" : " tries")
                .append(" (").append(generation).append("):");
        boolean userDone = false;
        for (Row r : rows) {
            if (!r.userLabel() && !userDone) {
                userDone = true;
                if (rows.get(0).userLabel()) {
                    b.append("\n  --");
                }
            }
            b.append(String.format(Locale.ROOT, "%n  %6.1f%%  %4d  %s", 100.0 * r.reached() / Math.max(1, tries),
                    r.reached(), r.label()));
        }
        if (rows.isEmpty()) {
            b.append("\n  nothing recorded (run the query through PropertyTry.simulator(query) to record coverage)");
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return format();
    }
}
