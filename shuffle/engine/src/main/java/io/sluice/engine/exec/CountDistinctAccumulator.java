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
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;
import java.util.List;

/**
 * COUNT(DISTINCT x) of integers, decimals, dates or strings: the distinct (group, value) pairs live
 * in one {@link KeyTable}; a pair seen for the first time counts one for its group unless its value
 * is NULL (a string's NULL rows go into the table as one pair per group and count nothing, so that
 * a string vector is never copied to drop them). It has no partial
 * state for a two-phase aggregation (see {@link HashAggregate#splittable}).
 */
final class CountDistinctAccumulator extends Accumulator {
    private final Evaluator argument;
    private final boolean strings;
    private final KeyTable pairs;
    private final KeyColumns pairKeys;
    private final long[] groupColumn = new long[Block.MAX_ROWS];
    private final long[] valueColumn = new long[Block.MAX_ROWS];
    private final int[] pairIds = new int[Block.MAX_ROWS];
    private long[] counts = new long[0];

    CountDistinctAccumulator(final Evaluator argument) {
        this.argument = argument;
        this.strings = argument.type().kind() == DataType.Kind.STRING;
        final DataType value = strings ? DataType.STRING : DataType.INT64;
        this.pairs = new KeyTable(new DataType[] {DataType.INT64, value});
        this.pairKeys = new KeyColumns(List.of(Expr.col("group"), Expr.col("value")),
                new RowType(List.of("group", "value"), List.of(DataType.INT64, value)));
    }

    @Override
    DataType type() {
        return DataType.INT64;
    }

    /** The distinct (group, value) pairs: two longs or a long and a string each, and a hash slot. */
    @Override
    long heldBytes() {
        return (long) pairs.size() * (strings ? 28 : 32) + pairs.stringBytes();
    }

    @Override
    void ensureCapacity(final int groups) {
        if (groups > counts.length) {
            counts = Arrays.copyOf(counts, grow(counts.length, groups));
        }
    }

    @Override
    void update(final Batch batch, final int[] ids, final int n) {
        if (strings) {
            for (int i = 0; i < n; i++) {
                groupColumn[i] = ids[i];
            }
            addStringPairs(argument.strings(batch), n);
            return;
        }
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

    /** Adds (group, string) pairs, {@code groupColumn} holding the groups; a NULL string counts nothing. */
    private void addStringPairs(final StringVector values, final int n) {
        final Batch pairBatch = Batch.of(new LongVector(ColumnType.INT64, groupColumn, n, null), values);
        final int before = pairs.size();
        pairKeys.evaluate(pairBatch);
        pairs.findOrInsert(pairKeys, pairIds);
        final long[] nulls = values.nulls();
        int seen = before;
        for (int i = 0; i < n; i++) {
            if (pairIds[i] == seen) {
                if (nulls == null || !NullMask.isNull(nulls, i)) {
                    counts[(int) groupColumn[i]]++;
                }
                seen++;
            }
        }
    }

    /**
     * Merges another accumulator's string pairs: a pair of a group outside the merged ones becomes
     * (-1, NULL), which counts nothing, so that its string vector needs no copy.
     */
    private void mergeStrings(final CountDistinctAccumulator o, final int from, final int[] idMap, final int n) {
        for (int start = 0; start < o.pairs.size(); start += Block.MAX_ROWS) {
            final int end = Math.min(o.pairs.size(), start + Block.MAX_ROWS);
            final long[] groups = ((LongVector) o.pairs.keyVector(0, start, end)).values();
            final StringVector values = (StringVector) o.pairs.keyVector(1, start, end);
            final int rows = end - start;
            final long[] nulls = new long[NullMask.words(rows)];
            if (values.nulls() != null) {
                System.arraycopy(values.nulls(), 0, nulls, 0, nulls.length);
            }
            for (int i = 0; i < rows; i++) {
                final int og = (int) groups[i];
                if (og >= from && og < from + n) {
                    groupColumn[i] = idMap[og - from];
                } else {
                    groupColumn[i] = -1;
                    NullMask.setNull(nulls, i);
                }
            }
            addStringPairs(withNulls(values, nulls, rows), rows);
        }
    }

    private static StringVector withNulls(final StringVector v, final long[] nulls, final int rows) {
        return v.isDictionary() ? StringVector.dictionary(v.codes(), v.dictionary(), rows, nulls)
                : StringVector.plain(v.offsets(), v.bytes(), rows, nulls);
    }

    @Override
    void merge(final Accumulator other, final int from, final int[] idMap, final int n) {
        final CountDistinctAccumulator o = (CountDistinctAccumulator) other;
        if (strings) {
            mergeStrings(o, from, idMap, n);
            return;
        }
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
