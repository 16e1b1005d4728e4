package io.sluice.engine.filter;

/**
 * The keys one bucket (or one CN, or the whole build) has seen so far, in a form that merges: for an
 * integer key its min/max and, while every key lies in {@code [0, 2^32)}, an {@link ExactBitmap}
 * (else a Bloom filter of {@code bloomBytes}); for any other key a Bloom filter of its hashes.
 * Partials of one join are made with the same Bloom size, so {@link #merge} is an OR; {@link #finish}
 * then chooses the kinds probes test.
 */
public final class FilterPartial {
    private final boolean integerKey;
    private final int bloomBytes;
    private long rows;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;
    private ExactBitmap bitmap;
    private SplitBlockBloomFilter bloom;

    private FilterPartial(final boolean integerKey, final int bloomBytes, final ExactBitmap bitmap,
                          final SplitBlockBloomFilter bloom) {
        this.integerKey = integerKey;
        this.bloomBytes = bloomBytes;
        this.bitmap = bitmap;
        this.bloom = bloom;
    }

    /** An empty partial of a single integer key; {@code bloomBytes} is the size of the Bloom filter it may need. */
    public static FilterPartial integerKey(final int bloomBytes) {
        if (bloomBytes < SplitBlockBloomFilter.BLOCK_BYTES || Integer.bitCount(bloomBytes) != 1) {
            throw new IllegalArgumentException("a Bloom filter has a power of two of at least "
                    + SplitBlockBloomFilter.BLOCK_BYTES + " bytes, got " + bloomBytes);
        }
        return new FilterPartial(true, bloomBytes, new ExactBitmap(), null);
    }

    /** An empty partial of a string or multi-column key, hashed into a Bloom filter of {@code bloomBytes}. */
    public static FilterPartial hashedKey(final int bloomBytes) {
        return new FilterPartial(false, bloomBytes, null, new SplitBlockBloomFilter(bloomBytes));
    }

    /** A decoded partial. */
    static FilterPartial of(final boolean integerKey, final int bloomBytes, final long rows, final long min,
                            final long max, final ExactBitmap bitmap, final SplitBlockBloomFilter bloom) {
        final FilterPartial p = new FilterPartial(integerKey, bloomBytes, bitmap, bloom);
        p.rows = rows;
        p.min = min;
        p.max = max;
        return p;
    }

    public boolean isIntegerKey() {
        return integerKey;
    }

    public int bloomBytes() {
        return bloomBytes;
    }

    /** Build rows added. */
    public long rows() {
        return rows;
    }

    long min() {
        return min;
    }

    long max() {
        return max;
    }

    ExactBitmap bitmap() {
        return bitmap;
    }

    SplitBlockBloomFilter bloom() {
        return bloom;
    }

    /** Adds the first {@code n} integer keys. */
    public void addValues(final long[] keys, final int n) {
        if (!integerKey) {
            throw new IllegalStateException("a partial of a hashed key takes hashes, not values");
        }
        rows += n;
        long lo = min;
        long hi = max;
        boolean held = true;
        for (int i = 0; i < n; i++) {
            final long k = keys[i];
            lo = Math.min(lo, k);
            hi = Math.max(hi, k);
            held &= (k >>> 32) == 0;
        }
        min = lo;
        max = hi;
        if (bitmap != null && !held) {
            toBloom();
        }
        if (bitmap != null) {
            bitmap.add(keys, n);
        } else {
            for (int i = 0; i < n; i++) {
                bloom.insert(FilterHash.ofLong(keys[i]));
            }
        }
    }

    /** Adds the first {@code n} key hashes of a hashed key. */
    public void addHashes(final long[] hashes, final int n) {
        if (integerKey) {
            throw new IllegalStateException("a partial of an integer key takes values, not hashes");
        }
        rows += n;
        bloom.insert(hashes, n);
    }

    /** Moves the bitmap's keys into a Bloom filter: a key outside what a bitmap holds arrived. */
    private void toBloom() {
        bloom = new SplitBlockBloomFilter(bloomBytes);
        for (final long k : bitmap.keys()) {
            bloom.insert(FilterHash.ofLong(k));
        }
        bitmap = null;
    }

    /**
     * Merges the partials of one join that are not null into {@code into} or, when it is null, into the first
     * of them (which is changed); returns the result, null when there is none.
     */
    public static FilterPartial mergeAll(final FilterPartial into, final FilterPartial[] partials) {
        FilterPartial merged = into;
        for (final FilterPartial p : partials) {
            if (p == null) {
                continue;
            }
            if (merged == null) {
                merged = p;
            } else {
                merged.merge(p);
            }
        }
        return merged;
    }

    /** Adds every key of another partial of the same join (same key type, same Bloom size). */
    public void merge(final FilterPartial other) {
        if (other.integerKey != integerKey || other.bloomBytes != bloomBytes) {
            throw new IllegalArgumentException("partial runtime filters of different joins cannot be merged: "
                    + this + " and " + other);
        }
        rows += other.rows;
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        if (!integerKey) {
            bloom.or(other.bloom);
            return;
        }
        if (bitmap != null && other.bitmap != null) {
            bitmap.or(other.bitmap);
            return;
        }
        if (bitmap != null) {
            toBloom();
        }
        if (other.bitmap != null) {
            for (final long k : other.bitmap.keys()) {
                bloom.insert(FilterHash.ofLong(k));
            }
        } else {
            bloom.or(other.bloom);
        }
    }

    /**
     * The filter probes test: min/max for an integer key, an IN list when the distinct keys are at most
     * {@code inListMaxKeys} (it skips blocks by zonemap), and for rows the exact bitset over {@code [min, max]}
     * when it takes at most {@link RuntimeFilterConfig#bitmapBytesFor} its keys, else a Bloom filter sized for the distinct keys (a row
     * test several times cheaper than a search of the IN list); a hashed key gets its Bloom filter.
     */
    public RuntimeFilter finish(final RuntimeFilterConfig config) {
        if (rows == 0) {
            return new RuntimeFilter(integerKey, 0, null, null, null, null);
        }
        if (!integerKey) {
            return new RuntimeFilter(false, rows, null, null, null, fitted(bloom, config));
        }
        final MinMaxRange range = new MinMaxRange(min, max);
        if (bitmap == null) {
            return new RuntimeFilter(true, rows, range, null, null, fitted(bloom, config));
        }
        final long distinct = bitmap.cardinality();
        final long[] keys = bitmap.keys();
        final InList inList = distinct <= config.inListMaxKeys() ? new InList(keys) : null;
        if (KeyBitset.fits(min, max, config.bitmapBytesFor(distinct))) {
            return new RuntimeFilter(true, rows, range, inList, KeyBitset.of(keys, min, max), null);
        }
        final SplitBlockBloomFilter sized = new SplitBlockBloomFilter(config.bloomBytesFor(distinct));
        for (final long k : keys) {
            sized.insert(FilterHash.ofLong(k));
        }
        return new RuntimeFilter(true, rows, range, inList, null, sized);
    }

    /**
     * The Bloom filter folded to the size its keys need (the build rows bound them): partials are sized
     * before the build, by estimate, and an estimate far above the rows would leave probes testing a
     * filter too large for the cache.
     */
    private SplitBlockBloomFilter fitted(final SplitBlockBloomFilter filter, final RuntimeFilterConfig config) {
        return filter.folded(Math.min(filter.bytes(), config.bloomBytesFor(rows)));
    }

    @Override
    public String toString() {
        return "partial filter of " + (integerKey ? "an integer" : "a hashed") + " key, " + rows + " rows, "
                + (bitmap != null ? "bitmap" : "Bloom " + bloomBytes + " bytes");
    }
}
