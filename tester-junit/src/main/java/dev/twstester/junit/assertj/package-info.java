/**
 * AssertJ assertions for twstester: {@link dev.twstester.junit.assertj.TwsAssertions} (one static
 * import for these and AssertJ's own) and {@link dev.twstester.junit.assertj.TwsSoftAssertions}.
 *
 * <pre>{@code
 * import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
 *
 * assertThat(sim).valueState("count", "a").contains(3L);
 * assertThat(sim.runBatch(rows)).hasBatchIds(4, 5).outputs().containsExactly(alert);
 * }</pre>
 */
package dev.twstester.junit.assertj;
