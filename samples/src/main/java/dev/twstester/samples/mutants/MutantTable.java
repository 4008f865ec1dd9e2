package dev.twstester.samples.mutants;

import java.util.List;

/**
 * The benchmark's table in Markdown: one row per mutant (its bug and property), and for each
 * generation mode the median tries to find it, how many base seeds found it within
 * {@value MutantBench#WITHIN} tries and each seed's tries; then one summary line per mode (the median
 * of the medians, the share of mutants whose median is at most {@value MutantBench#WITHIN}, the cost
 * per try).
 *
 * <pre>{@code
 * System.out.print(MutantTable.of(List.of(MutantBench.run(Mutants.all(), GenerationMode.UNIFORM, 9, 200)), 200));
 * }</pre>
 */
public final class MutantTable {
    private MutantTable() {}

    /** The table of {@code runs}, all over the same mutants in the same order, with {@code cap} tries per seed. */
    public static String of(List<MutantBench.ModeRun> runs, int cap) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no generation mode was measured; pass at least one run");
        }
        StringBuilder b = new StringBuilder("| mutant | bug | property |");
        StringBuilder rule = new StringBuilder("|---|---|---|");
        for (MutantBench.ModeRun run : runs) {
            String m = run.mode().name();
            b.append(" median tries (").append(m).append(") | found within ").append(MutantBench.WITHIN).append(" (")
                    .append(m).append(") | tries per base seed (").append(m).append(") |");
            rule.append("---:|---:|---|");
        }
        b.append('\n').append(rule).append('\n');
        List<MutantBench.Row> first = runs.get(0).rows();
        for (int i = 0; i < first.size(); i++) {
            Mutant<?, ?, ?> mutant = first.get(i).mutant();
            b.append("| ").append(mutant.name()).append(" | ").append(mutant.bug()).append(" | ")
                    .append(mutant.property().name()).append(" |");
            for (MutantBench.ModeRun run : runs) {
                MutantBench.Row r = run.rows().get(i);
                b.append(' ').append(shown(r.median(), cap)).append(" | ").append(r.foundWithin(MutantBench.WITHIN))
                        .append('/').append(r.tries().size()).append(" | ")
                        .append(String.join(" ", r.tries().stream().map(t -> shown(t, cap)).toList())).append(" |");
            }
            b.append('\n');
        }
        b.append('\n');
        runs.forEach(run -> b.append(summary(run, cap)).append('\n'));
        return b.toString();
    }

    /** One mode's line: the median of the medians, the share within the limit, and the cost per try. */
    static String summary(MutantBench.ModeRun run, int cap) {
        List<Integer> medians = run.rows().stream().map(MutantBench.Row::median).sorted().toList();
        long within = medians.stream().filter(m -> m <= MutantBench.WITHIN).count();
        long tries = run.triesRun(cap);
        return String.format("%d mutants, %s generation, cap %d tries: median of the medians %s; median at most %d "
                        + "tries for %d of %d mutants (%d%%); %d tries in %.1f s (%.2f ms per try)",
                medians.size(), run.mode().name(), cap, shown(medians.get(medians.size() / 2), cap), MutantBench.WITHIN,
                within, medians.size(), Math.round(100.0 * within / medians.size()), tries, run.nanos() / 1e9,
                tries == 0 ? 0.0 : run.nanos() / 1e6 / tries);
    }

    private static String shown(int tries, int cap) {
        return tries == MutantBench.NOT_FOUND ? ">" + cap : Integer.toString(tries);
    }
}
