package dev.twstester.scaladsl;

import java.time.Instant;

import dev.twstester.Scenario;

/**
 * Builds a {@link Scenario} from Scala {@code Seq}s of rows, for {@link ScalaSimulator#run} and
 * {@code LiveRunner.run}. Each method adds the step the {@link Scenario.Builder} method of the same name adds.
 *
 * <pre>{@code
 * val scenario = ScalaScenario.builder[PageView]
 *   .batch(Seq(PageView("ana", "/home", at(0), Some("ad"))))
 *   .batch(Seq(PageView("bob", "/home", at(1900), None)))
 *   .build
 * }</pre>
 *
 * @param <I> input row type
 */
public final class ScalaScenario<I> {
    private final Scenario.Builder<I> steps = Scenario.builder();

    private ScalaScenario() {
    }

    /** An empty scenario of rows of type {@code I}. */
    public static <I> ScalaScenario<I> builder() {
        return new ScalaScenario<>();
    }

    /** A micro-batch of {@code rows}. */
    public ScalaScenario<I> batch(scala.collection.Seq<I> rows) {
        steps.batch(ScalaCollections.toJava(rows, "rows"));
        return this;
    }

    /** A micro-batch of {@code rows} at processing time {@code at}. */
    public ScalaScenario<I> batchAt(Instant at, scala.collection.Seq<I> rows) {
        steps.batchAt(at, ScalaCollections.toJava(rows, "rows"));
        return this;
    }

    /** Rows added to the source, for the next trigger. */
    public ScalaScenario<I> addData(scala.collection.Seq<I> rows) {
        steps.addData(ScalaCollections.toJava(rows, "rows"));
        return this;
    }

    /** The processing-time clock moved to {@code to}. */
    public ScalaScenario<I> tick(Instant to) {
        steps.tick(to);
        return this;
    }

    /** The query stopped. */
    public ScalaScenario<I> stop() {
        steps.stop();
        return this;
    }

    /** The query started again from its checkpoint. */
    public ScalaScenario<I> start() {
        steps.start();
        return this;
    }

    /** The query stopped and started again. */
    public ScalaScenario<I> restart() {
        steps.restart();
        return this;
    }

    /** The scenario. */
    public Scenario<I> build() {
        return steps.build();
    }
}
