package io.sluice.shuffle.exec;

import io.sluice.shuffle.expr.DataType;
import io.sluice.shuffle.expr.Evaluator;
import io.sluice.shuffle.operator.Batch;
import io.sluice.storage.ColumnVector;
import io.sluice.storage.IntVector;
import io.sluice.storage.LongVector;
import java.util.Arrays;

/** MIN or MAX of integers, decimals or dates. */
final class MinMaxAccumulator extends Accumulator {
    private final Evaluator argument;
    private final boolean max;
    private long[] values = new long[0];

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
            Arrays.fill(values, old, values.length, max ? Long.MIN_VALUE : Long.MAX_VALUE);
        }
    }

    @Override
    void update(final Batch batch, final int[] ids, final int n) {
        final long[] v = argument.longs(batch);
        if (max) {
            for (int i = 0; i < n; i++) {
                values[ids[i]] = Math.max(values[ids[i]], v[i]);
            }
        } else {
            for (int i = 0; i < n; i++) {
                values[ids[i]] = Math.min(values[ids[i]], v[i]);
            }
        }
    }

    @Override
    void merge(final Accumulator other, final int from, final int[] idMap, final int n) {
        final MinMaxAccumulator o = (MinMaxAccumulator) other;
        for (int i = 0; i < n; i++) {
            final int g = idMap[i];
            values[g] = max ? Math.max(values[g], o.values[from + i]) : Math.min(values[g], o.values[from + i]);
        }
    }

    @Override
    ColumnVector output(final int from, final int to) {
        final DataType t = type();
        if (t.isLongStored()) {
            return new LongVector(t.storage(), Arrays.copyOfRange(values, from, to), to - from, null);
        }
        final int[] ints = new int[to - from];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = (int) values[from + i];
        }
        return new IntVector(t.storage(), ints, ints.length, null);
    }
}
