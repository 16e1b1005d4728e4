package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;
import java.util.List;

/**
 * MIN or MAX of a DECIMAL128 (a SUM, as in TPC-H Q15's {@code max(total_revenue)}), skipping NULL
 * inputs; NULL for a group without a non-NULL input. Its state is the value itself, NULL likewise.
 */
final class Decimal128MinMaxAccumulator extends Accumulator {
    private final Evaluator argument;
    private final boolean max;
    private long[] high = new long[0];
    private long[] low = new long[0];
    private boolean[] seen = new boolean[0];

    Decimal128MinMaxAccumulator(final Evaluator argument, final boolean max) {
        this.argument = argument;
        this.max = max;
    }

    @Override
    DataType type() {
        return argument.type();
    }

    @Override
    void ensureCapacity(final int groups) {
        if (groups > low.length) {
            final int capacity = grow(low.length, groups);
            high = Arrays.copyOf(high, capacity);
            low = Arrays.copyOf(low, capacity);
            seen = Arrays.copyOf(seen, capacity);
        }
    }

    @Override
    void update(final Batch batch, final int[] ids, final int n) {
        add(argument.highs(batch), argument.lows(batch), argument.nulls(batch), ids, n);
    }

    private void add(final long[] h, final long[] l, final long[] nulls, final int[] ids, final int n) {
        for (int i = 0; i < n; i++) {
            if (nulls == null || !NullMask.isNull(nulls, i)) {
                add(ids[i], h[i], l[i]);
            }
        }
    }

    private void add(final int g, final long h, final long l) {
        final int cmp = Decimal128Vector.compare(h, l, high[g], low[g]);
        if (!seen[g] || (max ? cmp > 0 : cmp < 0)) {
            high[g] = h;
            low[g] = l;
            seen[g] = true;
        }
    }

    @Override
    void merge(final Accumulator other, final int from, final int[] idMap, final int n) {
        final Decimal128MinMaxAccumulator o = (Decimal128MinMaxAccumulator) other;
        for (int i = 0; i < n; i++) {
            if (o.seen[from + i]) {
                add(idMap[i], o.high[from + i], o.low[from + i]);
            }
        }
    }

    @Override
    ColumnVector output(final int from, final int to) {
        final int n = to - from;
        final long[] h = Arrays.copyOfRange(high, from, to);
        final long[] l = Arrays.copyOfRange(low, from, to);
        long[] nulls = null;
        for (int i = 0; i < n; i++) {
            if (!seen[from + i]) {
                nulls = nulls == null ? new long[NullMask.words(n)] : nulls;
                NullMask.setNull(nulls, i);
                h[i] = 0;
                l[i] = 0;
            }
        }
        return new Decimal128Vector(type().storage(), h, l, n, nulls);
    }

    @Override
    RowType stateType(final String name) {
        return new RowType(List.of(name + "$value"), List.of(type()));
    }

    @Override
    ColumnVector[] outputState(final int from, final int to) {
        return new ColumnVector[] {output(from, to)};
    }

    @Override
    void mergeState(final Batch batch, final int firstColumn, final int[] ids, final int n) {
        if (!(batch.column(firstColumn) instanceof Decimal128Vector v)) {
            throw new IllegalArgumentException("state column " + firstColumn + " holds "
                    + batch.column(firstColumn).type() + ", expected a 128-bit decimal: a final aggregation reads"
                    + " the rows of the matching partial aggregation");
        }
        add(v.high(), v.low(), v.nulls(), ids, n);
    }
}
