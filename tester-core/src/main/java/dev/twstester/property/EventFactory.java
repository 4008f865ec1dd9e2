package dev.twstester.property;

/**
 * Turns a generated event ({@link GenEvent}) into a row of the query's input type.
 *
 * <pre>{@code
 * EventFactory<CartEvent> carts = (key, eventTimeMs, variant) ->
 *         new CartEvent(key, new Timestamp(eventTimeMs), variant == 0 ? "add" : "checkout");
 * Scenario<CartEvent> story = genScenario.toScenario(carts);
 * }</pre>
 *
 * @param <I> input row type
 */
@FunctionalInterface
public interface EventFactory<I> {
    /**
     * The input row for one event.
     *
     * @param key         the grouping key the row must map to under the query's key function
     * @param eventTimeMs the event time (epoch milliseconds) for the watermark column
     * @param variant     which event kind, from 0 to the generator's variant count - 1
     * @return the row, never null
     */
    I create(String key, long eventTimeMs, int variant);
}
