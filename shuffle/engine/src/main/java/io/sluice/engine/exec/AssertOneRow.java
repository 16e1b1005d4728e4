package io.sluice.engine.exec;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows of a scalar subquery, which must be at most one: a sink that keeps them and fails the
 * query with a {@link ScalarSubqueryException} when there are more. Without keys all workers' rows
 * count together ({@link #finish()}: the rows gathered in one place), and no row gives one row of
 * NULLs, the value of a scalar subquery without rows. With keys (a decorrelated subquery, grouped by
 * the outer row's key) the limit is one row per key, checked by each worker over the whole buckets
 * of a shuffle on the keys it gets; a row with a NULL key is not checked, as it matches no outer
 * row. Its output is its input's rows and columns.
 */
public final class AssertOneRow implements Sink<AssertOneRow.Rows> {
    private final RowType input;
    private final List<String> keys;
    private final String where;
    private final List<Rows> collected = new ArrayList<>();
    private List<Batch> result;

    /**
     * @param keys        at most one row per distinct value of these columns; none: at most one in all
     * @param where       names the subquery in the error
     * @param partitioned with keys, true: each worker's morsels are whole buckets of a shuffle on them
     */
    public AssertOneRow(final RowType input, final List<String> keys, final String where, final boolean partitioned) {
        if (!keys.isEmpty() && !partitioned) {
            throw new IllegalArgumentException("one row per key " + keys + " is checked per bucket of a shuffle on"
                    + " the keys: feed the assertion the buckets of such a shuffle");
        }
        this.input = input;
        this.keys = List.copyOf(keys);
        this.where = where;
        for (final String k : keys) {
            input.indexOf(k);
        }
    }

    /** The checked rows, for the pipeline that reads them (valid after {@link #finish()}). */
    public Source output() {
        return new MaterializedSource(input, () -> result, false);
    }

    @Override
    public Rows createLocal() {
        return new Rows();
    }

    @Override
    public synchronized void combine(final Rows local) {
        collected.add(local);
        if (keys.isEmpty() && rowCount() > 1) {
            throw new ScalarSubqueryException(where);
        }
    }

    @Override
    public void finish() {
        final List<Batch> all = new ArrayList<>();
        for (final Rows r : collected) {
            all.addAll(r.batches);
        }
        collected.clear();
        if (keys.isEmpty() && all.isEmpty()) {
            all.add(nullRow());
        }
        result = all;
    }

    private long rowCount() {
        long n = 0;
        for (final Rows r : collected) {
            n += r.rows;
        }
        return n;
    }

    /** One row with every column NULL. */
    private Batch nullRow() {
        final ColumnVector[] columns = new ColumnVector[input.size()];
        final int[] missing = {-1};
        for (int c = 0; c < columns.length; c++) {
            columns[c] = Vectors.gather(Vectors.empty(input.type(c).storage()), missing, 1);
        }
        return Batch.of(columns);
    }

    @Override
    public String toString() {
        return "assert one row" + (keys.isEmpty() ? "" : " per " + keys) + ": " + where;
    }

    /** A worker's rows, checked as they come: their count, or without keys, their keys seen once. */
    public final class Rows implements BatchConsumer {
        private final List<Batch> batches = new ArrayList<>();
        private final KeyColumns keyColumns;
        private final KeyTable table;
        private final int[] ids;
        private boolean[] seen = new boolean[0];
        private long rows;

        Rows() {
            if (keys.isEmpty()) {
                keyColumns = null;
                table = null;
                ids = null;
            } else {
                final List<Expr> refs = new ArrayList<>();
                for (final String k : keys) {
                    refs.add(Expr.col(k));
                }
                keyColumns = new KeyColumns(refs, input);
                table = new KeyTable(keyColumns.types());
                ids = new int[Block.MAX_ROWS];
            }
        }

        @Override
        public void accept(final Batch batch) {
            final int n = batch.rowCount();
            if (n == 0) {
                return;
            }
            rows += n;
            batches.add(batch);
            if (keyColumns == null) {
                if (rows > 1) {
                    throw new ScalarSubqueryException(where);
                }
                return;
            }
            keyColumns.evaluate(batch);
            table.findOrInsert(keyColumns, ids);
            if (seen.length < table.size()) {
                seen = Arrays.copyOf(seen, Math.max(table.size(), 2 * seen.length));
            }
            for (int i = 0; i < n; i++) {
                if (keyColumns.hasNull(i)) {
                    continue;
                }
                if (seen[ids[i]]) {
                    throw new ScalarSubqueryException(where);
                }
                seen[ids[i]] = true;
            }
        }
    }
}
