package dev.twstester;

import dev.twstester.RunDifference.Aspect;

/**
 * One way two end states of the same query differ ({@link EndState#differencesTo}), key by key: a
 * state variable's stored data for one grouping key (values compared as Spark's encoded bytes, with
 * their TTL expirations), one key's registered timers, the next batch id or a watermark.
 * {@link RunComparison#stateDifferences} reports them.
 *
 * @param aspect   what differs: {@link Aspect#BATCH_ID} (the id the next batch gets),
 *                 {@link Aspect#EVICTION_WATERMARK} (the watermark the next batch evicts and fires
 *                 event-time timers with), {@link Aspect#LATE_WATERMARK} (the watermark the last
 *                 batch ran with: the next batch's late-row filter), {@link Aspect#STATE} (a state
 *                 variable's data for one key, or the variable's kind) or {@link Aspect#TIMERS}
 *                 (one key's registered timers)
 * @param operator the stateful operator (0 for the first, and for the query-level aspects)
 * @param variable the state variable, for {@link Aspect#STATE}; else null
 * @param key      the grouping key (decoded), for {@link Aspect#STATE} and {@link Aspect#TIMERS}; else null
 * @param left     the left side's data as text: a value, {@code [list elements]}, {@code {map entries}},
 *                 timers as {@code [instants]}, each stored value with {@code (expires at ...)} when it has
 *                 a TTL; {@code (none)} when the key has nothing
 * @param right    the right side's, in the same form
 */
public record StateDifference(Aspect aspect, int operator, String variable, Object key, String left, String right) {}
