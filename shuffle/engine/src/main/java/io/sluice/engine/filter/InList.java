package io.sluice.engine.filter;

import java.util.Arrays;

/**
 * The distinct keys of a small build, sorted: an exact test by binary search, and a zonemap test
 * (a block skipped when no key lies in its {@code [min, max]}), which min/max alone misses when the
 * keys are few and far apart.
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

    /**
     * Keeps, of the {@code count} rows listed in {@code rows}, those whose value is in the list, in order, at
     * the front of {@code rows}; returns how many.
     */
    public int retain(final long[] values, final int[] rows, final int count) {
        int kept = 0;
        for (int j = 0; j < count; j++) {
            final int row = rows[j];
            rows[kept] = row;
            kept += Arrays.binarySearch(keys, values[row]) >= 0 ? 1 : 0;
        }
        return kept;
    }
}
