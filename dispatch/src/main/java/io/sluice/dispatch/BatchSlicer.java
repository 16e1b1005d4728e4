package io.sluice.dispatch;

import io.sluice.engine.exec.Vectors;
import io.sluice.format.ColumnVector;
import io.sluice.shuffle.operator.Batch;

/**
 * Copies a row range of a batch into a new batch that owns its columns: how a sink splits a batch
 * whose encoding exceeds the largest frame a publication takes.
 */
public final class BatchSlicer {
    private BatchSlicer() {
    }

    /** Rows {@code [from, to)} of {@code batch}, tagged with the same {@code shuffleIdx}. */
    public static Batch slice(final Batch batch, final int from, final int to) {
        final ColumnVector[] columns = new ColumnVector[batch.columnCount()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = Vectors.slice(batch.column(c), from, to);
        }
        final Batch slice = Batch.of(columns);
        return batch.shuffleIdx() == Batch.NO_SHUFFLE_IDX ? slice : slice.withShuffleIdx(batch.shuffleIdx());
    }
}
