package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.engine.spill.SpillReader;
import io.sluice.engine.spill.SpillRun;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The k-way merge of an external sort: sorted runs on disk and one in memory, read a batch per run at a
 * time. A {@link RunHeap} over the runs' head rows, as {@link KWayMerge} keeps over one index space, hands
 * out the smallest head (equal heads in run order, so the merge is stable); the rows picked are gathered
 * into output batches of {@link Block#MAX_ROWS} straight from the runs' batches. Memory: one batch per run
 * and the output batch. Each {@link #produce} reads the runs from their start.
 */
final class SpilledRunMerge {
    private final RowType rowType;
    private final Sort order;
    private final List<SpillRun> runs;
    private final List<Batch> inMemory;
    private final long limit;

    SpilledRunMerge(final RowType rowType, final Sort order, final List<SpillRun> runs, final List<Batch> inMemory,
                    final long limit) {
        this.rowType = rowType;
        this.order = order;
        this.runs = runs;
        this.inMemory = inMemory;
        this.limit = limit;
    }

    /** Hands the merged rows, the first {@code limit} of them, to {@code out} in order. */
    void produce(final BatchConsumer out) {
        final int k = runs.size() + 1;
        final List<SpillReader> readers = new ArrayList<>(runs.size());
        try {
            for (final SpillRun run : runs) {
                readers.add(run.open());
            }
            final Iterator<Batch> memoryRun = inMemory.iterator();
            final Batch[] head = new Batch[k];
            final int[] row = new int[k];
            final RunHeap heap = new RunHeap(k, (a, b) -> order.compare(head[a], row[a], head[b], row[b]));
            for (int r = 0; r < k; r++) {
                head[r] = next(r < runs.size() ? readers.get(r) : null, memoryRun);
                if (head[r] != null) {
                    heap.add(r);
                }
            }
            heap.build();
            final Picks picks = new Picks(k);
            long left = limit == Sort.NO_LIMIT ? Long.MAX_VALUE : limit;
            while (!heap.isEmpty() && left > 0) {
                final int r = heap.top();
                picks.pick(r, head[r], row[r]);
                left--;
                if (++row[r] == head[r].rowCount()) {
                    head[r] = next(r < runs.size() ? readers.get(r) : null, memoryRun);
                    row[r] = 0;
                    picks.leave(r);
                }
                if (head[r] == null) {
                    heap.removeTop();
                } else {
                    heap.topChanged();
                }
                if (picks.count == Block.MAX_ROWS) {
                    picks.flush(out);
                }
            }
            picks.flush(out);
        } finally {
            for (final SpillReader reader : readers) {
                reader.close();
            }
        }
    }

    /** The run's next batch with rows, or null after its last. */
    private static Batch next(final SpillReader reader, final Iterator<Batch> memoryRun) {
        while (true) {
            final Batch b = reader != null ? reader.next() : memoryRun.hasNext() ? memoryRun.next() : null;
            if (b == null || b.rowCount() > 0) {
                return b;
            }
        }
    }

    /** The rows picked for the next output batch, as places in the runs' batches they come from. */
    private final class Picks {
        private final List<Batch> sources = new ArrayList<>();
        /** Each run's current batch's place in {@link #sources}; -1 when it is not there yet. */
        private final int[] sourceOf;
        private final int[] batchOf = new int[Block.MAX_ROWS];
        private final int[] rowOf = new int[Block.MAX_ROWS];
        private int count;

        Picks(final int runs) {
            sourceOf = new int[runs];
            java.util.Arrays.fill(sourceOf, -1);
        }

        void pick(final int run, final Batch batch, final int row) {
            if (sourceOf[run] < 0) {
                sourceOf[run] = sources.size();
                sources.add(batch);
            }
            batchOf[count] = sourceOf[run];
            rowOf[count++] = row;
        }

        /** The run moved on to its next batch. */
        void leave(final int run) {
            sourceOf[run] = -1;
        }

        void flush(final BatchConsumer out) {
            if (count == 0) {
                return;
            }
            final int[] identity = new int[count];
            for (int i = 0; i < count; i++) {
                identity[i] = i;
            }
            for (final ColumnVector[] columns : RunRows.picked(sources, batchOf, rowOf, count)
                    .gather(rowType, identity, count, 0)) {
                out.accept(Batch.of(columns));
            }
            sources.clear();
            java.util.Arrays.fill(sourceOf, -1);
            count = 0;
        }
    }
}
