package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
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
 * One aggregate window function over a sliding frame ({@link WindowFrame.Shape#SLIDING}): given
 * each row's {@link FrameBounds}, it computes every row's frame state in one pass and hands the
 * states to the function's group-by {@link Accumulator} (one group per row), so that the values
 * and their types are exactly those of the same aggregate in a GROUP BY.
 *
 * <ul>
 *   <li>COUNT and the exact SUM and AVG of integers and decimals subtract prefix sums (128-bit for
 *       the sums): O(1) per row.</li>
 *   <li>SUM and AVG of doubles add the rows that enter the frame and subtract those that leave it,
 *       with a compensation term against rounding and with infinities and NaNs counted apart (a
 *       subtracted infinity would otherwise leave NaN behind); an emptied frame starts again from 0.</li>
 *   <li>MIN and MAX keep a monotonic deque of the frame's candidates: O(1) amortized per row.</li>
 * </ul>
 * Both frame ends only move forward, so every row enters and leaves the frame once. No allocation
 * per row: the arrays are sized by the rows of the partitions computed together.
 */
final class FrameAggregation {
    private FrameAggregation() {
    }

    /** Throws IllegalArgumentException, naming the function, unless a sliding frame can compute it. */
    static void check(final WindowFunction function, final RowType input) {
        final WindowFunctionType type = function.type();
        if (type == WindowFunctionType.COUNT || type == WindowFunctionType.COUNT_STAR) {
            return;
        }
        final DataType t = function.argument().bind(input).type();
        final boolean sum = type == WindowFunctionType.SUM || type == WindowFunctionType.AVG;
        if (t.isWide() || (sum ? t.kind() == DataType.Kind.DATE
                || !(t.isExactNumeric() || t.kind() == DataType.Kind.DOUBLE) : !t.isExactNumeric())) {
            throw new IllegalArgumentException(function + ": over the frame " + function.frame() + " Sluice computes"
                    + " COUNT, SUM and AVG of integers, decimals and doubles and MIN and MAX of integers, decimals"
                    + " and dates, not of " + t + (t.isWide() ? " (a 128-bit SUM result)" : "")
                    + "; frames from UNBOUNDED PRECEDING to CURRENT ROW or UNBOUNDED FOLLOWING take it");
        }
    }

    /**
     * The function's value for every row, in window order.
     *
     * @param sorted the rows in window order, {@link Block#MAX_ROWS} to a batch but the last
     */
    static ColumnVector compute(final WindowFunction function, final RowType input, final List<Batch> sorted,
                                final FrameBounds bounds) {
        final int total = bounds.first().length;
        final Accumulator acc = function.asAggregate().newAccumulator(input);
        acc.ensureCapacity(total);
        final int[] first = bounds.first();
        final int[] last = bounds.last();
        if (function.type() == WindowFunctionType.COUNT_STAR) {
            final long[] counts = new long[total];
            for (int i = 0; i < total; i++) {
                counts[i] = Math.max(0, last[i] - first[i] + 1);
            }
            mergeStates(acc, total, counts);
            return acc.output(0, total);
        }
        final Evaluator argument = function.argument().bind(input);
        final long[] values = new long[total];
        final boolean[] isNull = new boolean[total];
        for (int b = 0; b < sorted.size(); b++) {
            final Batch batch = sorted.get(b);
            final int n = batch.rowCount();
            final int from = b * Block.MAX_ROWS;
            if (function.type() != WindowFunctionType.COUNT) {
                System.arraycopy(argument.longs(batch), 0, values, from, n);
            }
            final long[] nulls = argument.nulls(batch);
            if (nulls != null) {
                for (int i = 0; i < n; i++) {
                    isNull[from + i] = NullMask.isNull(nulls, i);
                }
            }
        }
        if (acc instanceof CountAccumulator) {
            final long[] present = new long[total + 1];
            for (int i = 0; i < total; i++) {
                present[i + 1] = present[i] + (isNull[i] ? 0 : 1);
            }
            final long[] counts = new long[total];
            for (int i = 0; i < total; i++) {
                counts[i] = first[i] > last[i] ? 0 : present[last[i] + 1] - present[first[i]];
            }
            mergeStates(acc, total, counts);
        } else if (acc instanceof SumAccumulator) {
            exactSums(acc, values, isNull, first, last);
        } else if (acc instanceof DoubleSumAccumulator) {
            doubleSums(acc, values, isNull, first, last);
        } else if (acc instanceof MinMaxAccumulator) {
            extremes(acc, values, isNull, first, last, function.type() == WindowFunctionType.MAX);
        } else {
            throw new IllegalStateException(function + " over " + function.frame() + " reached "
                    + acc.getClass().getSimpleName() + ", which FrameAggregation.check refuses");
        }
        return acc.output(0, total);
    }

    /** 128-bit prefix sums of the non-NULL values; each frame's sum is the difference of two. */
    private static void exactSums(final Accumulator acc, final long[] values, final boolean[] isNull,
                                  final int[] first, final int[] last) {
        final int total = values.length;
        final long[] high = new long[total + 1];
        final long[] low = new long[total + 1];
        final long[] present = new long[total + 1];
        for (int i = 0; i < total; i++) {
            final long value = isNull[i] ? 0 : values[i];
            final long after = low[i] + value;
            low[i + 1] = after;
            high[i + 1] = high[i] + (value >> 63) + (Long.compareUnsigned(after, low[i]) < 0 ? 1 : 0);
            present[i + 1] = present[i] + (isNull[i] ? 0 : 1);
        }
        final long[] sumHigh = new long[total];
        final long[] sumLow = new long[total];
        final long[] counts = new long[total];
        for (int i = 0; i < total; i++) {
            if (first[i] > last[i]) {
                continue;
            }
            final int to = last[i] + 1;
            final int from = first[i];
            final long lo = low[to] - low[from];
            sumLow[i] = lo;
            sumHigh[i] = high[to] - high[from] - (Long.compareUnsigned(low[to], low[from]) < 0 ? 1 : 0);
            counts[i] = present[to] - present[from];
        }
        mergeStates(acc, total, sumHigh, sumLow, counts);
    }

    /** A sliding compensated sum of the finite values, with the infinities and NaNs of the frame counted. */
    private static void doubleSums(final Accumulator acc, final long[] bits, final boolean[] isNull,
                                   final int[] first, final int[] last) {
        final int total = bits.length;
        final long[] sums = new long[total];
        final long[] counts = new long[total];
        final DoubleWindowSum window = new DoubleWindowSum();
        int from = 0;
        int to = 0;
        for (int i = 0; i < total; i++) {
            if (first[i] >= to) {
                window.clear();
                from = first[i];
                to = first[i];
            }
            while (to <= last[i]) {
                if (!isNull[to]) {
                    window.add(Double.longBitsToDouble(bits[to]), 1);
                }
                to++;
            }
            while (from < first[i]) {
                if (!isNull[from]) {
                    window.add(Double.longBitsToDouble(bits[from]), -1);
                }
                from++;
            }
            counts[i] = window.count;
            sums[i] = Double.doubleToRawLongBits(window.value());
        }
        mergeStates(acc, total, sums, counts);
    }

    /** A monotonic deque of row positions: the front is the frame's extreme, later rows that beat it behind. */
    private static void extremes(final Accumulator acc, final long[] values, final boolean[] isNull,
                                 final int[] first, final int[] last, final boolean max) {
        final int total = values.length;
        final int[] deque = new int[total];
        int head = 0;
        int tail = 0;
        final long[] out = new long[total];
        final long[] nulls = new long[NullMask.words(total)];
        int from = 0;
        int to = 0;
        for (int i = 0; i < total; i++) {
            if (first[i] >= to) {
                head = 0;
                tail = 0;
                from = first[i];
                to = first[i];
            }
            while (to <= last[i]) {
                if (!isNull[to]) {
                    final long v = values[to];
                    while (tail > head && (max ? values[deque[tail - 1]] <= v : values[deque[tail - 1]] >= v)) {
                        tail--;
                    }
                    deque[tail++] = to;
                }
                to++;
            }
            while (from < first[i]) {
                if (tail > head && deque[head] == from) {
                    head++;
                }
                from++;
            }
            if (tail > head) {
                out[i] = values[deque[head]];
            } else {
                NullMask.setNull(nulls, i);
            }
        }
        for (int start = 0; start < total; start += Block.MAX_ROWS) {
            final int n = Math.min(Block.MAX_ROWS, total - start);
            final long[] part = Arrays.copyOfRange(out, start, start + n);
            final long[] partNulls = new long[NullMask.words(n)];
            for (int i = 0; i < n; i++) {
                if (NullMask.isNull(nulls, start + i)) {
                    NullMask.setNull(partNulls, i);
                }
            }
            acc.mergeState(Batch.of(new LongVector(ColumnType.INT64, part, n, partNulls)), 0, ids(start, n), n);
        }
    }

    /** Merges per-row INT64 state columns, one array per column, into groups 0..total-1. */
    private static void mergeStates(final Accumulator acc, final int total, final long[]... columns) {
        for (int start = 0; start < total; start += Block.MAX_ROWS) {
            final int n = Math.min(Block.MAX_ROWS, total - start);
            final ColumnVector[] state = new ColumnVector[columns.length];
            for (int c = 0; c < columns.length; c++) {
                state[c] = new LongVector(ColumnType.INT64, Arrays.copyOfRange(columns[c], start, start + n),
                        n, null);
            }
            acc.mergeState(Batch.of(state), 0, ids(start, n), n);
        }
    }

    private static int[] ids(final int start, final int n) {
        final int[] ids = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = start + i;
        }
        return ids;
    }

    /** The sum of a frame's doubles as rows enter (+1) and leave (-1) it. */
    private static final class DoubleWindowSum {
        private double sum;
        private double compensation;
        private long count;
        private long nans;
        private long positiveInfinities;
        private long negativeInfinities;

        void clear() {
            sum = 0;
            compensation = 0;
            count = 0;
            nans = 0;
            positiveInfinities = 0;
            negativeInfinities = 0;
        }

        void add(final double value, final int sign) {
            count += sign;
            if (Double.isNaN(value)) {
                nans += sign;
            } else if (value == Double.POSITIVE_INFINITY) {
                positiveInfinities += sign;
            } else if (value == Double.NEGATIVE_INFINITY) {
                negativeInfinities += sign;
            } else {
                // Neumaier's compensated addition: the low bits a big value loses come back when it leaves.
                final double x = sign > 0 ? value : -value;
                final double t = sum + x;
                compensation += Math.abs(sum) >= Math.abs(x) ? (sum - t) + x : (x - t) + sum;
                sum = t;
            }
        }

        double value() {
            if (nans > 0 || (positiveInfinities > 0 && negativeInfinities > 0)) {
                return Double.NaN;
            }
            if (positiveInfinities > 0) {
                return Double.POSITIVE_INFINITY;
            }
            if (negativeInfinities > 0) {
                return Double.NEGATIVE_INFINITY;
            }
            return sum + compensation;
        }
    }
}
