package io.sluice.zonemap;

import io.sluice.storage.TypeKind;

/**
 * Maps zonemap keys to longs whose signed order is the kind's key order, so loops compare with
 * plain {@code <} instead of {@link TypeKind#compareKeys}: string prefix keys (unsigned) get
 * their sign bit flipped, numeric keys stay as they are.
 */
final class KeyOrder {
    private KeyOrder() {
    }

    /** The key mapped into signed order. */
    static long ordered(final TypeKind kind, final long key) {
        return kind == TypeKind.STRING ? key ^ Long.MIN_VALUE : key;
    }

    /** {@code hi - lo} for ordered keys {@code lo <= hi}, exactly as an unsigned 64-bit count, as a double. */
    static double width(final long lo, final long hi) {
        final long d = hi - lo;
        return d >= 0 ? (double) d : (double) (d >>> 1) * 2.0 + (d & 1);
    }

    /** Indices {@code 0..n-1} in ascending order of {@code keys} (stable merge sort, no boxing). */
    static int[] sortedIndices(final long[] keys, final int n) {
        int[] a = new int[n];
        int[] b = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                final int mid = Math.min(lo + width, n);
                final int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    b[k++] = keys[a[j]] < keys[a[i]] ? a[j++] : a[i++];
                }
                while (i < mid) {
                    b[k++] = a[i++];
                }
                while (j < hi) {
                    b[k++] = a[j++];
                }
            }
            final int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }
}
