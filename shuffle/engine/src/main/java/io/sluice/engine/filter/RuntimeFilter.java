package io.sluice.engine.filter;

import java.util.ArrayList;
import java.util.List;

/**
 * A finished runtime filter of one join (or one bucket of it): the kinds {@link FilterPartial#finish}
 * chose, tested cheapest first. An integer key is tested by value ({@link #retainValues}), any other
 * key by the hash of its columns ({@link #retainHashes}); both sides hash alike. A filter of an empty
 * build rejects everything. No kind has false negatives: a probe key with a build match always passes.
 */
public final class RuntimeFilter {
    private final boolean integerKey;
    private final long buildRows;
    private final MinMaxRange range;
    private final InList inList;
    private final ExactBitmap bitmap;
    private final SplitBlockBloomFilter bloom;

    /**
     * @param integerKey whether the key is one integer column (tested by value)
     * @param buildRows  build rows the filter was made from
     * @param range      min/max, or null (not an integer key, or an empty build)
     * @param inList     the keys of a small build, or null
     * @param bitmap     the keys as a bitmap, or null
     * @param bloom      a Bloom filter over key hashes, or null
     */
    public RuntimeFilter(final boolean integerKey, final long buildRows, final MinMaxRange range, final InList inList,
                         final ExactBitmap bitmap, final SplitBlockBloomFilter bloom) {
        this.integerKey = integerKey;
        this.buildRows = buildRows;
        this.range = range;
        this.inList = inList;
        this.bitmap = bitmap;
        this.bloom = bloom;
    }

    /** Whether the key is one integer column, tested by value. */
    public boolean integerKey() {
        return integerKey;
    }

    /** Build rows the filter was made from. */
    public long buildRows() {
        return buildRows;
    }

    /** Whether the build was empty: nothing passes. */
    public boolean empty() {
        return buildRows == 0;
    }

    public MinMaxRange range() {
        return range;
    }

    public InList inList() {
        return inList;
    }

    public ExactBitmap bitmap() {
        return bitmap;
    }

    public SplitBlockBloomFilter bloom() {
        return bloom;
    }

    /** The kinds, cheapest first. */
    public List<FilterKind> kinds() {
        final List<FilterKind> kinds = new ArrayList<>(2);
        if (range != null) {
            kinds.add(FilterKind.MIN_MAX);
        }
        if (inList != null) {
            kinds.add(FilterKind.IN_LIST);
        }
        if (bitmap != null) {
            kinds.add(FilterKind.BITMAP);
        }
        if (bloom != null) {
            kinds.add(FilterKind.BLOOM);
        }
        return kinds;
    }

    /**
     * Whether a probe block whose integer key lies in {@code [low, high]} may hold a matching row (false:
     * skip it unread). Only min/max and the IN list answer; a hashed key always may.
     */
    public boolean mayOverlap(final long low, final long high) {
        if (empty()) {
            return false;
        }
        if (range != null && !range.overlaps(low, high)) {
            return false;
        }
        return inList == null || inList.overlaps(low, high);
    }

    /** Whether an integer key may match (false: certainly not). */
    public boolean mayContainValue(final long value) {
        if (empty() || (range != null && !range.contains(value))) {
            return false;
        }
        if (inList != null) {
            return inList.contains(value);
        }
        if (bitmap != null) {
            return bitmap.contains(value);
        }
        return bloom == null || bloom.mightContain(FilterHash.ofLong(value));
    }

    /** Whether a key hash may match (false: certainly not). */
    public boolean mayContainHash(final long hash) {
        return !empty() && (bloom == null || bloom.mightContain(hash));
    }

    /** Clears {@code keep[i]} for each of the first {@code n} integer keys that cannot match. */
    public void retainValues(final long[] values, final int n, final boolean[] keep) {
        if (empty()) {
            java.util.Arrays.fill(keep, 0, n, false);
            return;
        }
        if (inList != null) {
            inList.retain(values, n, keep);
            return;
        }
        if (range != null) {
            final long min = range.min();
            final long max = range.max();
            for (int i = 0; i < n; i++) {
                keep[i] &= values[i] >= min && values[i] <= max;
            }
        }
        if (bitmap != null) {
            bitmap.retain(values, n, keep);
        } else if (bloom != null) {
            for (int i = 0; i < n; i++) {
                keep[i] &= bloom.mightContain(FilterHash.ofLong(values[i]));
            }
        }
    }

    /** Clears {@code keep[i]} for each of the first {@code n} key hashes that cannot match. */
    public void retainHashes(final long[] hashes, final int n, final boolean[] keep) {
        if (empty()) {
            java.util.Arrays.fill(keep, 0, n, false);
            return;
        }
        if (bloom != null) {
            bloom.retain(hashes, n, keep);
        }
    }

    @Override
    public String toString() {
        return "runtime filter " + kinds() + " over " + buildRows + " build rows"
                + (range == null ? "" : " in [" + range.min() + ", " + range.max() + "]");
    }
}
