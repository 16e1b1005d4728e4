package io.sluice.engine.filter;

import org.roaringbitmap.RoaringBitmap;

/**
 * Every build key of an integer key whose keys all lie in {@code [0, 2^32)}, in a RoaringBitmap (as
 * unsigned 32-bit values): exact, so a probe row it passes has a matching build key. Bitmaps of
 * several buckets merge by OR into the bitmap of the union.
 */
public final class ExactBitmap {
    /** The largest key a bitmap holds. */
    public static final long MAX_KEY = 0xFFFF_FFFFL;

    private final RoaringBitmap bits;
    private int[] scratch = new int[0];

    /** An empty bitmap. */
    public ExactBitmap() {
        this(new RoaringBitmap());
    }

    /** A bitmap over the given bits (kept, not copied). */
    public ExactBitmap(final RoaringBitmap bits) {
        this.bits = bits;
    }

    /** Whether a key can be held: {@code 0 <= key <= MAX_KEY}. */
    public static boolean holds(final long key) {
        return (key >>> 32) == 0;
    }

    /**
     * Adds the first {@code n} keys; each must be {@link #holds held}. They go in as one array, so keys of one
     * container (the same upper 16 bits, as keys read in order mostly are) are added without a search each.
     */
    public void add(final long[] keys, final int n) {
        if (scratch.length < n) {
            scratch = new int[n];
        }
        final int[] values = scratch;
        for (int i = 0; i < n; i++) {
            values[i] = (int) keys[i];
        }
        bits.addN(values, 0, n);
    }

    /** Adds one key, which must be {@link #holds held}. */
    public void add(final long key) {
        bits.add((int) key);
    }

    /** Whether a key was added. */
    public boolean contains(final long key) {
        return holds(key) && bits.contains((int) key);
    }

    /** Clears {@code keep[i]} for each of the first {@code n} values not in the bitmap. */
    public void retain(final long[] values, final int n, final boolean[] keep) {
        for (int i = 0; i < n; i++) {
            final long v = values[i];
            keep[i] &= (v >>> 32) == 0 && bits.contains((int) v);
        }
    }

    /** Adds every key of another bitmap. */
    public void or(final ExactBitmap other) {
        bits.or(other.bits);
    }

    /** Distinct keys. */
    public long cardinality() {
        return bits.getLongCardinality();
    }

    /** Bytes the bitmap takes serialized (also about its size in memory). */
    public int sizeInBytes() {
        return bits.serializedSizeInBytes();
    }

    /** The keys, ascending. */
    public long[] keys() {
        final long[] out = new long[bits.getCardinality()];
        final org.roaringbitmap.IntIterator it = bits.getIntIterator();
        int i = 0;
        while (it.hasNext()) {
            out[i++] = Integer.toUnsignedLong(it.next());
        }
        return out;
    }

    /** The bitmap itself, for encoding. */
    RoaringBitmap bits() {
        return bits;
    }
}
