package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;

/** The sink of a query's last pipeline: keeps the result batches (in order when its source is ordered). */
public final class ResultCollector implements Sink<ResultCollector.Rows> {
    private final RowType rowType;
    private final List<Batch> batches = new ArrayList<>();

    public ResultCollector(final RowType rowType) {
        this.rowType = rowType;
    }

    @Override
    public Rows createLocal() {
        return new Rows();
    }

    @Override
    public synchronized void combine(final Rows local) {
        batches.addAll(local.batches);
    }

    @Override
    public void finish() {
    }

    @Override
    public String toString() {
        return "result";
    }

    /** The collected batches, in the order they were combined (after the pipeline finished). */
    public List<Batch> batches() {
        return List.copyOf(batches);
    }

    /** The collected rows (after the pipeline finished). */
    public QueryResult result() {
        return new QueryResult(rowType, batches);
    }

    /** A worker's collected batches. */
    public static final class Rows implements BatchConsumer {
        private final List<Batch> batches = new ArrayList<>();

        @Override
        public void accept(final Batch batch) {
            batches.add(batch);
        }
    }
}
