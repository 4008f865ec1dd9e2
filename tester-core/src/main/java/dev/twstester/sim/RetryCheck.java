package dev.twstester.sim;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.function.Function;

/** Compares two runs of one batch: handler calls and their outputs, then state, then timers. */
final class RetryCheck {
    /** One handler call: the function, its key and the rows it emitted. */
    record Call(String function, Object key, List<Object> outputs) {}

    private RetryCheck() {
    }

    /** The first difference in words, or null when the runs agree. */
    static String difference(List<Call> first, List<Call> second, BiPredicate<Object, Object> sameOutput,
            Map<String, Map<Bytes, Object>> stateFirst, Map<String, Map<Bytes, Object>> stateSecond,
            Map<String, StateVariable> variables, Map<Bytes, long[]> timersFirst, Map<Bytes, long[]> timersSecond,
            Function<Bytes, Object> decodeKey) {
        for (int i = 0; i < Math.min(first.size(), second.size()); i++) {
            Call a = first.get(i);
            Call b = second.get(i);
            if (!a.function().equals(b.function()) || !a.key().equals(b.key())) {
                return "the handler calls differ: call " + (i + 1) + " was " + a.function() + " for key " + a.key()
                        + " the first time and " + b.function() + " for key " + b.key() + " on the retry";
            }
            if (!sameRows(a.outputs(), b.outputs(), sameOutput)) {
                return "key " + a.key() + ": " + a.function() + " emitted " + a.outputs() + " the first time and "
                        + b.outputs() + " on the retry";
            }
        }
        if (first.size() != second.size()) {
            return "the first run made " + first.size() + " handler calls and the retry " + second.size();
        }
        Set<String> names = new TreeSet<>(stateFirst.keySet());
        names.addAll(stateSecond.keySet());
        for (String name : names) {
            Map<Bytes, Object> a = stateFirst.getOrDefault(name, Map.of());
            Map<Bytes, Object> b = stateSecond.getOrDefault(name, Map.of());
            Set<Bytes> keys = new TreeSet<>(a.keySet());
            keys.addAll(b.keySet());
            StateVariable v = variables.get(name);
            for (Bytes key : keys) {
                Object x = a.get(key);
                Object y = b.get(key);
                boolean same = x == null ? y == null : y != null && v != null && v.sameKeyData(x, y);
                if (!same) {
                    return "key " + decodeKey.apply(key) + ": state variable '" + name
                            + "' holds different data after the retry than after the first run";
                }
            }
        }
        Set<Bytes> timerKeys = new HashSet<>(timersFirst.keySet());
        timerKeys.addAll(timersSecond.keySet());
        for (Bytes key : new TreeSet<>(timerKeys)) {
            long[] x = timersFirst.getOrDefault(key, new long[0]);
            long[] y = timersSecond.getOrDefault(key, new long[0]);
            if (!Arrays.equals(x, y)) {
                return "key " + decodeKey.apply(key) + ": timers " + Arrays.toString(x) + " after the first run and "
                        + Arrays.toString(y) + " after the retry";
            }
        }
        return null;
    }

    private static boolean sameRows(List<Object> a, List<Object> b, BiPredicate<Object, Object> same) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!same.test(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
