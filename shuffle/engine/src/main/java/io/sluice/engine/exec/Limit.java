package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * LIMIT without ORDER BY: keeps the first {@code limit} rows that arrive (which rows, when
 * several workers feed it, is unspecified, as in SQL). Ordered input (after a sort) arrives on one
 * worker, so there it keeps the first rows in order.
 */
public final class Limit implements Sink<Limit.Rows> {
    private final RowType input;
    private final long limit;
    private final List<Batch> kept = new ArrayList<>();
    private long rows;
    private List<Batch> result;

    public Limit(final RowType input, final long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("LIMIT must be 0 or more, got " + limit);
        }
        this.input = input;
        this.limit = limit;
    }

    /** The kept rows, in arrival order (valid after {@link #finish()}). */
    public Source output() {
        return new MaterializedSource(input, () -> result, true);
    }

    @Override
    public Rows createLocal() {
        return new Rows();
    }

    @Override
    public void combine(final Rows local) {
    }

    @Override
    public void finish() {
        result = List.copyOf(kept);
    }

    private synchronized void offer(final Batch batch) {
        if (rows >= limit) {
            return;
        }
        final int take = (int) Math.min(batch.rowCount(), limit - rows);
        if (take == batch.rowCount()) {
            kept.add(batch);
        } else {
            final ColumnVector[] columns = new ColumnVector[batch.columnCount()];
            for (int c = 0; c < columns.length; c++) {
                columns[c] = Vectors.slice(batch.column(c), 0, take);
            }
            kept.add(Batch.of(columns));
        }
        rows += take;
    }

    /** A worker's handle: batches go straight to the shared, bounded list. */
    public final class Rows implements BatchConsumer {
        @Override
        public void accept(final Batch batch) {
            offer(batch);
        }
    }
}
