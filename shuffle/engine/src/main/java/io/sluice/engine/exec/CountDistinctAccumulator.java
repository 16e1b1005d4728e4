package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;
import java.util.List;

/**
 * COUNT(DISTINCT x) of integers, decimals or dates: the distinct (group, value) pairs of the rows
 * where x is not NULL live in one {@link KeyTable}; a pair seen for the first time counts one for
 * its group. It has no partial
 * state for a two-phase aggregation (see {@link HashAggregate#splittable}).
 */
final class CountDistinctAccumulator extends Accumulator {
    private static final RowType PAIR = new RowType(List.of("group", "value"),
            List.of(DataType.INT64, DataType.INT64));

    private final Evaluator argument;
    private final KeyTable pairs = new KeyTable(new DataType[] {DataType.INT64, DataType.INT64});
    private final KeyColumns pairKeys = new KeyColumns(List.of(Expr.col("group"), Expr.col("value")), PAIR);
    private final long[] groupColumn = new long[Block.MAX_ROWS];
    private final long[] valueColumn = new long[Block.MAX_ROWS];
    private final int[] pairIds = new int[Block.MAX_ROWS];
    private long[] counts = new long[0];

    CountDistinctAccumulator(final Evaluator argument) {
        this.argument = argument;
    }

    @Override
    DataType type() {
        return DataType.INT64;
    }

    @Override
    void ensureCapacity(final int groups) {
        if (groups > counts.length) {
            counts = Arrays.copyOf(counts, grow(counts.length, groups));
        }
    }

    @Override
    void update(final Batch batch, final int[] ids, final int n) {
        final long[] v = argument.longs(batch);
        final long[] nulls = argument.nulls(batch);
        if (nulls == null) {
            for (int i = 0; i < n; i++) {
                groupColumn[i] = ids[i];
            }
            System.arraycopy(v, 0, valueColumn, 0, n);
            addPairs(n);
            return;
        }
        int m = 0;
        for (int i = 0; i < n; i++) {
            groupColumn[m] = ids[i];
            valueColumn[m] = v[i];
            m += NullMask.isNull(nulls, i) ? 0 : 1;
        }
        addPairs(m);
    }

    private void addPairs(final int n) {
        final Batch pairBatch = Batch.of(new LongVector(ColumnType.INT64, groupColumn, n, null),
                new LongVector(ColumnType.INT64, valueColumn, n, null));
        final int before = pairs.size();
        pairKeys.evaluate(pairBatch);
        pairs.findOrInsert(pairKeys, pairIds);
        int seen = before;
        for (int i = 0; i < n; i++) {
            if (pairIds[i] == seen) {
                counts[(int) groupColumn[i]]++;
                seen++;
            }
        }
    }

    @Override
    void merge(final Accumulator other, final int from, final int[] idMap, final int n) {
        final CountDistinctAccumulator o = (CountDistinctAccumulator) other;
        final int to = from + n;
        for (int start = 0; start < o.pairs.size(); start += Block.MAX_ROWS) {
            final int end = Math.min(o.pairs.size(), start + Block.MAX_ROWS);
            final long[] groups = ((LongVector) o.pairs.keyVector(0, start, end)).values();
            final long[] values = ((LongVector) o.pairs.keyVector(1, start, end)).values();
            int m = 0;
            for (int i = 0; i < end - start; i++) {
                final int og = (int) groups[i];
                if (og >= from && og < to) {
                    groupColumn[m] = idMap[og - from];
                    valueColumn[m] = values[i];
                    m++;
                }
            }
            addPairs(m);
        }
    }

    @Override
    ColumnVector output(final int from, final int to) {
        return int64Column(counts, from, to);
    }

    @Override
    RowType stateType(final String name) {
        throw notSplittable();
    }

    @Override
    ColumnVector[] outputState(final int from, final int to) {
        throw notSplittable();
    }

    @Override
    void mergeState(final Batch batch, final int firstColumn, final int[] ids, final int n) {
        throw notSplittable();
    }

    /** Partial counts of distinct values do not add up: the same value may be counted on two nodes. */
    private IllegalStateException notSplittable() {
        return new IllegalStateException("COUNT(DISTINCT " + argument + ") has no partial state: aggregate it in "
                + "one phase, after a shuffle on the group keys");
    }
}
