package io.sluice.shuffle.exec;

/** A stable merge sort of row indexes by a comparator over rows, without boxing. */
final class IndexSort {
    /** Compares two rows by index. */
    interface RowComparator {
        int compare(int a, int b);
    }

    private IndexSort() {
    }

    /** Sorts {@code rows[0..n)} by the comparator; equal rows keep their order. */
    static void sort(final int[] rows, final int n, final RowComparator comparator) {
        final int[] buffer = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                final int mid = Math.min(lo + width, n);
                final int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    buffer[k++] = comparator.compare(rows[j], rows[i]) < 0 ? rows[j++] : rows[i++];
                }
                while (i < mid) {
                    buffer[k++] = rows[i++];
                }
                while (j < hi) {
                    buffer[k++] = rows[j++];
                }
            }
            System.arraycopy(buffer, 0, rows, 0, n);
        }
    }
}
