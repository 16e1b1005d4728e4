package io.sluice.zonemap;

import io.sluice.format.IndexSort;
import io.sluice.format.TypeKind;

/**
 * Arithmetic on zonemap keys in <em>signed order</em>: string prefix keys (compared unsigned) get
 * their sign bit flipped so that plain {@code <} orders every kind, and a block's keys
 * {@code [min, max]} become the half-open interval {@code [min, max + 1)}, one unit per integer
 * key, so a block with {@code min == max} is a point mass of width one. Widths can reach 2^64,
 * so they are returned as doubles while positions stay exact longs.
 */
public final class KeySpace {
    private static final double TWO_POW_63 = 0x1p63;

    private KeySpace() {
    }

    /**
     * A key of {@code kind} mapped into signed order.
     *
     * @param kind the key's column kind
     * @param key  a zonemap key of that kind
     * @return the key with its sign bit flipped for strings, unchanged for the other kinds
     */
    public static long toSigned(final TypeKind kind, final long key) {
        return kind == TypeKind.STRING ? key ^ Long.MIN_VALUE : key;
    }

    /**
     * The inverse of {@link #toSigned}.
     *
     * @param kind   the key's column kind
     * @param signed a key in signed order
     * @return the zonemap key of that kind
     */
    public static long fromSigned(final TypeKind kind, final long signed) {
        return kind == TypeKind.STRING ? signed ^ Long.MIN_VALUE : signed;
    }

    /**
     * The exclusive end {@code max + 1} of a signed interval. The very top key has no successor:
     * there the end stays {@code Long.MAX_VALUE} (see {@link #startOf}).
     *
     * @param signedMax the interval's last key, in signed order
     * @return the first key past the interval, in signed order
     */
    public static long endOf(final long signedMax) {
        return signedMax == Long.MAX_VALUE ? Long.MAX_VALUE : signedMax + 1;
    }

    /**
     * The start of a signed interval whose last key is {@code signedMax}: {@code signedMin}, except
     * that a point mass at the very top key is counted one key lower so that its interval is not
     * empty (the only approximation the half-open model makes).
     *
     * @param signedMin the interval's first key, in signed order
     * @param signedMax the interval's last key, in signed order, at least {@code signedMin}
     * @return the interval's inclusive start, in signed order
     */
    public static long startOf(final long signedMin, final long signedMax) {
        return signedMin == Long.MAX_VALUE && signedMax == Long.MAX_VALUE ? Long.MAX_VALUE - 1 : signedMin;
    }

    /**
     * {@code hi - lo} for signed positions {@code lo <= hi}, exactly as an unsigned count, rounded to a double.
     *
     * @param lo the lower position, in signed order
     * @param hi the upper position, in signed order, at least {@code lo}
     * @return the number of keys in {@code [lo, hi)}, 0 to 2^64
     */
    public static double width(final long lo, final long hi) {
        final long d = hi - lo;
        return d >= 0 ? (double) d : (double) (d >>> 1) * 2.0 + (d & 1);
    }

    /**
     * {@code lo + offset} for a non-negative offset below 2^64 given as a double, rounded to the
     * nearest key and clamped to {@code [lo, hi]}.
     *
     * @param lo     the start position, in signed order
     * @param hi     the last position the result may take, in signed order, at least {@code lo}
     * @param offset keys to move up from {@code lo}; 0, negative or NaN gives {@code lo}
     * @return the position, in signed order
     */
    public static long offset(final long lo, final long hi, final double offset) {
        if (!(offset > 0)) {
            return lo;
        }
        final double rounded = Math.rint(offset);
        final long step = rounded < TWO_POW_63
                ? (long) rounded
                : rounded >= 2 * TWO_POW_63 ? -1L : (long) (rounded - TWO_POW_63) ^ Long.MIN_VALUE;
        final long span = hi - lo;
        return Long.compareUnsigned(step, span) >= 0 ? hi : lo + step;
    }

    /**
     * Number of entries of the signed, non-decreasing {@code cuts} that are {@code <= signedKey}.
     *
     * @param cuts      cut points in signed order, non-decreasing
     * @param signedKey the key, in signed order
     * @return 0 to {@code cuts.length}, found by binary search
     */
    public static int countAtOrBelow(final long[] cuts, final long signedKey) {
        int lo = 0;
        int hi = cuts.length;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (cuts[mid] <= signedKey) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Indices {@code 0..n-1} in ascending order of {@code keys} (stable, no boxing).
     *
     * @param keys signed keys, at least {@code n} of them
     * @param n    how many of the keys to order
     * @return a new array of the indices, ordered by their key, ties in index order
     */
    public static int[] sortedIndices(final long[] keys, final int n) {
        return IndexSort.stableOrder(n, (a, b) -> Long.compare(keys[a], keys[b]));
    }
}
