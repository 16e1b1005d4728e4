package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Arrays;
import java.util.List;

/**
 * SUM and AVG of integers or scaled decimals in a 128-bit accumulator (two longs per group), so
 * that no sum overflows however many rows it adds. SUM outputs the exact value as a DECIMAL128 of
 * the argument's scale (as DuckDB gives SUM of DECIMAL(p,s) a DECIMAL(38,s) and SUM of an integer
 * a HUGEINT); AVG outputs sum / count as a double. Rows where the argument is NULL are
 * skipped, so both are NULL for a group without a non-NULL input (also the one group of an
 * aggregation without keys over no input). The state of a two-phase aggregation is the sum's two
 * halves and the count of non-NULL inputs, so the final phase sees the exact values and tells a
 * group of NULLs (count 0) from one whose sum is 0.
 */
final class SumAccumulator extends Accumulator {
    /** The largest magnitude below which every integer is a double. */
    private static final double EXACT_DOUBLE = 0x1p53;
    /** 10^0 .. 10^15, each exact as a double (and below {@link #EXACT_DOUBLE}). */
    private static final double[] EXACT_POWERS_OF_TEN = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
        1e11, 1e12, 1e13, 1e14, 1e15};
    private final Evaluator argument;
    private final boolean average;
    /** Whether the argument is itself a DECIMAL128 (a sum of sums), read as two halves. */
    private final boolean wide;
    private long[] high = new long[0];
    private long[] low = new long[0];
    private long[] counts = new long[0];

    SumAccumulator(final Evaluator argument, final boolean average) {
        this.argument = argument;
        this.average = average;
        this.wide = argument.type().isWide();
    }

    @Override
    DataType type() {
        if (average) {
            return DataType.DOUBLE;
        }
        return DataType.decimal128(scale());
    }

    @Override
    void ensureCapacity(final int groups) {
        if (groups > low.length) {
            final int capacity = grow(low.length, groups);
            high = Arrays.copyOf(high, capacity);
            low = Arrays.copyOf(low, capacity);
            counts = Arrays.copyOf(counts, capacity);
        }
    }

    @Override
    void update(final Batch batch, final int[] ids, final int n) {
        update(batch, ids, n, null);
    }

    /** As {@link Accumulator#update(Batch, int[], int, GroupRuns)}; row by row when {@code runs} is null. */
    @Override
    void update(final Batch batch, final int[] ids, final int n, final GroupRuns runs) {
        if (wide) {
            updateWide(batch, ids, n);
            return;
        }
        final long[] v = argument.longs(batch);
        final long[] nulls = argument.nulls(batch);
        if (nulls != null) {
            updateSkippingNulls(v, nulls, ids, n);
        } else if (runs != null) {
            addRuns(v, runs);
        } else {
            addRows(v, ids, n);
        }
    }

    private void addRows(final long[] v, final int[] ids, final int n) {
        final long[] hi = high;
        final long[] lo = low;
        final long[] cnt = counts;
        for (int i = 0; i < n; i++) {
            final int g = ids[i];
            final long value = v[i];
            final long before = lo[g];
            final long after = before + value;
            lo[g] = after;
            hi[g] += (value >> 63) + (Long.compareUnsigned(after, before) < 0 ? 1 : 0);
            cnt[g]++;
        }
    }

    /** Each group's rows summed in registers, its state written once. */
    private void addRuns(final long[] v, final GroupRuns runs) {
        final int[] rows = runs.rows;
        for (int r = 0; r < runs.count; r++) {
            final int g = runs.groups[r];
            long lo = low[g];
            long hi = high[g];
            for (int j = runs.starts[r], end = runs.starts[r + 1]; j < end; j++) {
                final long value = v[rows[j]];
                final long before = lo;
                lo = before + value;
                hi += (value >> 63) + (Long.compareUnsigned(lo, before) < 0 ? 1 : 0);
            }
            low[g] = lo;
            high[g] = hi;
            counts[g] += runs.length(r);
        }
    }

    /** Adds 128-bit arguments; a sum beyond 128 bits is an error, never a wrapped value. */
    private void updateWide(final Batch batch, final int[] ids, final int n) {
        final long[] h = argument.highs(batch);
        final long[] l = argument.lows(batch);
        final long[] nulls = argument.nulls(batch);
        for (int i = 0; i < n; i++) {
            if (nulls != null && NullMask.isNull(nulls, i)) {
                continue;
            }
            final int g = ids[i];
            final long before = low[g];
            final long after = before + l[i];
            low[g] = after;
            try {
                high[g] = Math.addExact(Math.addExact(high[g], h[i]), Long.compareUnsigned(after, before) < 0 ? 1 : 0);
            } catch (final ArithmeticException e) {
                throw new ArithmeticException((average ? "AVG(" : "SUM(") + argument + ") of a group is beyond the"
                        + " 128 bits of a DECIMAL128");
            }
            counts[g]++;
        }
    }

    private void updateSkippingNulls(final long[] v, final long[] nulls, final int[] ids, final int n) {
        for (int i = 0; i < n; i++) {
            if (NullMask.isNull(nulls, i)) {
                continue;
            }
            final int g = ids[i];
            final long value = v[i];
            final long before = low[g];
            final long after = before + value;
            low[g] = after;
            high[g] += (value >> 63) + (Long.compareUnsigned(after, before) < 0 ? 1 : 0);
            counts[g]++;
        }
    }

    @Override
    void updateSingle(final Batch batch, final int n) {
        if (wide) {
            updateWide(batch, GROUP_ZERO, n);
            return;
        }
        final long[] v = argument.longs(batch);
        final long[] nulls = argument.nulls(batch);
        if (nulls != null) {
            updateSkippingNulls(v, nulls, GROUP_ZERO, n);
            return;
        }
        long lo = low[0];
        long hi = high[0];
        for (int i = 0; i < n; i++) {
            final long value = v[i];
            final long before = lo;
            lo = before + value;
            hi += (value >> 63) + (Long.compareUnsigned(lo, before) < 0 ? 1 : 0);
        }
        low[0] = lo;
        high[0] = hi;
        counts[0] += n;
    }

    @Override
    void merge(final Accumulator other, final int from, final int[] idMap, final int n) {
        final SumAccumulator o = (SumAccumulator) other;
        add(o.high, o.low, o.counts, from, idMap, n);
    }

    @Override
    RowType stateType(final String name) {
        return new RowType(List.of(name + "$sum_hi", name + "$sum_lo", name + "$count"),
                List.of(DataType.INT64, DataType.INT64, DataType.INT64));
    }

    @Override
    ColumnVector[] outputState(final int from, final int to) {
        return new ColumnVector[] {int64Column(high, from, to), int64Column(low, from, to),
                int64Column(counts, from, to)};
    }

    @Override
    void mergeState(final Batch batch, final int firstColumn, final int[] ids, final int n) {
        add(int64Values(batch, firstColumn), int64Values(batch, firstColumn + 1),
                int64Values(batch, firstColumn + 2), 0, ids, n);
    }

    /** Adds the 128-bit sums and counts at {@code [from, from + n)} into groups {@code idMap[0..n)}. */
    private void add(final long[] hi, final long[] lo, final long[] cnt, final int from, final int[] idMap,
                     final int n) {
        for (int i = 0; i < n; i++) {
            final int g = idMap[i];
            final int og = from + i;
            final long before = low[g];
            final long after = before + lo[og];
            low[g] = after;
            // exact: two 128-bit sums of sums can leave 128 bits, which is an error, not a wrap
            high[g] = Math.addExact(Math.addExact(high[g], hi[og]), Long.compareUnsigned(after, before) < 0 ? 1 : 0);
            counts[g] += cnt[og];
        }
    }

    @Override
    ColumnVector output(final int from, final int to) {
        final int n = to - from;
        long[] nulls = null;
        for (int i = 0; i < n; i++) {
            if (counts[from + i] == 0) {
                nulls = nulls == null ? new long[NullMask.words(n)] : nulls;
                NullMask.setNull(nulls, i);
            }
        }
        if (!average) {
            final long[] h = Arrays.copyOfRange(high, from, to);
            final long[] l = Arrays.copyOfRange(low, from, to);
            return new Decimal128Vector(type().storage(), h, l, n, nulls);
        }
        final long[] values = new long[n];
        final int scale = scale();
        final double unit = scale < EXACT_POWERS_OF_TEN.length ? EXACT_POWERS_OF_TEN[scale] : 0;
        for (int i = 0; i < n; i++) {
            final int g = from + i;
            final long count = counts[g];
            final long sum = low[g];
            final double divisor = unit * count;
            if (count == 0) {
                continue;
            }
            if (high[g] == sum >> 63 && Math.abs(sum) <= EXACT_DOUBLE && divisor <= EXACT_DOUBLE && unit != 0) {
                // Both exact as doubles: one division rounds the exact quotient once, to the nearest double.
                values[i] = Double.doubleToRawLongBits(sum / divisor);
            } else {
                values[i] = Double.doubleToRawLongBits(average(high[g], sum, count, scale));
            }
        }
        return new LongVector(type().storage(), values, n, nulls);
    }

    /** A sum beyond the doubles' 53 exact bits, divided by its count in decimal arithmetic. */
    private static double average(final long high, final long low, final long count, final int scale) {
        final BigDecimal sum = new BigDecimal(toBigInteger(high, low), scale);
        return sum.divide(BigDecimal.valueOf(count), MathContext.DECIMAL128).doubleValue();
    }

    private int scale() {
        final DataType t = argument.type();
        return t.kind() == DataType.Kind.DECIMAL || t.isWide() ? t.scale() : 0;
    }

    /** The 128-bit two's complement value {@code high:low}. */
    static BigInteger toBigInteger(final long high, final long low) {
        return Decimal128Vector.toBigInteger(high, low);
    }
}
