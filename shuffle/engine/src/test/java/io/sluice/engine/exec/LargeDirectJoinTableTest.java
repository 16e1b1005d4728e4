package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A build too large for the small direct lookup's {@link JoinHashTable#DENSE_MAX} entries is still
 * looked up directly when its keys span at most {@link JoinHashTable#LARGE_DENSE_FACTOR} values per
 * row (the orders of a TPC-H scale factor of 10 in one bucket: a key in every 4), and hashed beyond;
 * either way every probe key in and between the build keys finds exactly its rows.
 */
class LargeDirectJoinTableTest {
    private static final RowType BUILD = new RowType(List.of("k", "id"), List.of(DataType.INT64, DataType.INT64));
    private static final RowType PROBE = new RowType(List.of("k"), List.of(DataType.INT64));
    /** Rows enough that a span of 7 per row exceeds DENSE_MAX but not 8 per row. */
    private static final int ROWS = 1_500_000;

    @Test
    void aLargeBuildSpanningEightValuesPerRowOrLessIsDirectAndWiderIsHashed() {
        assertThat((long) ROWS * 7).isGreaterThan(JoinHashTable.DENSE_MAX);
        for (final int step : new int[] {4, 7, 9}) {
            final JoinHashTable table = JoinHashTable.build(BUILD, List.of(col("k")), build(step));
            assertThat(table.direct()).as("step %d", step).isEqualTo(step <= JoinHashTable.LARGE_DENSE_FACTOR);
            assertThat(table.unique()).isTrue();
            final KeyColumns keys = new KeyColumns(List.of(col("k")), PROBE);
            final int[] first = new int[Block.MAX_ROWS];
            final long last = (long) (ROWS - 1) * step + 100;
            for (long from = 50; from <= last; from += Block.MAX_ROWS) {
                final int n = (int) Math.min(Block.MAX_ROWS, last - from + 1);
                final long[] probe = new long[n];
                for (int i = 0; i < n; i++) {
                    probe[i] = from + i;
                }
                final Batch batch = Batch.of(new LongVector(DataType.INT64.storage(), probe, n, null));
                if (table.direct()) {
                    keys.evaluateUnhashed(batch);
                } else {
                    keys.evaluate(batch);
                }
                table.firstRows(keys, first);
                for (int i = 0; i < n; i++) {
                    final long k = probe[i] - 50;
                    final int expected = k % step == 0 && k / step < ROWS ? (int) (k / step) : -1;
                    if (first[i] != expected) {
                        assertThat(first[i]).as("step %d, probe key %d", step, probe[i]).isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void theDirectLimitNeverShrinksAsBuildsGrowAndStaysAnArray() {
        long previous = 0;
        for (long rows = 1; rows <= Integer.MAX_VALUE; rows = rows * 3 + 1) {
            final long limit = JoinHashTable.denseLimit((int) rows);
            assertThat(limit).isGreaterThanOrEqualTo(previous).isLessThanOrEqualTo(JoinHashTable.DENSE_ARRAY_LIMIT);
            // Never more than the larger of the small table's bound and 8 entries of 4 bytes per row.
            assertThat(limit).isLessThanOrEqualTo(Math.max(JoinHashTable.DENSE_MAX, 8 * rows));
            previous = limit;
        }
    }

    /** Build rows with keys 50, 50 + step, ... and id = the row's position, in batches of a block. */
    private static List<Batch> build(final int step) {
        final List<Batch> batches = new ArrayList<>();
        for (int from = 0; from < ROWS; from += Block.MAX_ROWS) {
            final int n = Math.min(Block.MAX_ROWS, ROWS - from);
            final long[] keys = new long[n];
            final long[] ids = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = 50 + (long) (from + i) * step;
                ids[i] = from + i;
            }
            batches.add(Batch.of(new LongVector(DataType.INT64.storage(), keys, n, null),
                    new LongVector(DataType.INT64.storage(), ids, n, null)));
        }
        return batches;
    }
}
