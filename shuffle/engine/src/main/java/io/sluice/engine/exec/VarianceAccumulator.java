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
 * VAR_SAMP, VAR_POP, STDDEV_SAMP and STDDEV_POP of numbers, as doubles, skipping NULL inputs: per
 * group the count, mean and sum of squared differences from the mean (Welford's update, as DuckDB
 * computes them), partial states combined by Chan's formula. NULL without input, and the sample
 * forms NULL for a single value.
 */
final class VarianceAccumulator extends Accumulator {
    private final Evaluator argument;
    private final AggregateFunction function;
    private final double divisor;
    private long[] counts = new long[0];
    private double[] means = new double[0];
    private double[] m2s = new double[0];

    VarianceAccumulator(final Evaluator argument, final AggregateFunction function) {
        this.argument = argument;
        this.function = function;
        final DataType t = argument.type();
        this.divisor = t.kind() == DataType.Kind.DECIMAL ? Math.pow(10, t.scale()) : 1;
    }

    @Override
    DataType type() {
        return DataType.DOUBLE;
    }

    @Override
    void ensureCapacity(final int groups) {
        if (groups > counts.length) {
            counts = Arrays.copyOf(counts, grow(counts.length, groups));
            means = Arrays.copyOf(means, counts.length);
            m2s = Arrays.copyOf(m2s, counts.length);
        }
    }

    @Override
    void update(final Batch batch, final int[] ids, final int n) {
        final long[] v = argument.longs(batch);
        final long[] nulls = argument.nulls(batch);
        final boolean isDouble = argument.type().kind() == DataType.Kind.DOUBLE;
        for (int i = 0; i < n; i++) {
            if (nulls == null || !NullMask.isNull(nulls, i)) {
                final double x = isDouble ? Double.longBitsToDouble(v[i]) : v[i] / divisor;
                final int g = ids[i];
                final long count = ++counts[g];
                final double delta = x - means[g];
                means[g] += delta / count;
                m2s[g] += delta * (x - means[g]);
            }
        }
    }

    private void combine(final int g, final long count, final double mean, final double m2) {
        if (count == 0) {
            return;
        }
        final long total = counts[g] + count;
        final double delta = mean - means[g];
        m2s[g] += m2 + delta * delta * counts[g] * count / total;
        means[g] += delta * count / total;
        counts[g] = total;
    }

    @Override
    void merge(final Accumulator other, final int from, final int[] idMap, final int n) {
        final VarianceAccumulator o = (VarianceAccumulator) other;
        for (int i = 0; i < n; i++) {
            combine(idMap[i], o.counts[from + i], o.means[from + i], o.m2s[from + i]);
        }
    }

    @Override
    ColumnVector output(final int from, final int to) {
        final int n = to - from;
        final long[] out = new long[n];
        long[] nulls = null;
        final boolean sample = function == AggregateFunction.VAR_SAMP || function == AggregateFunction.STDDEV_SAMP;
        final boolean root = function == AggregateFunction.STDDEV_SAMP || function == AggregateFunction.STDDEV_POP;
        for (int i = 0; i < n; i++) {
            final long count = counts[from + i];
            if (count == 0 || (sample && count == 1)) {
                nulls = nulls == null ? new long[NullMask.words(n)] : nulls;
                NullMask.setNull(nulls, i);
                continue;
            }
            final double variance = m2s[from + i] / (sample ? count - 1 : count);
            out[i] = Double.doubleToRawLongBits(root ? Math.sqrt(variance) : variance);
        }
        return new LongVector(ColumnType.INT64, out, n, nulls);
    }

    @Override
    RowType stateType(final String name) {
        return new RowType(List.of(name + "$count", name + "$mean", name + "$m2"),
                List.of(DataType.INT64, DataType.DOUBLE, DataType.DOUBLE));
    }

    @Override
    ColumnVector[] outputState(final int from, final int to) {
        final int n = to - from;
        final long[] mean = new long[n];
        final long[] m2 = new long[n];
        for (int i = 0; i < n; i++) {
            mean[i] = Double.doubleToRawLongBits(means[from + i]);
            m2[i] = Double.doubleToRawLongBits(m2s[from + i]);
        }
        return new ColumnVector[] {int64Column(counts, from, to), new LongVector(ColumnType.INT64, mean, n, null),
            new LongVector(ColumnType.INT64, m2, n, null)};
    }

    @Override
    void mergeState(final Batch batch, final int firstColumn, final int[] ids, final int n) {
        final long[] c = int64Values(batch, firstColumn);
        final long[] mean = int64Values(batch, firstColumn + 1);
        final long[] m2 = int64Values(batch, firstColumn + 2);
        for (int i = 0; i < n; i++) {
            combine(ids[i], c[i], Double.longBitsToDouble(mean[i]), Double.longBitsToDouble(m2[i]));
        }
    }
}
