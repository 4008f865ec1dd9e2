package dev.twstester.internal;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Internal, not API: may change in any release.
 *
 * <p>An immutable {@code Map<String, Long>} of counts under names given in ascending order, iterated
 * in that order, equal to (and with the hash code of) any map of the same entries. It keeps the
 * counts in one array, so a batch's metrics cost one small object instead of a tree of entries.
 * <pre>{@code
 * NamedCounts m = NamedCounts.of(new String[] {"a", "b"}, new long[] {1, 2});   // {a=1, b=2}
 * m.withCounts(new long[] {3, 4});                                             // {a=3, b=4}
 * }</pre>
 *
 * <p>Public for {@code dev.twstester} ({@code BatchResult} keeps it as it is) and
 * {@code dev.twstester.sim} ({@code Metrics} makes it).
 */
public final class NamedCounts extends AbstractMap<String, Long> {
    private final String[] names;
    private final long[] counts;

    private NamedCounts(String[] names, long[] counts) {
        this.names = names;
        this.counts = counts;
    }

    /**
     * {@code counts[i]} under {@code names[i]}; the names must be in ascending order, without
     * duplicates. Neither array is copied: the caller must not change them afterwards.
     */
    public static NamedCounts of(String[] names, long[] counts) {
        if (names.length != counts.length) {
            throw new IllegalArgumentException(names.length + " names but " + counts.length + " counts");
        }
        for (int i = 1; i < names.length; i++) {
            if (names[i - 1].compareTo(names[i]) >= 0) {
                throw new IllegalArgumentException("names must be ascending and distinct: " + Arrays.toString(names));
            }
        }
        return new NamedCounts(names, counts);
    }

    /**
     * {@code counts} under this map's names (checked once, when this map was made). The array is not
     * copied: the caller must not change it afterwards.
     */
    public NamedCounts withCounts(long[] counts) {
        if (counts.length != names.length) {
            throw new IllegalArgumentException(names.length + " names but " + counts.length + " counts");
        }
        return new NamedCounts(names, counts);
    }

    @Override
    public int size() {
        return names.length;
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public Long get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : counts[i];
    }

    private int indexOf(Object key) {
        return key instanceof String name ? Arrays.binarySearch(names, name) : -1;
    }

    @Override
    public Set<Map.Entry<String, Long>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return names.length;
            }

            @Override
            public Iterator<Map.Entry<String, Long>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < names.length;
                    }

                    @Override
                    public Map.Entry<String, Long> next() {
                        if (next >= names.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new AbstractMap.SimpleImmutableEntry<>(names[i], counts[i]);
                    }
                };
            }
        };
    }
}
