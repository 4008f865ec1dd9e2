package dev.twstester.samples.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark (6), the measured program: a fresh JVM that runs the whole cold suite
 * ({@link ColdSuiteScenarios}) on one engine and exits, launched by {@link ColdSuiteBench}. No
 * SparkSession. Arguments:
 * <ol>
 *   <li>the engine: {@code FULL} or {@code FAST} (the simulator at that fidelity),
 *   {@code TWSTESTER} (Spark's TwsTester) or {@code TWSTESTER_QUERIES} (TwsTester, each test also
 *   building its query definition; see {@link ColdSuiteScenarios#run});</li>
 *   <li>the launcher's {@code System.currentTimeMillis()} just before it started this JVM;</li>
 *   <li>the expectations file ({@code -} for none): one line per scenario, {@code name outputs
 *   comparable-digest full-digest}. Every engine must match the count and the comparable digest,
 *   the simulator the full digest too; a difference fails the run (exit 1) naming the scenario;</li>
 *   <li>optional: the sizes, {@code seed:cart:fraud:counts:ttl:minBatches:maxBatches:shufflePartitions}
 *   (default {@link ColdSuiteScenarios#DEFAULT}; the variant is {@link ColdSuiteScenarios#SHORT}).</li>
 * </ol>
 * Prints one line {@code COLDSUITE main=.. inputs=.. first=.. done=.. checked=.. cart=.. fraud=..
 * counts=.. ttl=.. cart1=.. fraud1=.. counts1=.. ttl1=.. scenarios=.. batches=.. rows=.. outputs=..}:
 * milliseconds from the launch to entering {@code main}, to the scenarios' inputs built, to the
 * first test done, to all done and to the outputs checked; milliseconds spent in each family and in
 * its first test; then sizes. Then one {@code OUTCOME} line
 * per scenario and a readable summary.
 */
public final class ColdSuiteMain {
    private ColdSuiteMain() {
    }

    public static void main(String[] args) {
        long launched = Long.parseLong(args[1]);
        long main = System.currentTimeMillis() - launched;
        run(args[0], launched, main, args[2].equals("-") ? null : Path.of(args[2]),
                args.length > 3 ? ColdSuiteScenarios.Sizes.parse(args[3]) : ColdSuiteScenarios.DEFAULT, System.out);
    }

    /**
     * Runs the suite on {@code engine}, checks it against {@code expectations} (if given) and
     * prints the lines described above. Throws {@link IllegalStateException} naming each scenario
     * whose outputs differ from the expectations.
     */
    static List<ColdSuiteScenarios.Outcome> run(String engine, long launched, long main, Path expectations,
            ColdSuiteScenarios.Sizes sizes, PrintStream out) {
        if (!ColdSuiteScenarios.ENGINES.contains(engine)) {
            throw new IllegalArgumentException("unknown engine " + engine + "; engines: " + ColdSuiteScenarios.ENGINES);
        }
        List<ColdSuiteScenarios.Scenario<?, ?, ?>> suite = ColdSuiteScenarios.suite(sizes);
        long inputs = System.currentTimeMillis() - launched;

        Map<String, Long> familyNanos = new LinkedHashMap<>();
        Map<String, Long> firstOfFamilyNanos = new LinkedHashMap<>();
        List<List<Object>> outputs = new ArrayList<>(suite.size());
        long first = -1;
        for (ColdSuiteScenarios.Scenario<?, ?, ?> s : suite) {
            long start = System.nanoTime();
            outputs.add(ColdSuiteScenarios.run(s, engine));
            long nanos = System.nanoTime() - start;
            familyNanos.merge(s.family().name, nanos, Long::sum);
            firstOfFamilyNanos.putIfAbsent(s.family().name, nanos);
            if (first < 0) {
                first = System.currentTimeMillis() - launched;
            }
        }
        long done = System.currentTimeMillis() - launched;

        List<ColdSuiteScenarios.Outcome> outcomes = new ArrayList<>(suite.size());
        int outputCount = 0;
        for (int i = 0; i < suite.size(); i++) {
            outcomes.add(ColdSuiteScenarios.outcomeOf(suite.get(i), outputs.get(i)));
            outputCount += outputs.get(i).size();
        }
        if (expectations != null) {
            check(engine, suite, outputs, outcomes, expectations);
        }
        long checked = System.currentTimeMillis() - launched;

        StringBuilder line = new StringBuilder("COLDSUITE main=" + main + " inputs=" + inputs + " first=" + first
                + " done=" + done + " checked=" + checked);
        familyNanos.forEach((family, nanos) -> line.append(' ').append(family).append('=').append(nanos / 1_000_000));
        firstOfFamilyNanos.forEach((family, nanos) -> line.append(' ').append(family).append("1=").append(nanos / 1_000_000));
        line.append(" scenarios=").append(suite.size())
                .append(" batches=").append(suite.stream().mapToInt(s -> s.batches().size()).sum())
                .append(" rows=").append(suite.stream().mapToInt(ColdSuiteScenarios.Scenario::rows).sum())
                .append(" outputs=").append(outputCount);
        out.println(line);
        for (ColdSuiteScenarios.Outcome o : outcomes) {
            out.println("OUTCOME " + o.line());
        }
        out.printf("%s: %d tests in %d ms after main, %.1f ms per test (first done %d ms after launch), %s%n", engine,
                suite.size(), done - inputs, (double) (done - inputs) / suite.size(), first,
                expectations == null ? "not checked" : "outputs as expected");
        return outcomes;
    }

    private static void check(String engine, List<ColdSuiteScenarios.Scenario<?, ?, ?>> suite, List<List<Object>> outputs,
            List<ColdSuiteScenarios.Outcome> outcomes, Path file) {
        Map<String, ColdSuiteScenarios.Outcome> expected = read(file);
        boolean simulator = !engine.startsWith("TWSTESTER");
        List<String> problems = new ArrayList<>();
        if (expected.size() != suite.size()) {
            problems.add(file + " has " + expected.size() + " scenarios, the suite " + suite.size()
                    + ": were they computed with other sizes?");
        }
        for (int i = 0; i < suite.size(); i++) {
            ColdSuiteScenarios.Outcome got = outcomes.get(i);
            ColdSuiteScenarios.Outcome want = expected.get(got.name());
            if (want == null) {
                problems.add(got.name() + ": not in " + file);
            } else if (got.outputs() != want.outputs() || !got.comparable().equals(want.comparable())
                    || simulator && !got.full().equals(want.full())) {
                problems.add(got.name() + ": expected " + want.outputs() + " outputs (" + want.comparable() + "/"
                        + want.full() + "), got " + got.outputs() + " (" + got.comparable() + "/" + got.full() + "): "
                        + ColdSuiteScenarios.comparableRows(suite.get(i), outputs.get(i)));
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException(engine + " did not produce the expected outputs of " + problems.size()
                    + " scenario(s):\n  " + String.join("\n  ", problems));
        }
    }

    static Map<String, ColdSuiteScenarios.Outcome> read(Path file) {
        Map<String, ColdSuiteScenarios.Outcome> expected = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                if (!line.isBlank()) {
                    ColdSuiteScenarios.Outcome o = ColdSuiteScenarios.Outcome.parse(line);
                    expected.put(o.name(), o);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the expectations " + file, e);
        }
        return expected;
    }
}
