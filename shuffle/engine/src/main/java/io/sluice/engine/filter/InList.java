package io.sluice.engine.filter;

import java.util.Arrays;

/**
 * The distinct keys of a small build, sorted: a zonemap test (a block skipped when no key lies in its
 * {@code [min, max]}), which min/max alone misses when the keys are few and far apart, and an exact test
 * of one key by binary search. Rows are tested by a bitset or a Bloom filter instead, which cost a few
 * nanoseconds a row where a search of a thousand keys costs tens.
 */
public final class InList {
    private final long[] keys;

    /** @param sortedDistinct distinct keys in ascending order; the array is kept, not copied */
    public InList(final long[] sortedDistinct) {
        for (int i = 1; i < sortedDistinct.length; i++) {
            if (sortedDistinct[i - 1] >= sortedDistinct[i]) {
                throw new IllegalArgumentException("IN list keys must be distinct and ascending, got "
                        + sortedDistinct[i - 1] + " before " + sortedDistinct[i] + " at " + i);
            }
        }
        this.keys = sortedDistinct;
    }

    /** Number of keys. */
    public int size() {
        return keys.length;
    }

    /** A copy of the keys, ascending. */
    public long[] keys() {
        return keys.clone();
    }

    /** Whether a key is in the list. */
    public boolean contains(final long key) {
        return Arrays.binarySearch(keys, key) >= 0;
    }

    /** Whether some key of the list lies in {@code [low, high]}. */
    public boolean overlaps(final long low, final long high) {
        final int at = Arrays.binarySearch(keys, low);
        final int first = at >= 0 ? at : -at - 1;
        return first < keys.length && keys[first] <= high;
    }
}
