package io.sluice.engine.exec;

import io.sluice.format.IndexSort;

/**
 * The k-way merge of sorted runs laid out one after another in one index space (run {@code r} holds
 * the indexes {@code [starts[r], starts[r + 1])}, each in order): a {@link RunHeap} over the runs'
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
        final RunHeap heap = new RunHeap(k, (a, b) -> comparator.compare(head[a], head[b]));
        for (int r = 0; r < k; r++) {
            if (starts[r + 1] < starts[r]) {
                throw new IllegalArgumentException("run " + r + " ends at " + starts[r + 1] + " before it starts at "
                        + starts[r] + ": run offsets must ascend");
            }
            head[r] = starts[r];
            if (starts[r] < starts[r + 1]) {
                heap.add(r);
            }
        }
        heap.build();
        for (int n = 0; n < wanted; n++) {
            final int r = heap.top();
            out[n] = head[r]++;
            if (head[r] == starts[r + 1]) {
                heap.removeTop();
            } else {
                heap.topChanged();
            }
        }
        return out;
    }
}
