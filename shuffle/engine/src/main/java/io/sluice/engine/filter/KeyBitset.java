package io.sluice.engine.filter;

/**
 * The exact key set of an integer key as one bit per value of {@code [min, max]}: what probes test when
 * the range is narrow enough (a bitset of at most {@link RuntimeFilterConfig#bitmapMaxBytes}). A test is
 * a subtraction, one unsigned compare and one bit read, with no branch, so it costs about the same on
 * every key; a RoaringBitmap, which partials use to merge and to cross CNs, answers the same question
 * with a search per key.
 */
public final class KeyBitset {
    private final long min;
    private final long span;
    private final long[] words;

    private KeyBitset(final long min, final long span) {
        this.min = min;
        this.span = span;
        this.words = new long[(int) ((span + 63) >>> 6)];
    }

    /** Whether the keys of {@code [min, max]} fit a bitset of at most {@code maxBytes}. */
    public static boolean fits(final long min, final long max, final int maxBytes) {
        final long span = max - min + 1;
        return max >= min && span > 0 && span <= (long) maxBytes * Byte.SIZE;
    }

    /** The bitset of some keys, all in {@code [min, max]}. */
    public static KeyBitset of(final long[] keys, final long min, final long max) {
        if (!fits(min, max, Integer.MAX_VALUE / Byte.SIZE)) {
            throw new IllegalArgumentException("keys in [" + min + ", " + max + "] are too far apart for a bitset:"
                    + " test them with a Bloom filter");
        }
        final KeyBitset set = new KeyBitset(min, max - min + 1);
        for (final long k : keys) {
            final long offset = k - min;
            if (offset < 0 || offset >= set.span) {
                throw new IllegalArgumentException("key " + k + " lies outside [" + min + ", " + max + "]");
            }
            set.words[(int) (offset >>> 6)] |= 1L << offset;
        }
        return set;
    }

    /** Bytes it takes. */
    public int bytes() {
        return words.length * Long.BYTES;
    }

    /** Whether a key is in the set. */
    public boolean contains(final long key) {
        final long offset = key - min;
        return Long.compareUnsigned(offset, span) < 0 && (words[(int) (offset >>> 6)] & 1L << offset) != 0;
    }

    /**
     * As {@link #retain} with rows {@code 0..n-1} listed: lists in {@code rows} those whose key is in the set,
     * without reading what {@code rows} held.
     */
    public int retainAll(final long[] values, final int[] rows, final int n) {
        final long[] w = words;
        final long lo = min;
        final long span = this.span;
        int kept = 0;
        // 64 rows' tests gathered into one mask, then only its set bits written out: a probe that keeps few
        // rows (a selective join's keys) stores almost nothing.
        for (int from = 0; from < n; from += 64) {
            final int to = Math.min(n, from + 64);
            long mask = 0;
            for (int row = from; row < to; row++) {
                final long offset = values[row] - lo;
                final long inRange = Long.compareUnsigned(offset, span) < 0 ? 1 : 0;
                final long word = w[(int) ((offset >>> 6) & -inRange)];
                mask |= ((word >>> offset) & inRange) << (row - from);
            }
            while (mask != 0) {
                rows[kept++] = from + Long.numberOfTrailingZeros(mask);
                mask &= mask - 1;
            }
        }
        return kept;
    }

    /**
     * Keeps, of the {@code count} rows listed in {@code rows}, those whose key is in the set, in order, at the
     * front of {@code rows}; returns how many.
     */
    public int retain(final long[] values, final int[] rows, final int count) {
        final long[] w = words;
        final long lo = min;
        final long n = span;
        int kept = 0;
        for (int j = 0; j < count; j++) {
            final int row = rows[j];
            final long offset = values[row] - lo;
            // An offset outside the range reads word 0 but is masked out by the compare.
            final long inRange = Long.compareUnsigned(offset, n) < 0 ? 1 : 0;
            final long word = w[(int) ((offset >>> 6) & -inRange)];
            rows[kept] = row;
            kept += (int) ((word >>> offset) & inRange);
        }
        return kept;
    }
}
