package dev.twstester.junit.internal;

/**
 * Internal, not API: may change in any release.
 *
 * <p>One state variable (or the timers) of one key of one stateful operator that differs between
 * two moments.
 *
 * @param operator the operator's index in the query, 0 for the first
 * @param key      the grouping key
 * @param kind     {@code value}, {@code list}, {@code map} or {@code timers}
 * @param variable the state variable's name, or {@code timers}
 * @param before   the value before, null when there was none (empty lists and maps count as none)
 * @param after    the value after, null when there is none
 */
public record StateChange(int operator, Object key, String kind, String variable, Object before, Object after) {

    /** {@code key a, value state count: (none) -> 1}; with {@code severalOperators}, prefixed {@code operator 0, }. */
    public String describe(boolean severalOperators) {
        String what = kind.equals("timers") ? "timers" : kind + " state " + variable;
        return (severalOperators ? "operator " + operator + ", " : "") + "key " + key + ", " + what + ": "
                + render(before) + " -> " + render(after);
    }

    static String render(Object value) {
        return value == null ? "(none)" : String.valueOf(value);
    }
}
