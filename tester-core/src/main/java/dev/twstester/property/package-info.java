/**
 * A seeded, stream-aware property engine: {@link dev.twstester.property.ScenarioGenerator}
 * makes {@link dev.twstester.property.GenScenario}s (the steps of a {@link dev.twstester.Scenario}:
 * input batches, rows added to the source, clock ticks, stops and starts from the checkpoint, under
 * trigger intervals of 0 and above, with events placed on watermark, TTL and timer boundaries),
 * {@link dev.twstester.property.Property} runs a
 * caller-supplied check over many of them, and {@link dev.twstester.property.Shrinker} reduces
 * the first failing one to a small, readable step list.
 *
 * <pre>{@code
 * Property.forAll(ScenarioGenerator.create().timeMode(TimeMode.EventTime()).watermarkDelay(Duration.ofSeconds(10)))
 *         .check(gen -> {
 *             var run = new TwsSimulator<>(query).run(gen.toScenario(MyEvent::of));
 *             return run.droppedLate().isEmpty() ? Optional.empty() : Optional.of("dropped " + run.droppedLate());
 *         })
 *         .assertPassed();
 * }</pre>
 *
 * With {@link dev.twstester.property.Property#runs} the engine runs the query itself and records
 * each try's coverage ({@link dev.twstester.property.CoverageRecorder}); user labels
 * ({@link dev.twstester.property.QueryProperty#classify}), {@code cover} minimums and a
 * {@link dev.twstester.property.CoverageTable} follow, and {@link dev.twstester.property.Generation#FEEDBACK}
 * derives new tries from those that reached new coverage, steered by {@code target(label)}.
 *
 * The engine does not know Spark's semantics beyond the watermark model used to place events; what
 * counts as a failure is entirely the check's business.
 */
package dev.twstester.property;
