package io.sluice.engine.exec;

import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * The build side of a nested-loop join: the workers' rows, concatenated once by {@link #finish()}
 * into one vector per column that every worker's {@link NestedLoopJoinProbe} then reads, shared and
 * never changed.
 */
public final class NestedLoopJoinBuild implements Sink<NestedLoopJoinBuild.Rows> {
    private final RowType rowType;
    private final List<Rows> collected = new ArrayList<>();
    private ColumnVector[] columns;
    private int rowCount;
    /** What the rows this operator keeps take of the query's memory. */
    private QueryMemory.Operator memory = QueryMemory.unbounded().operator("NestedLoopJoinBuild");

    public NestedLoopJoinBuild(final RowType rowType) {
        this.rowType = rowType;
    }

    /** The build side's columns. */
    public RowType rowType() {
        return rowType;
    }

    /** Accounts the rows this operator keeps in {@code account}; it throws when the query may hold no more. */
    public NestedLoopJoinBuild memory(final QueryMemory.Operator account) {
        this.memory = account;
        return this;
    }

    @Override
    public Rows createLocal() {
        return new Rows(memory);
    }

    @Override
    public synchronized void combine(final Rows local) {
        collected.add(local);
    }

    @Override
    public void finish() {
        final ColumnVector[] all = new ColumnVector[rowType.size()];
        int total = 0;
        for (int c = 0; c < all.length; c++) {
            final List<ColumnVector> parts = new ArrayList<>();
            int rows = 0;
            for (final Rows r : collected) {
                for (final Batch b : r.batches) {
                    parts.add(b.column(c));
                    rows = Math.addExact(rows, b.rowCount());
                }
            }
            all[c] = parts.isEmpty() ? Vectors.empty(rowType.type(c).storage())
                    : Vectors.concat(parts, rowType.type(c).storage());
            total = rows;
        }
        collected.clear();
        columns = all;
        rowCount = total;
    }

    /** Build rows in all (valid after {@link #finish()}). */
    int rowCount() {
        return rowCount;
    }

    /** Column {@code c} of every build row (valid after {@link #finish()}). */
    ColumnVector column(final int c) {
        return columns[c];
    }

    @Override
    public String toString() {
        return "nested loop join build " + rowType.names();
    }

    /** A worker's collected build rows. */
    public static final class Rows implements BatchConsumer {
        private final List<Batch> batches = new ArrayList<>();
        private final QueryMemory.Operator memory;

        Rows(final QueryMemory.Operator memory) {
            this.memory = memory;
        }

        @Override
        public void accept(final Batch batch) {
            memory.keep(batch);
            batches.add(batch);
        }
    }
}
