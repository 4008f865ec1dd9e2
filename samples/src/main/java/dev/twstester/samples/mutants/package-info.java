/**
 * The seeded-mutant bug-finding benchmark (issue 25): realistic bugs planted in the samples'
 * processors, each its own class whose Javadoc says the bug in one line; the property of each
 * processor a user would write ({@code *Properties}: invariants over the run, or the migration check
 * against the correct version); and {@link dev.twstester.samples.mutants.MutantBench}, which counts
 * the generated tries each property needs to find each mutant, for each
 * {@link dev.twstester.samples.mutants.GenerationMode}.
 *
 * <pre>{@code
 * List<MutantBench.Row> rows = MutantBench.measure(Mutants.all(), GenerationMode.UNIFORM, 9, 200);
 * System.out.print(MutantTable.of(List.of(new MutantBench.ModeRun(GenerationMode.UNIFORM, rows, 0)), 200));
 * }</pre>
 */
package dev.twstester.samples.mutants;
