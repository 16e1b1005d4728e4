package io.sluice.engine.exec;

/**
 * The binary min-heap of a k-way merge: it holds run numbers ordered by their runs' head rows, so
 * {@link #top()} is the run whose head goes out next. Heads that compare equal go out in run order,
 * which makes a merge of sorted runs equal a stable sort of their concatenation. One {@code int} slot
 * per run and nothing allocated per row; the caller advances the top run's head and then calls
 * {@link #topChanged()} or {@link #removeTop()}.
 */
final class RunHeap {
    /** Orders two runs by their current head rows. */
    @FunctionalInterface
    interface HeadOrder {
        /** Negative, zero or positive as run {@code a}'s head goes before, with or after run {@code b}'s. */
        int compare(int a, int b);
    }

    private final int[] heap;
    private final HeadOrder order;
    private int size;

    /** An empty heap for runs {@code 0..runs-1}; {@link #add} the runs that have rows, then {@link #build}. */
    RunHeap(final int runs, final HeadOrder order) {
        this.heap = new int[runs];
        this.order = order;
    }

    /** Adds a run before {@link #build}. */
    void add(final int run) {
        heap[size++] = run;
    }

    /** Puts the runs added so far in heap order. */
    void build() {
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The run whose head goes out next. */
    int top() {
        return heap[0];
    }

    /** The top run's head moved on to its next row. */
    void topChanged() {
        siftDown(0);
    }

    /** The top run has no rows left. */
    void removeTop() {
        heap[0] = heap[--size];
        siftDown(0);
    }

    private void siftDown(final int from) {
        if (size == 0) {
            return;
        }
        int i = from;
        final int r = heap[i];
        while (true) {
            final int left = 2 * i + 1;
            if (left >= size) {
                break;
            }
            int child = left;
            if (left + 1 < size && before(heap[left + 1], heap[left])) {
                child = left + 1;
            }
            if (!before(heap[child], r)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = r;
    }

    private boolean before(final int a, final int b) {
        final int cmp = order.compare(a, b);
        return cmp < 0 || cmp == 0 && a < b;
    }
}
