package io.sluice.format;

import java.util.Arrays;

/**
 * A stable merge sort of row indices by a comparator over primitive data, without boxing: what
 * sorted table writes and zonemap sweeps use to order rows and blocks; and its first few indices
 * alone, for a top-N.
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

    /**
     * The first {@code k} indices of {@link #stableOrder}{@code (n, comparator)}, in that order, found with
     * a heap of {@code k} indices instead of sorting all {@code n} (about {@code n log k} comparisons, most
     * of them one comparison with the heap's last index): a top-N that keeps few of many rows.
     *
     * @param n          how many indices there are, 0 or more
     * @param k          how many to keep, 0 or more; all {@code n} when it is {@code n} or more
     * @param comparator orders two indices, as {@link IndexComparator#compare} says
     * @return a new array of {@code min(k, n)} indices
     */
    public static int[] firstStable(final int n, final int k, final IndexComparator comparator) {
        if (k >= n) {
            return stableOrder(n, comparator);
        }
        // A max-heap by (comparator, index): heap[0] is the last index kept so far in stable order. A
        // later index orders after every kept one it ties with, so it enters only when strictly before.
        final IndexComparator order = (a, b) -> {
            final int c = comparator.compare(a, b);
            return c != 0 ? c : Integer.compare(a, b);
        };
        final int[] heap = new int[k];
        for (int i = 0; i < n && k > 0; i++) {
            if (i < k) {
                heap[i] = i;
                siftUp(heap, i, order);
            } else if (comparator.compare(i, heap[0]) < 0) {
                heap[0] = i;
                siftDown(heap, k, order);
            }
        }
        Arrays.sort(heap);
        final int[] positions = stableOrder(k, (a, b) -> comparator.compare(heap[a], heap[b]));
        final int[] first = new int[k];
        for (int i = 0; i < k; i++) {
            first[i] = heap[positions[i]];
        }
        return first;
    }

    private static void siftUp(final int[] heap, final int at, final IndexComparator order) {
        int child = at;
        while (child > 0) {
            final int parent = (child - 1) >>> 1;
            if (order.compare(heap[parent], heap[child]) >= 0) {
                return;
            }
            swap(heap, parent, child);
            child = parent;
        }
    }

    private static void siftDown(final int[] heap, final int size, final IndexComparator order) {
        int parent = 0;
        while (true) {
            final int left = 2 * parent + 1;
            if (left >= size) {
                return;
            }
            final int right = left + 1;
            final int larger = right < size && order.compare(heap[right], heap[left]) > 0 ? right : left;
            if (order.compare(heap[parent], heap[larger]) >= 0) {
                return;
            }
            swap(heap, parent, larger);
            parent = larger;
        }
    }

    private static void swap(final int[] heap, final int a, final int b) {
        final int t = heap[a];
        heap[a] = heap[b];
        heap[b] = t;
    }
}
