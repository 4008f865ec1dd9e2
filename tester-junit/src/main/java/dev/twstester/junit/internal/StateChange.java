package dev.twstester.junit.internal;

/**
 * Internal, not API: may change in any release.
 *
 * <p>One state variable (or the timers) of one key that differs between two snapshots.
 *
 * @param key      the grouping key
 * @param kind     {@code value}, {@code list}, {@code map} or {@code timers}
 * @param variable the state variable's name, or {@code timers}
 * @param before   the value before, null when there was none (empty lists and maps count as none)
 * @param after    the value after, null when there is none
 */
public record StateChange(Object key, String kind, String variable, Object before, Object after) {

    /** {@code key a, value state count: (none) -> 1}. */
    public String describe() {
        String what = kind.equals("timers") ? "timers" : kind + " state " + variable;
        return "key " + key + ", " + what + ": " + render(before) + " -> " + render(after);
    }

    static String render(Object value) {
        return value == null ? "(none)" : String.valueOf(value);
    }
}
