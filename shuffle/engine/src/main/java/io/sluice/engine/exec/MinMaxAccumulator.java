package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;
import java.util.List;

/**
 * MIN or MAX of integers, decimals or dates, skipping NULL inputs; NULL for a group without a
 * non-NULL input (also the one group of an aggregation without keys over no input). Its state is
 * the value itself, NULL likewise.
 */
final class MinMaxAccumulator extends Accumulator {
    private final Evaluator argument;
    private final boolean max;
    private long[] values = new long[0];
    private boolean[] seen = new boolean[0];
    private final long[] widened = new long[Block.MAX_ROWS];

    MinMaxAccumulator(final Evaluator argument, final boolean max) {
        this.argument = argument;
        this.max = max;
    }

    @Override
    DataType type() {
        return argument.type();
    }

    @Override
    void ensureCapacity(final int groups) {
        if (groups > values.length) {
            final int old = values.length;
            values = Arrays.copyOf(values, grow(old, groups));
            seen = Arrays.copyOf(seen, values.length);
            Arrays.fill(values, old, values.length, max ? Long.MIN_VALUE : Long.MAX_VALUE);
        }
    }

    @Override
    void update(final Batch batch, final int[] ids, final int n) {
        final long[] v = argument.longs(batch);
        final long[] nulls = argument.nulls(batch);
        if (nulls != null) {
            for (int i = 0; i < n; i++) {
                if (!NullMask.isNull(nulls, i)) {
                    add(ids[i], v[i]);
                }
            }
            return;
        }
        if (max) {
            for (int i = 0; i < n; i++) {
                values[ids[i]] = Math.max(values[ids[i]], v[i]);
                seen[ids[i]] = true;
            }
        } else {
            for (int i = 0; i < n; i++) {
                values[ids[i]] = Math.min(values[ids[i]], v[i]);
                seen[ids[i]] = true;
            }
        }
    }

    @Override
    void merge(final Accumulator other, final int from, final int[] idMap, final int n) {
        final MinMaxAccumulator o = (MinMaxAccumulator) other;
        for (int i = 0; i < n; i++) {
            if (o.seen[from + i]) {
                add(idMap[i], o.values[from + i]);
            }
        }
    }

    @Override
    ColumnVector output(final int from, final int to) {
        final int n = to - from;
        final long[] out = Arrays.copyOfRange(values, from, to);
        long[] nulls = null;
        for (int i = 0; i < n; i++) {
            if (!seen[from + i]) {
                nulls = nulls == null ? new long[NullMask.words(n)] : nulls;
                NullMask.setNull(nulls, i);
                out[i] = 0;
            }
        }
        final DataType t = type();
        if (t.isLongStored()) {
            return new LongVector(t.storage(), out, n, nulls);
        }
        final int[] ints = new int[n];
        for (int i = 0; i < n; i++) {
            ints[i] = (int) out[i];
        }
        return new IntVector(t.storage(), ints, n, nulls);
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
        final ColumnVector column = batch.column(firstColumn);
        final long[] v;
        if (column instanceof IntVector ints) {
            final int[] stored = ints.values();
            for (int i = 0; i < n; i++) {
                widened[i] = stored[i];
            }
            v = widened;
        } else {
            v = int64Values(batch, firstColumn);
        }
        final long[] nulls = column.nulls();
        for (int i = 0; i < n; i++) {
            if (nulls == null || !NullMask.isNull(nulls, i)) {
                add(ids[i], v[i]);
            }
        }
    }

    private void add(final int group, final long value) {
        values[group] = max ? Math.max(values[group], value) : Math.min(values[group], value);
        seen[group] = true;
    }
}
