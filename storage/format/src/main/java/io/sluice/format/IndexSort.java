package io.sluice.format;

/**
 * A stable merge sort of row indices by a comparator over primitive data, without boxing: what
 * sorted table writes and zonemap sweeps use to order rows and blocks.
 */
public final class IndexSort {
    /** Compares two indices by whatever they stand for. */
    @FunctionalInterface
    public interface IndexComparator {
        /**
         * Negative, zero or positive as index {@code a} orders before, with or after index {@code b}.
         *
         * @param a the first index
         * @param b the second index
         * @return a negative number, zero or a positive number
         */
        int compare(int a, int b);
    }

    private IndexSort() {
    }

    /**
     * Indices {@code 0..n-1} in ascending order; equal indices keep their order.
     *
     * @param n          how many indices to sort, 0 or more
     * @param comparator orders two indices, as {@link IndexComparator#compare} says
     * @return a new array of the {@code n} indices, sorted
     */
    public static int[] stableOrder(final int n, final IndexComparator comparator) {
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
                    b[k++] = comparator.compare(a[j], a[i]) < 0 ? a[j++] : a[i++];
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
