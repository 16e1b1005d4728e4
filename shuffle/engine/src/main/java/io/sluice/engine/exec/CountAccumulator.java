package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnVector;
import io.sluice.format.NullMask;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;
import java.util.List;

/**
 * COUNT(*) (every row) and COUNT(x) (rows where the expression x is not NULL); its state is the
 * count, 0 for a group of no counted rows. Also SUM0(x) of an integer x, which adds counts (the
 * partial counts of an aggregation below a join): the same state, each row adding its value
 * instead of one, overflow an error.
 */
final class CountAccumulator extends Accumulator {
    private final Evaluator argument;
    /** Whether each row adds its argument's value (SUM0) rather than one. */
    private final boolean adds;
    private long[] counts = new long[0];

    /** @param argument the expression whose NULL rows are not counted, or null to count every row (COUNT(*)) */
    CountAccumulator(final Evaluator argument) {
        this(argument, false);
    }

    private CountAccumulator(final Evaluator argument, final boolean adds) {
        this.argument = argument;
        this.adds = adds;
    }

    /** SUM0 of an integer expression: the sum of its non-NULL values, 0 for a group without one. */
    static CountAccumulator adding(final Evaluator argument) {
        return new CountAccumulator(argument, true);
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
        if (adds) {
            addValues(batch, ids, n);
            return;
        }
        final long[] nulls = argument == null ? null : argument.nulls(batch);
        if (nulls == null) {
            for (int i = 0; i < n; i++) {
                counts[ids[i]]++;
            }
        } else {
            for (int i = 0; i < n; i++) {
                counts[ids[i]] += NullMask.isNull(nulls, i) ? 0 : 1;
            }
        }
    }

    @Override
    void update(final Batch batch, final int[] ids, final int n, final GroupRuns runs) {
        if (adds || argument != null && argument.nulls(batch) != null) {
            update(batch, ids, n);
            return;
        }
        for (int r = 0; r < runs.count; r++) {
            counts[runs.groups[r]] += runs.length(r);
        }
    }

    @Override
    void updateSingle(final Batch batch, final int n) {
        if (adds) {
            addValues(batch, new int[n], n);
            return;
        }
        final long[] nulls = argument == null ? null : argument.nulls(batch);
        counts[0] += n - NullMask.count(nulls, n);
    }

    @Override
    void merge(final Accumulator other, final int from, final int[] idMap, final int n) {
        add(((CountAccumulator) other).counts, from, idMap, n);
    }

    @Override
    ColumnVector output(final int from, final int to) {
        return int64Column(counts, from, to);
    }

    @Override
    RowType stateType(final String name) {
        return new RowType(List.of(name + "$count"), List.of(DataType.INT64));
    }

    @Override
    ColumnVector[] outputState(final int from, final int to) {
        return new ColumnVector[] {output(from, to)};
    }

    @Override
    void mergeState(final Batch batch, final int firstColumn, final int[] ids, final int n) {
        add(int64Values(batch, firstColumn), 0, ids, n);
    }

    /** SUM0: adds each row's value, unless NULL, into its group. */
    private void addValues(final Batch batch, final int[] ids, final int n) {
        final long[] values = argument.longs(batch);
        final long[] nulls = argument.nulls(batch);
        for (int i = 0; i < n; i++) {
            if (nulls == null || !NullMask.isNull(nulls, i)) {
                counts[ids[i]] = Math.addExact(counts[ids[i]], values[i]);
            }
        }
    }

    /** Adds the counts at {@code [from, from + n)} into groups {@code idMap[0..n)}. */
    private void add(final long[] other, final int from, final int[] idMap, final int n) {
        for (int i = 0; i < n; i++) {
            counts[idMap[i]] = Math.addExact(counts[idMap[i]], other[from + i]);
        }
    }
}
