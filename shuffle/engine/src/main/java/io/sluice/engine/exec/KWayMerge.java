package io.sluice.engine.exec;

import io.sluice.format.IndexSort;

/**
 * The k-way merge of sorted runs laid out one after another in one index space (run {@code r} holds
 * the indexes {@code [starts[r], starts[r + 1])}, each in order): a binary min-heap over the runs'
 * heads hands out the smallest head, then sifts that run's next row down. It costs
 * {@code log2(k)} comparisons a row, instead of a full sort's {@code log2(n)}, and allocates nothing
 * per row: the heap and the heads are {@code int[]} of one slot per run. Rows that compare equal
 * come out in run order, then in their order within the run, so the merge equals a stable sort of
 * the concatenated runs.
 */
public final class KWayMerge {
    private KWayMerge() {
    }

    /**
     * The first {@code limit} indexes of the merged order.
     *
     * @param starts     {@code k + 1} ascending offsets: run {@code r} is {@code [starts[r], starts[r + 1])}
     * @param limit      how many rows to hand out at most; {@link Sort#NO_LIMIT} for all
     * @param comparator orders two indexes; every run must be in its order
     * @return the indexes in merged order, {@code min(limit, rows)} of them
     */
    public static int[] order(final int[] starts, final long limit, final IndexSort.IndexComparator comparator) {
        final int k = starts.length - 1;
        if (k < 0) {
            throw new IllegalArgumentException("a merge needs run offsets, got none: pass {0} for no runs");
        }
        final int total = starts[k] - starts[0];
        final int wanted = limit == Sort.NO_LIMIT ? total : (int) Math.min(limit, total);
        final int[] out = new int[wanted];
        final int[] head = new int[k];
        final int[] heap = new int[k];
        int size = 0;
        for (int r = 0; r < k; r++) {
            if (starts[r + 1] < starts[r]) {
                throw new IllegalArgumentException("run " + r + " ends at " + starts[r + 1] + " before it starts at "
                        + starts[r] + ": run offsets must ascend");
            }
            head[r] = starts[r];
            if (starts[r] < starts[r + 1]) {
                heap[size++] = r;
            }
        }
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDown(heap, size, i, head, comparator);
        }
        for (int n = 0; n < wanted; n++) {
            final int r = heap[0];
            out[n] = head[r]++;
            if (head[r] == starts[r + 1]) {
                heap[0] = heap[--size];
            }
            siftDown(heap, size, 0, head, comparator);
        }
        return out;
    }

    private static void siftDown(final int[] heap, final int size, final int from, final int[] head,
                                 final IndexSort.IndexComparator comparator) {
        int i = from;
        final int r = heap[i];
        while (true) {
            final int left = 2 * i + 1;
            if (left >= size) {
                break;
            }
            int child = left;
            if (left + 1 < size && before(heap[left + 1], heap[left], head, comparator)) {
                child = left + 1;
            }
            if (!before(heap[child], r, head, comparator)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = r;
    }

    /** Whether run {@code a}'s head goes before run {@code b}'s: smaller, or equal and from an earlier run. */
    private static boolean before(final int a, final int b, final int[] head,
                                  final IndexSort.IndexComparator comparator) {
        final int cmp = comparator.compare(head[a], head[b]);
        return cmp < 0 || cmp == 0 && a < b;
    }
}
