package io.sluice.engine.filter;

import java.util.ArrayList;
import java.util.List;

/**
 * A finished runtime filter of one join (or one bucket of it): the kinds {@link FilterPartial#finish}
 * chose. An integer key is tested by value ({@link #retainValues}), any other key by the hash of its
 * columns ({@link #retainHashes}); both sides hash alike. A filter of an empty build rejects
 * everything. No kind has false negatives: a probe key with a build match always passes.
 *
 * <p>Rows are tested through a selection: the indexes of the rows still in, compacted in place, so a
 * batch is tested by every filter of its scan and copied once at the end.
 */
public final class RuntimeFilter {
    private final boolean integerKey;
    private final long buildRows;
    private final MinMaxRange range;
    private final InList inList;
    private final KeyBitset bitset;
    private final SplitBlockBloomFilter bloom;

    /**
     * @param integerKey whether the key is one integer column (tested by value)
     * @param buildRows  build rows the filter was made from
     * @param range      min/max, or null (not an integer key, or an empty build)
     * @param inList     the keys of a small build, or null
     * @param bitset     the keys as an exact bitset over the range, or null
     * @param bloom      a Bloom filter over key hashes, or null
     */
    public RuntimeFilter(final boolean integerKey, final long buildRows, final MinMaxRange range, final InList inList,
                         final KeyBitset bitset, final SplitBlockBloomFilter bloom) {
        this.integerKey = integerKey;
        this.buildRows = buildRows;
        this.range = range;
        this.inList = inList;
        this.bitset = bitset;
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

    /** The exact bitset over the key range, or null. */
    public KeyBitset bitset() {
        return bitset;
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
        if (bitset != null) {
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
        if (bitset != null) {
            return bitset.contains(value);
        }
        if (bloom != null) {
            return bloom.mightContain(FilterHash.ofLong(value));
        }
        return inList == null || inList.contains(value);
    }

    /** Whether a key hash may match (false: certainly not). */
    public boolean mayContainHash(final long hash) {
        return !empty() && (bloom == null || bloom.mightContain(hash));
    }

    /**
     * Keeps, of the {@code count} rows listed in {@code rows}, those whose integer key may match, in order, at
     * the front of {@code rows}; returns how many. The exact bitset, when there is one, answers alone (it holds
     * the range); else the range, then the Bloom filter.
     */
    public int retainValues(final long[] values, final int[] rows, final int count) {
        if (empty()) {
            return 0;
        }
        if (bitset != null) {
            return bitset.retain(values, rows, count);
        }
        int kept = count;
        if (range != null) {
            final long min = range.min();
            final long span = range.max() - min;
            kept = 0;
            for (int j = 0; j < count; j++) {
                final int row = rows[j];
                rows[kept] = row;
                kept += Long.compareUnsigned(values[row] - min, span) <= 0 ? 1 : 0;
            }
        }
        return bloom == null ? kept : bloom.retainValues(values, rows, kept);
    }

    /**
     * As {@link #retainValues} with every row of a batch of {@code n} listed, {@code 0..n-1}: the exact
     * bitset tests them without reading the list (the first filter of a scan's block).
     */
    public int retainAllValues(final long[] values, final int[] rows, final int n) {
        if (bitset != null && !empty()) {
            return bitset.retainAll(values, rows, n);
        }
        for (int i = 0; i < n; i++) {
            rows[i] = i;
        }
        return retainValues(values, rows, n);
    }

    /** As {@link #retainValues} for key hashes. */
    public int retainHashes(final long[] hashes, final int[] rows, final int count) {
        if (empty()) {
            return 0;
        }
        return bloom == null ? count : bloom.retain(hashes, rows, count);
    }

    @Override
    public String toString() {
        return "runtime filter " + kinds() + " over " + buildRows + " build rows"
                + (range == null ? "" : " in [" + range.min() + ", " + range.max() + "]");
    }
}
