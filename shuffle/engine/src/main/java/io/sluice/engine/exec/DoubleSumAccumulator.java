package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;
import java.util.List;

/**
 * SUM or AVG of doubles (a quotient, an average), in double precision as DuckDB adds them, skipping
 * NULL inputs; NULL for a group without a non-NULL input. Its state is the sum and the count.
 */
final class DoubleSumAccumulator extends Accumulator {
    private final Evaluator argument;
    private final boolean average;
    private double[] sums = new double[0];
    private long[] counts = new long[0];

    DoubleSumAccumulator(final Evaluator argument, final boolean average) {
        this.argument = argument;
        this.average = average;
    }

    @Override
    DataType type() {
        return DataType.DOUBLE;
    }

    @Override
    void ensureCapacity(final int groups) {
        if (groups > sums.length) {
            sums = Arrays.copyOf(sums, grow(sums.length, groups));
            counts = Arrays.copyOf(counts, sums.length);
        }
    }

    @Override
    void update(final Batch batch, final int[] ids, final int n) {
        final long[] v = argument.longs(batch);
        final long[] nulls = argument.nulls(batch);
        for (int i = 0; i < n; i++) {
            if (nulls == null || !NullMask.isNull(nulls, i)) {
                sums[ids[i]] += Double.longBitsToDouble(v[i]);
                counts[ids[i]]++;
            }
        }
    }

    @Override
    void merge(final Accumulator other, final int from, final int[] idMap, final int n) {
        final DoubleSumAccumulator o = (DoubleSumAccumulator) other;
        for (int i = 0; i < n; i++) {
            sums[idMap[i]] += o.sums[from + i];
            counts[idMap[i]] += o.counts[from + i];
        }
    }

    @Override
    ColumnVector output(final int from, final int to) {
        final int n = to - from;
        final long[] out = new long[n];
        long[] nulls = null;
        for (int i = 0; i < n; i++) {
            final long count = counts[from + i];
            if (count == 0) {
                nulls = nulls == null ? new long[NullMask.words(n)] : nulls;
                NullMask.setNull(nulls, i);
            } else {
                out[i] = Double.doubleToRawLongBits(average ? sums[from + i] / count : sums[from + i]);
            }
        }
        return new LongVector(ColumnType.INT64, out, n, nulls);
    }

    @Override
    RowType stateType(final String name) {
        return new RowType(List.of(name + "$sum", name + "$count"), List.of(DataType.DOUBLE, DataType.INT64));
    }

    @Override
    ColumnVector[] outputState(final int from, final int to) {
        final int n = to - from;
        final long[] bits = new long[n];
        for (int i = 0; i < n; i++) {
            bits[i] = Double.doubleToRawLongBits(sums[from + i]);
        }
        return new ColumnVector[] {new LongVector(ColumnType.INT64, bits, n, null), int64Column(counts, from, to)};
    }

    @Override
    void mergeState(final Batch batch, final int firstColumn, final int[] ids, final int n) {
        final long[] bits = int64Values(batch, firstColumn);
        final long[] c = int64Values(batch, firstColumn + 1);
        for (int i = 0; i < n; i++) {
            sums[ids[i]] += Double.longBitsToDouble(bits[i]);
            counts[ids[i]] += c[i];
        }
    }
}
