package io.sluice.dispatch;

import io.sluice.shuffle.operator.Batch;
import io.sluice.storage.ColumnBuilder;
import io.sluice.storage.ColumnVector;
import io.sluice.storage.IntVector;
import io.sluice.storage.LongVector;
import io.sluice.storage.StringVector;

/**
 * Copies a row range of a batch into a new batch that owns its columns: how a sink splits a batch
 * whose encoding exceeds the largest frame a publication takes. Row by row, so only for that rare path.
 */
final class BatchSlicer {
    private BatchSlicer() {
    }

    /** Rows {@code [from, to)} of {@code batch}, tagged with the same {@code shuffleIdx}. */
    static Batch slice(final Batch batch, final int from, final int to) {
        final ColumnVector[] columns = new ColumnVector[batch.columnCount()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = slice(batch.column(c), from, to);
        }
        final Batch slice = Batch.of(columns);
        return batch.shuffleIdx() == Batch.NO_SHUFFLE_IDX ? slice : slice.withShuffleIdx(batch.shuffleIdx());
    }

    private static ColumnVector slice(final ColumnVector vector, final int from, final int to) {
        final ColumnBuilder builder = new ColumnBuilder(vector.type());
        for (int r = from; r < to; r++) {
            if (vector.isNull(r)) {
                builder.appendNull();
            } else if (vector instanceof LongVector longs) {
                builder.appendLong(longs.get(r));
            } else if (vector instanceof IntVector ints) {
                builder.appendInt(ints.get(r));
            } else {
                builder.appendString(((StringVector) vector).getString(r));
            }
        }
        return builder.build(0, to - from);
    }
}
