package io.sluice.shuffle.exec;

import io.sluice.shuffle.expr.DataType;
import io.sluice.shuffle.operator.Batch;
import io.sluice.storage.ColumnType;
import io.sluice.storage.ColumnVector;
import io.sluice.storage.LongVector;
import io.sluice.storage.NullMask;
import java.util.Arrays;

/** COUNT(*) (every row) and COUNT(column) (rows where the column is not null). */
final class CountAccumulator extends Accumulator {
    private final int nullableColumn;
    private long[] counts = new long[0];

    /** @param nullableColumn the input column whose nulls are not counted, or -1 to count every row */
    CountAccumulator(final int nullableColumn) {
        this.nullableColumn = nullableColumn;
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
        final long[] nulls = nullableColumn < 0 ? null : batch.column(nullableColumn).nulls();
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
    void updateSingle(final Batch batch, final int n) {
        final long[] nulls = nullableColumn < 0 ? null : batch.column(nullableColumn).nulls();
        long added = n;
        if (nulls != null) {
            for (int i = 0; i < n; i++) {
                added -= NullMask.isNull(nulls, i) ? 1 : 0;
            }
        }
        counts[0] += added;
    }

    @Override
    void merge(final Accumulator other, final int from, final int[] idMap, final int n) {
        final CountAccumulator o = (CountAccumulator) other;
        for (int i = 0; i < n; i++) {
            counts[idMap[i]] += o.counts[from + i];
        }
    }

    @Override
    ColumnVector output(final int from, final int to) {
        return new LongVector(ColumnType.INT64, Arrays.copyOfRange(counts, from, to), to - from, null);
    }
}
