package dev.twstester.sim;

/**
 * One call of a handler by the simulator, as a {@link SimulatorListener} sees it.
 *
 * @param operator  the stateful operator's index in the query, 0 for the first
 * @param batchId   the micro-batch
 * @param attempt   0, or 1 for the second run of a batch under {@code checkRetries()}
 * @param partition the shuffle partition whose task makes the call
 * @param handler   {@code handleInputRows}, {@code handleExpiredTimer} or {@code handleInitialState}
 *                  (a legacy function's calls count as {@code handleInputRows}, and a timeout as
 *                  {@code handleExpiredTimer})
 * @param key       the grouping key, as the handler gets it
 * @param instance  the object whose code runs: the processor instance of the task, or the legacy
 *                  function's adapter
 */
public record HandlerCall(int operator, long batchId, int attempt, int partition, String handler, Object key,
        Object instance) {}
